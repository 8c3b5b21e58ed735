"""A snapshot: the reads that build one push share one transaction and see one state."""

from __future__ import annotations

from tasksurface.services.container import Services


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
