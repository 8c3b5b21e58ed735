"""The pending phase as every subscriber would see it, at every notification the runner sends."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest
import sqlalchemy as sa

from tasksurface.backends.demos import DEMOS
from tasksurface.domain.events import SessionEvent
from tasksurface.domain.ids import SessionId, TaskSurfaceId, TaskSurfaceSubmissionId
from tasksurface.domain.projection import ActiveSurface
from tasksurface.domain.results import ActiveResult, SubmitAccepted
from tasksurface.domain.submission import initial_values
from tasksurface.services.container import Services

from ..support import wait_for


class Witness:
    """Wraps the real notifier and, at each change, records what a page would read back."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.inner = services.runner.notifier
        self.seen: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def changed(
        self,
        session_id: SessionId,
        events: Sequence[SessionEvent] = (),
        queue: bool = False,
        reset: bool = False,
    ) -> None:
        # Read as the push hub reads: the queue, then the surface state, in one snapshot (two
        # reads of their own could fall on either side of an admission's commit).
        with self.services.database.snapshot():
            queued = [q.item.id for q in self.services.sessions.queue(session_id)]
            state = self.services.surfaces.state(session_id)
        with self.lock:
            self.seen.append(
                {
                    "queue": queued,
                    "active": state.active.surface_id if state.active else None,
                    "phase": state.pending.phase if state.pending else None,
                    "kinds": [e.kind for e in events],
                }
            )
        self.inner.changed(session_id, events, queue, reset)


def _open_surface(services: Services, session_id: SessionId) -> TaskSurfaceId:
    services.sessions.send(session_id, "/surface fields")
    active = wait_for(lambda: services.surfaces.state(session_id).active)
    wait_for(services.runner.idle)
    return active.surface_id


def test_claiming_is_visible_before_the_queue_without_the_row_and_there_is_no_editable_gap(
    services: Services,
) -> None:
    session_id = services.sessions.create()
    surface_id = _open_surface(services, session_id)
    witness = Witness(services)
    services.runner.notifier = witness
    services.sessions.notifier = witness
    services.surfaces.notifier = witness
    services.sessions.set_paused(session_id, True)
    active = services.surfaces.get_active(session_id, surface_id)
    assert isinstance(active, ActiveResult)
    values = initial_values(active.model) | {"name": "x", "channel": "stable"}
    accepted_at = len(witness.seen)
    result = services.surfaces.submit(
        session_id, surface_id, TaskSurfaceSubmissionId("submission-01"), values
    )
    assert isinstance(result, SubmitAccepted)
    services.sessions.set_paused(session_id, False)
    wait_for(lambda: services.surfaces.state(session_id).active is None)
    wait_for(services.runner.idle)

    row_left_queue = False
    for seen in witness.seen[accepted_at:]:
        if seen["active"] == surface_id:
            # From acceptance until the commit, the surface is never editable.
            assert seen["phase"] in ("queued", "claiming"), witness.seen
            if not seen["queue"]:
                row_left_queue = True
                assert seen["phase"] == "claiming", witness.seen
        else:
            assert seen["phase"] is None
    assert row_left_queue
    commit = next(s for s in witness.seen if "user/message" in s["kinds"])
    # The commit's notification carries the message and the closed surface together.
    assert commit["active"] is None and commit["phase"] is None


def _queued_answer(
    services: Services, submission: str, channel: str
) -> tuple[SessionId, TaskSurfaceId, dict[str, Any]]:
    """A session whose open surface has an accepted answer waiting in the queue (it is paused)."""
    session_id = services.sessions.create()
    surface_id = _open_surface(services, session_id)
    services.sessions.set_paused(session_id, True)
    active = services.surfaces.get_active(session_id, surface_id)
    assert isinstance(active, ActiveResult)
    values = initial_values(active.model) | {"name": "x", "channel": channel}
    result = services.surfaces.submit(session_id, surface_id, TaskSurfaceSubmissionId(submission), values)
    assert isinstance(result, SubmitAccepted)
    return session_id, surface_id, values


def test_a_discard_restores_an_editable_surface(services: Services) -> None:
    session_id, surface_id, values = _queued_answer(services, "submission-02", "beta")
    [queued] = services.sessions.queue(session_id)
    services.sessions.queue_action(session_id, queued.item.id, "remove")
    after = services.surfaces.get_active(session_id, surface_id)
    assert isinstance(after, ActiveResult) and after.pending is None
    assert [r.outcome for r in services.journal.records() if r.item_id == queued.item.id] == ["discarded"]
    again = services.surfaces.submit(session_id, surface_id, TaskSurfaceSubmissionId("submission-03"), values)
    assert isinstance(again, SubmitAccepted)


def test_every_demo_opens_through_the_real_tool_path(services: Services) -> None:
    session_id = services.sessions.create()
    opened: list[object] = [None]
    for demo in DEMOS:
        services.sessions.send(session_id, f"/surface {demo}")
        state = wait_for(lambda: (a := services.surfaces.state(session_id).active) != opened[-1] and a)
        assert isinstance(state, ActiveSurface)
        opened.append(state)
        wait_for(services.runner.idle)
        active = services.surfaces.get_active(session_id, state.surface_id)
        assert isinstance(active, ActiveResult) and active.model.normalised()["title"] == DEMOS[demo]["title"]


class _CommitBetweenStatements:
    """Runs `commit` on this thread right after the next statement a read sends, once: a commit
    that falls between two statements of one read."""

    def __init__(self, services: Services, commit: Callable[[], None]) -> None:
        self.engine = services.database.engine
        self.commit = commit
        self.fired = False
        self.thread = threading.get_ident()
        """The reading thread: the runner's and the sweeps' statements go by untouched."""

    def __enter__(self) -> _CommitBetweenStatements:
        sa.event.listen(self.engine, "after_cursor_execute", self._after)
        return self

    def __exit__(self, *_exc: object) -> None:
        sa.event.remove(self.engine, "after_cursor_execute", self._after)

    def _after(self, *_args: object) -> None:
        if not self.fired and threading.get_ident() == self.thread:
            self.fired = True
            self.commit()


def _admitted(services: Services, session_id: SessionId) -> Callable[[], None]:
    def commit() -> None:
        services.sessions.set_paused(session_id, False)
        wait_for(lambda: not services.sessions.queue(session_id))
        wait_for(services.runner.idle)

    return commit


@pytest.mark.parametrize("read", ["state", "get_active"])
def test_a_surface_read_while_its_submission_is_admitted_is_never_open_with_nothing_pending(
    services: Services, read: str
) -> None:
    """The page's re-check (`GET …/task-surface`, `getActive`) reads the surface and then its
    pending submission. An admission committing between the two must not show the surface open
    and editable: either the submission is still pending, or the surface is closed."""
    session_id, surface_id, _ = _queued_answer(services, "submission-10", "stable")
    with _CommitBetweenStatements(services, _admitted(services, session_id)) as between:
        if read == "state":
            state = services.surfaces.state(session_id)
            torn = state.active is not None and state.pending is None
        else:
            result = services.surfaces.get_active(session_id, surface_id)
            torn = isinstance(result, ActiveResult) and result.pending is None
    assert between.fired
    assert not torn
    assert services.surfaces.state(session_id).active is None  # it was admitted meanwhile
