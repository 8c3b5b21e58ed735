"""Crashes: the inbox is durable and the claim is not, so a kill never loses or doubles an answer."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tasksurface.store.engine import normalise_url

from ..server_process import ServerProcess
from ..support import Api, new_id, wait_for

VALUES = {
    "name": "2.0",
    "notes": "",
    "channel": "stable",
    "platforms": ["linux"],
    "announce": False,
    "rollout": ["eu", "us", "asia"],
}


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(database_url, tmp_path / "instance").start()
    yield process
    process.stop()


@pytest.fixture
def api(server: ServerProcess) -> Iterator[Api]:
    """One client for the whole test: its identity cookie outlives the restarts, as a browser's does."""
    with Api(server.url) as client:
        yield client


def submissions_for(events: list[dict[str, Any]], surface: str) -> list[dict[str, Any]]:
    return [
        e
        for e in events
        if e["kind"] == "user/message"
        and e["payload"]["source"].get("taskSurface", {}).get("surfaceId") == surface
    ]


def test_a_queued_submission_survives_a_kill_and_is_admitted_once(server: ServerProcess, api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    api.pause(sid)
    submission_id = new_id()
    accepted = api.submit(sid, surface, VALUES, submission_id)
    server.kill()
    server.start()
    pending = api.get_active(sid, surface)["pending"]
    assert pending == {
        "submissionId": submission_id,
        "messageId": accepted["messageId"],
        "phase": "queued",
    }
    assert api.submit(sid, surface, VALUES, submission_id) == accepted  # the retry finds the durable row
    api.pause(sid, False)
    events = api.settled(sid)
    [message] = submissions_for(events, surface)
    assert message["payload"]["messageId"] == accepted["messageId"]
    assert api.projection(sid)["active"] is None


def _block_event_inserts(database_url: str) -> tuple[sa.Connection, sa.Engine]:
    """Hold a lock that lets the inbox take rows but makes admission wait (PostgreSQL)."""
    engine = sa.create_engine(normalise_url(database_url))
    connection = engine.connect()
    connection.exec_driver_sql("BEGIN")
    connection.exec_driver_sql("LOCK TABLE session_events IN EXCLUSIVE MODE")
    return connection, engine


def test_a_claimed_but_uncommitted_submission_is_claimed_again_after_a_kill(
    server: ServerProcess, api: Api, database_url: str
) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    head = len(api.events(sid))
    if database_url.startswith("postgres"):
        # Deterministic: admission blocks on the lock while the runner holds its claim.
        connection, engine = _block_event_inserts(database_url)
        try:
            accepted = api.submit(sid, surface, VALUES)
            wait_for(lambda: (api.get_active(sid, surface)["pending"] or {}).get("phase") == "claiming")
            server.kill()
        finally:
            connection.exec_driver_sql("ROLLBACK")
            connection.close()
            engine.dispose()
    else:
        # SQLite locks the whole file, so kill on the push that announces the claim instead;
        # the commit may or may not have happened, and either way there must be one message.
        with api.socket(sid, after=head) as socket:
            socket.receive_until(lambda m: m.get("type") == "hello")
            killer = threading.Thread(
                target=lambda: (
                    socket.receive_until(
                        lambda m: (m.get("taskSurface", {}).get("pending") or {}).get("phase") == "claiming"
                    ),
                    server.kill(),
                )
            )
            killer.start()
            accepted = api.submit(sid, surface, VALUES)
            killer.join(15)
    server.start()
    events = api.settled(sid)
    [message] = submissions_for(events, surface)
    assert message["payload"]["messageId"] == accepted["messageId"]
    assert api.projection(sid)["active"] is None
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_a_retry_after_a_kill_right_after_the_commit_returns_the_original_message(
    server: ServerProcess, api: Api
) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    submission_id = new_id()
    accepted = api.submit(sid, surface, VALUES, submission_id)
    wait_for(lambda: submissions_for(api.events(sid), surface))
    server.kill()
    server.start()
    before = api.events(sid)
    assert api.submit(sid, surface, VALUES, submission_id) == accepted
    assert (
        api.submit(sid, surface, {**VALUES, "name": "other"}, submission_id)["reason"] == "invalid-submission"
    )
    assert api.events(sid) == before  # nothing appended
    assert len(submissions_for(before, surface)) == 1
