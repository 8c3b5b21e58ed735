"""The session log contract, run on every database: gapless seq, uniqueness, ranged reads, rewind, fork."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy
import sqlalchemy.exc

from tasksurface.domain.events import NewEvent, tool_result
from tasksurface.domain.ids import CallId, SessionId, TaskSurfaceId
from tasksurface.domain.parser import parse_model
from tasksurface.domain.presentation import presentation_meta
from tasksurface.store import history, log
from tasksurface.store.db import Database

from .conftest import now

SID = SessionId("session-one")


def _session(database: Database, sid: SessionId = SID) -> SessionId:
    with database.write() as db:
        log.create_session(db, sid, "test", now())
    return sid


def _note(text: str) -> NewEvent:
    return NewEvent("assistant/message", {"text": text})


def test_appends_get_consecutive_seqs_and_read_back_in_order(database: Database) -> None:
    sid = _session(database)
    with database.write() as db:
        for n in range(5):
            log.append(db, sid, _note(f"n{n}"), now())
    with database.read() as db:
        events = log.events_after(db, sid, 0)
        assert [e.seq for e in events] == [1, 2, 3, 4, 5]
        assert [e.payload["text"] for e in events] == ["n0", "n1", "n2", "n3", "n4"]
        assert [e.seq for e in log.events_after(db, sid, 2, limit=2)] == [3, 4]
        assert [e.seq for e in log.events_before(db, sid, None, 2)] == [4, 5]
        assert [e.seq for e in log.events_before(db, sid, 4, 10)] == [1, 2, 3]
        assert log.get_session(db, sid).head_seq == 5


def test_concurrent_appends_are_gapless_and_never_hit_a_lock_error(database: Database) -> None:
    sid = _session(database)
    threads, per_thread, errors = 8, 25, []

    def writer(name: int) -> None:
        try:
            for n in range(per_thread):
                with database.write() as db:
                    log.append(db, sid, _note(f"{name}-{n}"), now())
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    workers = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert errors == []
    with database.read() as db:
        seqs = [e.seq for e in log.events_after(db, sid, 0)]
    assert seqs == list(range(1, threads * per_thread + 1))


def test_a_rolled_back_append_leaves_no_gap(database: Database) -> None:
    sid = _session(database)
    with pytest.raises(RuntimeError), database.write() as db:
        log.append(db, sid, _note("lost"), now())
        raise RuntimeError("abort the transaction")
    with database.write() as db:
        event = log.append(db, sid, _note("kept"), now())
    assert event.seq == 1


def test_a_request_id_is_unique_within_a_session(database: Database) -> None:
    sid = _session(database)
    with database.write() as db:
        log.append(db, sid, NewEvent("assistant/message", {"text": "a"}, "request-0001"), now())
    with pytest.raises(sqlalchemy.exc.IntegrityError), database.write() as db:
        log.append(db, sid, NewEvent("assistant/message", {"text": "b"}, "request-0001"), now())
    with database.read() as db:
        found = log.event_by_request(db, sid, "request-0001")
        assert found is not None and found.payload["text"] == "a"


def test_appending_to_an_unknown_session_is_refused(database: Database) -> None:
    with pytest.raises(log.UnknownSession), database.write() as db:
        log.append(db, SessionId("no-such-session"), _note("x"), now())


def _surface_result(call: str, surface: str) -> NewEvent:
    model = parse_model(
        {
            "version": 1,
            "title": "T",
            "sections": [],
            "fields": [{"kind": "toggle", "id": "t", "label": "T"}],
            "submit": {"label": "Go"},
        }
    )
    meta = presentation_meta(TaskSurfaceId(surface), model)
    return NewEvent("tool/result", tool_result(CallId(call), "show_task_surface", True, "shown", meta))


def test_the_projection_is_kept_in_the_appending_transaction(database: Database) -> None:
    sid = _session(database)
    with database.write() as db:
        log.append(db, sid, _surface_result("call-000001", "surface-0001"), now())
    with database.read() as db:
        active = log.get_session(db, sid).projection.active
    assert active is not None and active.surface_id == "surface-0001" and active.result_seq == 1
    with database.write() as db:
        log.append(
            db,
            sid,
            NewEvent("user/message", {"messageId": "m-00000001", "source": {"kind": "user"}, "content": []}),
            now(),
        )
    with database.read() as db:
        assert log.get_session(db, sid).projection.active is None


def test_rewind_hides_later_events_and_refolds_the_projection(database: Database) -> None:
    sid = _session(database)
    with database.write() as db:
        log.append(db, sid, _surface_result("call-000001", "surface-0001"), now())  # 1: opens
        log.append(
            db,
            sid,
            NewEvent("user/message", {"messageId": "m-00000001", "source": {"kind": "user"}, "content": []}),
            now(),
        )  # 2: bypass closes
        log.append(db, sid, _note("after"), now())  # 3
    with database.write() as db:
        marker = history.rewind(db, sid, 1, now())
    with database.read() as db:
        assert [e.seq for e in log.events_after(db, sid, 0)] == [1, marker]
        active = log.get_session(db, sid).projection.active
        assert active is not None and active.surface_id == "surface-0001"
        # The hidden events are still stored: the log is append-only.
        assert log.event_at(db, sid, 2) is not None


def test_fork_copies_history_up_to_a_seq_and_folds_it(database: Database) -> None:
    sid = _session(database)
    with database.write() as db:
        log.append(db, sid, _surface_result("call-000001", "surface-0001"), now())
        log.append(
            db,
            sid,
            NewEvent("user/message", {"messageId": "m-00000001", "source": {"kind": "user"}, "content": []}),
            now(),
        )
    fork_id = SessionId("session-fork")
    with database.write() as db:
        history.fork(db, sid, fork_id, 1, now())
    with database.read() as db:
        assert [e.seq for e in log.events_after(db, fork_id, 0)] == [1]
        fork = log.get_session(db, fork_id)
        assert fork.projection.active is not None and fork.forked_from == sid
        assert log.get_session(db, sid).projection.active is None


def test_an_append_reads_the_session_once_then_writes_in_one_statement_on_postgresql(
    database: Database,
) -> None:
    """The event and the session's new head go together: one round trip on PostgreSQL, two
    statements on SQLite (which has no data-modifying `WITH`); either way both land."""
    sid = _session(database)
    sent: list[str] = []
    here = threading.current_thread()

    def note(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        if threading.current_thread() is here:
            sent.append(statement.split()[0].upper())

    with database.write() as db:
        sqlalchemy.event.listen(db.get_bind(), "before_cursor_execute", note)
        try:
            log.append(db, sid, _surface_result("call-000001", "surface-0001"), now())
        finally:
            sqlalchemy.event.remove(db.get_bind(), "before_cursor_execute", note)
        postgres = db.get_bind().dialect.name == "postgresql"
    assert sent == (["SELECT", "WITH"] if postgres else ["SELECT", "INSERT", "UPDATE"])
    with database.read() as db:
        session = log.get_session(db, sid)
        assert session.head_seq == 1 and session.projection.active is not None
        assert [e.seq for e in log.events_after(db, sid, 0)] == [1]
