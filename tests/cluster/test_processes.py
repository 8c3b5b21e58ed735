"""Several real server processes on one PostgreSQL: any request and any socket on any process.

Each test starts gunicorn processes on one throwaway schema, drives a session across them
over HTTP and websockets, and kills every process at the end.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tasksurface.store.advisory import LEASE_LOSS_BOUND_SECONDS
from tasksurface.store.engine import normalise_url

from ..support import Socket, new_id, wait_for
from ..web.test_restart import VALUES, submissions_for
from .conftest import clients
from .processes import Gunicorn, claim_owner, servers


@contextmanager
def admission_blocked(database_url: str) -> Iterator[None]:
    """Inbox rows and claims are written, but appending to the log waits until the block ends."""
    engine = sa.create_engine(normalise_url(database_url))
    connection = engine.connect()
    connection.exec_driver_sql("BEGIN")
    connection.exec_driver_sql("LOCK TABLE session_events IN EXCLUSIVE MODE")
    try:
        yield
    finally:
        connection.exec_driver_sql("ROLLBACK")
        connection.close()
        engine.dispose()


def pushed_events(socket: Socket) -> list[dict[str, Any]]:
    return [e for m in socket.seen if m.get("type") in ("hello", "change") for e in m.get("events", [])]


def phase(message: dict[str, Any]) -> str | None:
    if message.get("type") not in ("hello", "change"):
        return None
    surface = message.get("taskSurface") or {}
    if surface.get("active") is None:
        return "closed"
    return str((surface.get("pending") or {}).get("phase", "open"))


def test_a_message_posted_on_one_process_is_answered_once_and_pushed_to_sockets_on_the_others(
    database_url: str, tmp_path: Path
) -> None:
    with servers(database_url, tmp_path / "instance", 3) as (a, b, c):
        api_a, api_b, api_c = clients(a.url, b.url, c.url)
        sid = api_a.create_session()
        with api_b.socket(sid) as on_b, api_c.socket(sid) as on_c:
            for socket in (on_b, on_c):
                socket.receive_until(lambda m: m.get("type") == "hello")
            api_a.send(sid, "hello from the first process")
            for socket in (on_b, on_c):
                socket.receive_until(
                    lambda m: any(e["kind"] == "assistant/message" for e in m.get("events", [])), 20
                )
            log = api_c.settled(sid)
        assert [e["kind"] for e in log] == ["user/message", "assistant/message"]
        for socket in (on_b, on_c):
            # Log order, no gap, no repeat: exactly the log, whoever committed it.
            assert [e["seq"] for e in pushed_events(socket)] == [e["seq"] for e in log]


def test_messages_sent_to_alternating_processes_are_each_admitted_once_in_order(pair: list[Gunicorn]) -> None:
    a, b = pair
    api_a, api_b = clients(a.url, b.url)
    sid = api_a.create_session()
    texts = [f"message {n}" for n in range(12)]
    with api_a.socket(sid) as on_a:
        on_a.receive_until(lambda m: m.get("type") == "hello")
        for n, text in enumerate(texts):
            (api_a if n % 2 else api_b).send(sid, text)
        wait_for(lambda: len([e for e in api_b.events(sid) if e["kind"] == "assistant/message"]) == 12, 60)
        log = api_a.settled(sid)
        on_a.receive_until(lambda m: any(e["seq"] == log[-1]["seq"] for e in m.get("events", [])), 20)
    admitted = [e["payload"]["content"][0]["text"] for e in log if e["kind"] == "user/message"]
    assert admitted == texts  # once each, in the order they were accepted
    assert [e["kind"] for e in log] == ["user/message", "assistant/message"] * 12
    assert [e["seq"] for e in pushed_events(on_a)] == list(range(1, len(log) + 1))


def test_a_submission_accepted_on_one_process_goes_queued_claiming_closed_on_another(
    pair: list[Gunicorn], database_url: str
) -> None:
    a, b = pair
    api_a, api_b = clients(a.url, b.url)
    sid = api_a.create_session()
    surface = api_a.show_surface(sid)
    api_a.pause(sid)
    with api_b.socket(sid, after=len(api_b.events(sid))) as on_b:
        on_b.receive_until(lambda m: m.get("type") == "hello")
        accepted = api_a.submit(sid, surface, VALUES)
        assert accepted["accepted"] is True
        on_b.receive_until(lambda m: phase(m) == "queued")
        assert api_b.get_active(sid, surface)["pending"]["phase"] == "queued"
        with admission_blocked(database_url):
            api_a.pause(sid, False)
            on_b.receive_until(lambda m: phase(m) == "claiming", 20)
            # The claim lives in the database: the process that did not make it reports it too.
            assert api_b.get_active(sid, surface)["pending"]["phase"] == "claiming"
            assert api_a.get_active(sid, surface)["pending"]["phase"] == "claiming"
            assert api_b.queue(sid) == []
        on_b.receive_until(lambda m: phase(m) == "closed", 20)
        phases = [p for p in map(phase, on_b.seen) if p is not None]
    assert phases.index("queued") < phases.index("claiming") < phases.index("closed")
    assert "queued" not in phases[phases.index("claiming") :]
    [message] = submissions_for(api_b.settled(sid), surface)
    assert message["payload"]["messageId"] == accepted["messageId"]


def test_killing_the_lease_holder_mid_claim_lets_the_other_process_admit_exactly_once(
    pair: list[Gunicorn], database_url: str
) -> None:
    a, b = pair
    api_a, api_b = clients(a.url, b.url)
    sid = api_a.create_session()
    surface = api_a.show_surface(sid)
    submission_id = new_id()
    api_a.pause(sid)  # queued, not logged as it is accepted: a runner will claim it
    accepted = api_a.submit(sid, surface, VALUES, submission_id)
    with admission_blocked(database_url):
        api_a.pause(sid, False)
        wait_for(lambda: api_b.get_active(sid, surface)["pending"]["phase"] == "claiming", 20)
        owner = claim_owner(database_url)
        assert owner is not None
        holder, survivor = (a, b) if a.owns(owner) else (b, a)
        assert holder.owns(owner)
        holder.kill()
        killed_at = time.monotonic()
    api = api_b if survivor is b else api_a
    [message] = wait_for(lambda: submissions_for(api.events(sid), surface), 30)
    resumed_after = time.monotonic() - killed_at
    assert message["payload"]["messageId"] == accepted["messageId"]
    events = api.settled(sid)
    assert len(submissions_for(events, surface)) == 1
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert api.projection(sid)["active"] is None
    # A retry lands on the survivor and gets the first answer, not a second message.
    assert api.submit(sid, surface, VALUES, submission_id) == accepted
    assert resumed_after < LEASE_LOSS_BOUND_SECONDS


def tray_shows_completed(message: dict[str, Any]) -> bool:
    return message.get("type") == "tasks" and any(t["status"] == "completed" for t in message["tasks"])


def test_a_background_task_updates_the_tray_on_every_process(database_url: str, tmp_path: Path) -> None:
    with servers(database_url, tmp_path / "instance", 2, {"TASKSURFACE_TASKS": "embedded"}) as (a, b):
        api_a, api_b = clients(a.url, b.url)
        sid = api_a.create_session()
        with api_a.socket(sid) as on_a, api_b.socket(sid) as on_b:
            for socket in (on_a, on_b):
                socket.receive_until(lambda m: m.get("type") == "hello")
            api_a.send(sid, '/run count {"n": 3}')
            # The task runs on one of them; the other's socket hears of it through the database.
            for socket in (on_a, on_b):
                done = socket.receive_until(tray_shows_completed, 30)
                [task] = done["tasks"]
                assert task["label"] and done["running"] == 0
