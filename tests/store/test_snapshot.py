"""A snapshot: the reads that build one push share one transaction and see one state."""

from __future__ import annotations

from datetime import UTC, datetime

from tasksurface.domain.events import NewEvent
from tasksurface.services.container import Services
from tasksurface.store import inbox, integrity, log


def test_reads_inside_a_snapshot_share_one_transaction_and_reads_outside_do_not(
    services: Services,
) -> None:
    database = services.database
    with database.read() as first, database.read() as second:
        assert first is not second
    with database.snapshot():
        with database.read() as first, database.read() as second:
            assert first is second
        with database.snapshot(), database.read() as nested:  # a snapshot inside one is its own
            assert nested is not first
        with database.read() as again:  # and the outer one is back after it
            assert again is first
    with database.read() as after:
        assert after is not first


def test_a_snapshot_sees_the_session_as_it_first_read_it_while_others_write(services: Services) -> None:
    sid = services.sessions.create()
    with services.database.snapshot():
        assert services.sessions.get(sid).paused is False
        services.sessions.set_paused(sid, True)  # another transaction commits meanwhile
        assert services.sessions.get(sid).paused is False
    assert services.sessions.get(sid).paused is True


def test_a_snapshot_opened_inside_another_reads_what_was_committed_since(services: Services) -> None:
    sid = services.sessions.create()
    with services.database.snapshot():
        assert services.sessions.get(sid).paused is False
        services.sessions.set_paused(sid, True)
        with services.database.snapshot():  # a push sent while a page is drawn
            assert services.sessions.get(sid).paused is True
        assert services.sessions.get(sid).paused is False


def test_every_read_of_a_snapshot_sees_one_state_of_the_log_on_either_database(services: Services) -> None:
    """Not only the memoized session: the log, the inbox and the head read later in the block
    show the state of the first read, though another transaction commits in between (on
    PostgreSQL each statement would otherwise see the latest commits)."""
    sid = services.sessions.create()
    services.sessions.set_paused(sid, True)  # the message waits in the queue
    services.sessions.send(sid, "first")
    database = services.database
    with database.snapshot():
        with database.read() as db:
            before = (log.events_after(db, sid, 0), inbox.items(db, sid))
        with database.write() as db:  # another transaction, committed meanwhile
            log.append(db, sid, NewEvent("assistant/message", {"text": "later"}), datetime.now(UTC))
            inbox.delete(db, before[1][0].id)
        with database.read() as db:
            assert (log.events_after(db, sid, 0), inbox.items(db, sid)) == before
            assert integrity.history_incomplete(db, sid) is False
    with database.read() as db:
        assert len(log.events_after(db, sid, 0)) == len(before[0]) + 1
        assert inbox.items(db, sid) == []


def test_a_read_outside_any_snapshot_also_sees_one_state_on_either_database(services: Services) -> None:
    """A bare read of several statements (a surface's state: the session row, then its pending
    row in the inbox) is one state too: a commit between two of its statements is not seen."""
    sid = services.sessions.create()
    services.sessions.set_paused(sid, True)
    services.sessions.send(sid, "first")
    database = services.database
    with database.read() as db:
        before = (log.events_after(db, sid, 0), inbox.items(db, sid))
        with database.write() as other:
            log.append(other, sid, NewEvent("assistant/message", {"text": "later"}), datetime.now(UTC))
            inbox.delete(other, before[1][0].id)
        assert (log.events_after(db, sid, 0), inbox.items(db, sid)) == before
    with database.read() as db:
        assert inbox.items(db, sid) == []
