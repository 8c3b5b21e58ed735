"""Input sent to an idle session is logged by the transaction that accepts it; anything else
waits in the durable inbox for the session's runner, in order."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import psycopg
import pytest
import sqlalchemy as sa

from tasksurface.domain.events import SessionEvent, text_content, user_source
from tasksurface.domain.ids import MessageId, RpcId, SessionId, TaskSurfaceId, TaskSurfaceSubmissionId
from tasksurface.domain.results import ActiveResult, SubmitAccepted, SubmitRejected
from tasksurface.services.container import Services
from tasksurface.store import inbox, log
from tasksurface.store.advisory import conninfo, lock_key, namespace_of
from tasksurface.store.records import InboxItem
from tasksurface.store.tables import SessionRow

from ..support import RELEASE_VALUES, wait_for


def logged_texts(services: Services, session_id: SessionId) -> list[str]:
    with services.database.read() as db:
        events = log.events_after(db, session_id, 0)
    return [e.payload["content"][0]["text"] for e in events if e.kind == "user/message"]


def logged_kinds(services: Services, session_id: SessionId) -> list[str]:
    with services.database.read() as db:
        return [e.kind for e in log.events_after(db, session_id, 0)]


def times_queued(services: Services, session_id: SessionId) -> int:
    """Every row ever queued for the session took a position."""
    with services.database.read() as db:
        return db.scalar(sa.select(SessionRow.next_position).where(SessionRow.id == session_id)) or 0


@pytest.fixture
def admissions(services: Services) -> Iterator[list[str]]:
    """The runner's admissions of queued rows (none for input logged on acceptance)."""
    seen: list[str] = []
    inner = services.runner.admit

    def admit(session_id: SessionId, item: InboxItem) -> SessionEvent | None:
        seen.append(item.message_id)
        return inner(session_id, item)

    services.runner.admit = admit  # type: ignore[method-assign]
    yield seen


SUBMISSION = TaskSurfaceSubmissionId("sub_inline_000001")
VALUES = RELEASE_VALUES


def open_panel(services: Services, session_id: SessionId) -> tuple[TaskSurfaceId, dict[str, object]]:
    services.sessions.send(session_id, "/surface fields")
    surface_id = wait_for(lambda: services.surfaces.state(session_id).active).surface_id
    wait_for(services.runner.idle)
    active = services.surfaces.get_active(session_id, surface_id)
    assert isinstance(active, ActiveResult)
    return surface_id, VALUES


def test_a_message_to_an_idle_session_is_logged_without_waiting_in_the_queue(
    services: Services, admissions: list[str]
) -> None:
    session_id = services.sessions.create()
    sent = services.sessions.send(session_id, "hello")
    # Logged when the request answers, by the request's own transaction: never queued, never claimed.
    assert logged_texts(services, session_id) == ["hello"]
    assert times_queued(services, session_id) == 0
    assert admissions == []
    wait_for(lambda: "assistant/message" in logged_kinds(services, session_id))
    [record] = services.journal.records()
    assert (record.message_id, record.outcome) == (sent.item.message_id, "committed")


def test_a_submission_to_an_idle_session_closes_its_panel_before_the_request_answers(
    services: Services, admissions: list[str]
) -> None:
    session_id = services.sessions.create()
    surface_id, values = open_panel(services, session_id)
    result = services.surfaces.submit(session_id, surface_id, SUBMISSION, values)
    assert isinstance(result, SubmitAccepted)
    assert services.surfaces.state(session_id).active is None
    assert logged_kinds(services, session_id).count("user/message") == 2
    assert times_queued(services, session_id) == 0
    assert admissions == []
    # A retry of the same submission is answered from the log: nothing more is logged.
    again = services.surfaces.submit(session_id, surface_id, SUBMISSION, values)
    assert again == result
    wait_for(services.runner.idle)
    assert logged_kinds(services, session_id).count("user/message") == 2


def left_in_queue(services: Services, session_id: SessionId, text: str) -> InboxItem:
    """A row queued before this process started (a stopped process left it): no runner serves it."""
    item = inbox.new_item(
        session_id=session_id,
        message_id=MessageId("msg_left"),
        placement="queued",
        source=user_source(RpcId("rpc_left")),
        content=text_content(text),
        at=datetime.now().astimezone(),
    )
    with services.database.write() as db:
        return inbox.enqueue(db, item)


def test_input_behind_queued_input_waits_its_turn(services: Services, admissions: list[str]) -> None:
    session_id = services.sessions.create()
    earlier = left_in_queue(services, session_id, "sent first")
    later = services.sessions.send(session_id, "sent second")
    wait_for(lambda: logged_kinds(services, session_id).count("assistant/message") == 2)
    assert logged_texts(services, session_id) == ["sent first", "sent second"]
    assert admissions == [earlier.message_id, later.item.message_id]


def test_input_to_a_paused_session_waits_in_the_queue(services: Services, admissions: list[str]) -> None:
    session_id = services.sessions.create()
    services.sessions.set_paused(session_id, True)
    sent = services.sessions.send(session_id, "later")
    wait_for(services.runner.idle)
    assert logged_texts(services, session_id) == []
    assert [q.item.message_id for q in services.sessions.queue(session_id)] == [sent.item.message_id]
    services.sessions.set_paused(session_id, False)
    wait_for(lambda: logged_texts(services, session_id) == ["later"])
    assert admissions == [sent.item.message_id]


@contextmanager
def lease_held_elsewhere(services: Services, session_id: SessionId) -> Iterator[None]:
    """Another process's runner serves the session: its lease is held on another connection."""
    engine = services.database.engine
    key = lock_key(namespace_of(engine), session_id)
    with psycopg.connect(conninfo(engine), autocommit=True) as other:
        assert other.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone() == (True,)
        yield


def test_a_refused_submission_leaves_the_session_free(services: Services, admissions: list[str]) -> None:
    session_id = services.sessions.create()
    surface_id, values = open_panel(services, session_id)
    refused = services.surfaces.submit(
        session_id, surface_id, TaskSurfaceSubmissionId("sub_refused_000001"), values | {"channel": "nightly"}
    )
    assert isinstance(refused, SubmitRejected)
    # No runner serves the session and no lease is held for it: the next input is taken at once.
    assert services.runner.idle()
    if services.database.engine.dialect.name == "postgresql":
        with lease_held_elsewhere(services, session_id):
            pass
    accepted = services.surfaces.submit(
        session_id, surface_id, TaskSurfaceSubmissionId("sub_accepted_00001"), values
    )
    assert isinstance(accepted, SubmitAccepted)
    assert services.surfaces.state(session_id).active is None
    assert admissions == []


def test_a_failed_acceptance_logs_nothing_and_reports_nothing(services: Services) -> None:
    session_id = services.sessions.create()
    real_clock = services.runner.clock

    def broken() -> datetime:
        raise RuntimeError("the clock broke inside the accepting transaction")

    services.runner.clock = broken
    with pytest.raises(RuntimeError):
        services.sessions.send(session_id, "lost?")
    services.runner.clock = real_clock
    assert logged_texts(services, session_id) == []
    assert times_queued(services, session_id) == 0
    assert services.journal.records() == []
    assert services.runner.idle()
    services.sessions.send(session_id, "again")
    assert logged_texts(services, session_id) == ["again"]


@pytest.mark.postgres
def test_input_to_a_session_another_process_serves_waits_for_that_runner(
    services: Services, admissions: list[str]
) -> None:
    if services.database.engine.dialect.name != "postgresql":
        pytest.skip("one process serves every session on SQLite")
    session_id = services.sessions.create()
    with lease_held_elsewhere(services, session_id):
        sent = services.sessions.send(session_id, "queued")
        wait_for(services.runner.idle)
        assert logged_texts(services, session_id) == []
        assert times_queued(services, session_id) == 1
    # The other process is gone; the next wake-up (its change feed's, here by hand) admits the row.
    services.runner.wake(session_id)
    wait_for(lambda: logged_texts(services, session_id) == ["queued"])
    assert admissions == [sent.item.message_id]
