"""Crashes: the inbox is durable and the claim is not, so a kill never loses or doubles an answer."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tasksurface.domain.events import NewEvent, text_content, tool_call, user_message, user_source
from tasksurface.domain.ids import CallId, MessageId, RpcId, SessionId
from tasksurface.store import log
from tasksurface.store.db import Database
from tasksurface.store.engine import make_engine, normalise_url

from ..server_process import ServerProcess
from ..support import RELEASE_VALUES, Api, new_id, wait_for

VALUES = RELEASE_VALUES


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
        # Deterministic: the submission waits in the queue of a paused session (one that is free
        # would log it at once), then its admission blocks on the lock while the runner holds
        # its claim.
        api.pause(sid)
        accepted = api.submit(sid, surface, VALUES)
        connection, engine = _block_event_inserts(database_url)
        try:
            api.pause(sid, False)
            wait_for(lambda: (api.get_active(sid, surface)["pending"] or {}).get("phase") == "claiming")
            server.kill()
        finally:
            connection.exec_driver_sql("ROLLBACK")
            connection.close()
            engine.dispose()
    else:
        # SQLite locks the whole file, so kill on the first push that shows the runner took the
        # row (pushes that wait are merged, so that may be the claim or already the commit); the
        # commit may or may not have happened, and either way there must be one message.
        def taken(message: dict[str, Any]) -> bool:
            phase = (message.get("taskSurface", {}).get("pending") or {}).get("phase")
            return phase == "claiming" or any(e["kind"] == "user/message" for e in message.get("events", ()))

        with api.socket(sid, after=head) as socket:
            socket.receive_until(lambda m: m.get("type") == "hello")

            def kill_once_taken() -> None:
                socket.receive_until(taken)
                server.kill()

            killer = threading.Thread(target=kill_once_taken)
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
    before = api.settled(sid)  # the turn the kill cut short is finished first
    assert api.submit(sid, surface, VALUES, submission_id) == accepted
    assert (
        api.submit(sid, surface, {**VALUES, "name": "other"}, submission_id)["reason"] == "invalid-submission"
    )
    assert api.events(sid) == before  # nothing appended
    assert len(submissions_for(before, surface)) == 1


# -- a turn cut short by a kill is picked up where the log says it stopped -------------------


def _append_while_down(database_url: str, sid: str, *events: NewEvent) -> None:
    """Write what a killed process had made durable before it died (the server is down)."""
    database = Database(make_engine(database_url))
    try:
        with database.write() as db:
            for event in events:
                log.append(db, SessionId(sid), event, datetime.now(UTC))
    finally:
        database.dispose()


def _admitted(text: str) -> NewEvent:
    content = text_content(text)
    return NewEvent("user/message", user_message(MessageId(new_id()), user_source(RpcId(new_id())), content))


def test_a_message_admitted_right_before_a_kill_is_answered_after_the_restart(
    server: ServerProcess, api: Api, database_url: str
) -> None:
    sid = api.create_session()
    server.kill()
    _append_while_down(database_url, sid, _admitted("hello after a crash"))
    server.start()
    events = api.settled(sid)
    assert [e["kind"] for e in events] == ["user/message", "assistant/message"]
    assert "hello after a crash" in events[-1]["payload"]["text"]


def test_a_tool_call_cut_short_by_a_kill_gets_a_failed_result_and_the_turn_goes_on(
    server: ServerProcess, api: Api, database_url: str
) -> None:
    sid = api.create_session()
    server.kill()
    call = NewEvent("tool/call", tool_call(CallId("call_cut_short_1"), "show_task_surface", '{"model": {}}'))
    _append_while_down(database_url, sid, _admitted("/surface fields"), call)
    server.start()
    events = api.settled(sid)
    assert [e["kind"] for e in events] == ["user/message", "tool/call", "tool/result", "assistant/message"]
    result = events[2]["payload"]
    assert (result["callId"], result["ok"]) == ("call_cut_short_1", False)
    assert "host stopped" in result["content"][0]["text"]
    assert api.projection(sid)["active"] is None


def test_a_question_outlives_a_kill_and_its_answer_goes_on_with_the_turn(
    server: ServerProcess, api: Api
) -> None:
    sid = api.create_session()
    question = api.ask(sid, "/ask Ship on Friday? | yes | no")
    server.kill()
    server.start()
    assert api.question(sid) == question
    api.answer(sid, question["callId"], "yes")
    events = api.settled(sid)
    assert events[-1]["kind"] == "assistant/message"
    assert "> yes" in events[-1]["payload"]["text"]


def test_a_finished_turn_is_not_run_again_after_a_restart(server: ServerProcess, api: Api) -> None:
    sid = api.create_session()
    api.show_surface(sid)
    before = api.settled(sid)
    assert [e["kind"] for e in before] == ["user/message", "assistant/message", "tool/call", "tool/result"]
    assert before[-1]["payload"]["endsTurn"] is True  # the panel's result ended the turn
    server.kill()
    server.start()
    # The start-up pass looks at this session before it serves a request, and one runner takes a
    # session's work in order; so the answer to a message sent now can only come after the start-up
    # decision, and anything that decision ran is logged before this message.
    api.send(sid, "after the restart")
    events = wait_for(lambda: (e := api.events(sid))[-1]["kind"] == "assistant/message" and e)
    assert events[: len(before)] == before
    assert [e["kind"] for e in events[len(before) :]] == ["user/message", "assistant/message"]
    assert events[len(before)]["payload"]["content"] == [{"type": "text", "text": "after the restart"}]


def test_a_fork_owes_nothing_for_the_turn_it_copied_half_done(server: ServerProcess, api: Api) -> None:
    """A fork taken at a message or a call holds history: no restart (and no sweep) answers it."""
    sid = api.create_session()
    api.show_surface(sid)
    origin = api.settled(sid)
    assert [e["kind"] for e in origin] == ["user/message", "assistant/message", "tool/call", "tool/result"]
    forks = {at_seq: api.fork(sid, at_seq) for at_seq in (1, 3)}  # the message; the call with no result
    server.kill()
    server.start()
    for at_seq, copy in forks.items():
        api.send(copy, "go on from here")  # answered only after the start-up pass looked at the copy

        def answered(c: str = copy) -> list[dict[str, Any]] | bool:
            return (e := api.events(c))[-1]["kind"] == "assistant/message" and e

        events = wait_for(answered)
        assert isinstance(events, list)
        copied = [(e["kind"], e["payload"]) for e in events[:at_seq]]
        assert copied == [(e["kind"], e["payload"]) for e in origin[:at_seq]], at_seq
        assert [e["kind"] for e in events[at_seq:]] == ["user/message", "assistant/message"], at_seq
        assert "go on from here" in events[-1]["payload"]["text"], at_seq
