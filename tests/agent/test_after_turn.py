"""After a turn the runner lets that turn's pushes go out before it looks for more work, and new
input ends that moment at once."""

from __future__ import annotations

import time

import pytest

from tasksurface.agent import runner
from tasksurface.domain.ids import SessionId
from tasksurface.store.db import Database

from ..support import wait_for
from .harness import kinds, running


def test_the_look_after_a_turn_waits_while_its_pushes_go_out(database: Database) -> None:
    looks: list[float] = []
    with running(database) as world:
        world.pool.context_sources.append(lambda _sid: looks.append(time.monotonic()))
        sid = world.sessions.create()
        world.sessions.send(sid, "hello")
        world.settle(1)
        replied = next(
            c["at"] for c in world.notifier.calls if any(e.kind == "assistant/message" for e in c["events"])
        )
        after = [t for t in looks if t > replied]
        assert after, "the runner looked for context again once the turn was over"
        assert after[0] - replied >= runner.AFTER_TURN_PAUSE * 0.9


def test_input_after_a_turn_ends_the_wait_and_so_does_a_stop(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "AFTER_TURN_PAUSE", 30.0)
    with running(database) as world:
        sid = world.sessions.create()
        world.sessions.send(sid, "first")
        wait_for(lambda: kinds(database, sid) == ["user/message", "assistant/message"])
        started = time.monotonic()
        world.sessions.send(sid, "second")  # the runner is in its wait after the first turn
        wait_for(lambda: _replies(database, sid) == 2)
        assert time.monotonic() - started < 10
        stopping = time.monotonic()
        world.pool.stop(20)
        assert time.monotonic() - stopping < 10 and world.pool.idle()


def _replies(database: Database, sid: SessionId) -> int:
    return kinds(database, sid).count("assistant/message")
