"""What several processes rely on in PostgreSQL: exclusive leases that die with their
connection, claims every process sees, and fencing of a claim that passed to another."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from tasksurface.agent.shared_claims import DatabaseClaims
from tasksurface.domain.events import NewEvent
from tasksurface.domain.ids import SessionId
from tasksurface.services.container import Services
from tasksurface.store import inbox, log
from tasksurface.store.advisory import (
    LEASE_LOSS_BOUND_SECONDS,
    AdvisoryLeases,
    conninfo,
    dedicated_connection,
    namespace_of,
)
from tasksurface.store.changefeed import QUIET_HOLD, ChangeFeed
from tasksurface.store.changes import Change, merge
from tasksurface.store.tables import InboxRow
from tasksurface.web.push import PushHub

from ..support import wait_for


@pytest.fixture
def shared(services: Services, database_url: str) -> Services:
    if not database_url.startswith("postgres"):
        pytest.skip("SQLite is served by one process: its claims and leases stay in memory")
    return services


def leases_pair(services: Services) -> tuple[AdvisoryLeases, AdvisoryLeases]:
    namespace = "test-" + secrets.token_hex(6)
    info = conninfo(services.database.engine)
    return AdvisoryLeases(info, namespace), AdvisoryLeases(info, namespace)


def test_a_lease_is_held_by_one_process_at_a_time(shared: Services) -> None:
    first, second = leases_pair(shared)
    try:
        assert first.acquire("s_one") and first.held("s_one")
        assert not second.acquire("s_one")
        assert second.acquire("s_two")  # another session's lease is its own
        first.release("s_one")
        assert not first.held("s_one")
        assert second.acquire("s_one")
    finally:
        first.close()
        second.close()


def test_a_lease_dies_with_its_connection_and_its_holder_learns_it(shared: Services) -> None:
    first, second = leases_pair(shared)
    first.start()
    try:
        assert first.acquire("s_one")
        assert first._connection is not None
        pid = first._connection.info.backend_pid
        with shared.database.engine.connect() as admin:  # as PostgreSQL does with a dead peer
            admin.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        wait_for(lambda: second.acquire("s_one"))
        wait_for(lambda: not first.held("s_one"))  # the heartbeat found the connection gone
        assert not first.acquire("s_one")  # it reconnects, and the lease is someone else's now
    finally:
        first.close()
        second.close()


def _queued_row(services: Services) -> tuple[SessionId, str]:
    sid = services.sessions.create()
    services.sessions.set_paused(sid, True)
    item = services.sessions.send(sid, "waiting")
    return sid, item.item.id


@contextmanager
def lease_elsewhere(services: Services, session_id: str) -> Iterator[AdvisoryLeases]:
    """Another process holds the session's lease, so this one's sweeper leaves it alone."""
    other = AdvisoryLeases(conninfo(services.database.engine), namespace_of(services.database.engine))
    try:
        # This process's sweeper may hold it for a moment (it looks every 2 s): wait for the gap.
        wait_for(lambda: other.acquire(session_id))
        yield other
    finally:
        other.close()


def test_a_claim_is_seen_by_every_process_and_a_new_lease_holder_voids_it(shared: Services) -> None:
    sid, row = _queued_row(shared)
    elsewhere = DatabaseClaims(shared.database, "another-process")
    with lease_elsewhere(shared, sid):
        assert elsewhere.try_claim(row, "admit")
        assert not shared.claims.try_claim(row, "admit")
        assert not shared.claims.try_claim(row, "remove")
        assert shared.claims.admitting() >= {row}
        assert shared.sessions.queue(sid) == []  # the row is being admitted, on another process
    # The other process is gone; this one's runner wins the lease (the sweeper looks every 2 s)
    # and voids the dead holder's claim.
    wait_for(lambda: shared.claims.purpose(row) is None, 15)
    with shared.database.write() as db:
        assert not elsewhere.still_mine(db, row)
    assert shared.claims.try_claim(row, "admit")
    with shared.database.write() as db:
        assert shared.claims.still_mine(db, row)
    shared.claims.release(row)
    assert shared.claims.purpose(row) is None


def test_a_removal_claim_left_by_a_dead_process_expires(shared: Services) -> None:
    _, row = _queued_row(shared)
    elsewhere = DatabaseClaims(shared.database, "another-process")
    assert elsewhere.try_claim(row, "remove")
    assert not shared.claims.try_claim(row, "admit")
    with shared.database.write() as db:
        db.execute(
            sa.update(InboxRow)
            .where(InboxRow.id == row)
            .values(claimed_at=sa.func.now() - sa.text("interval '31 seconds'"))
        )
    assert row not in shared.claims.claimed()
    assert shared.claims.try_claim(row, "admit")


def test_the_runners_look_claims_in_admission_order_and_passes_what_others_hold(shared: Services) -> None:
    """One statement finds the next row and claims it: steering first, then arrival; a row
    another process holds is passed by; a paused session gives nothing."""
    sid, first = _queued_row(shared)
    second = shared.sessions.send(sid, "second").item.id
    steering = shared.sessions.send(sid, "steering", placement="steering").item.id
    elsewhere = DatabaseClaims(shared.database, "another-process")

    def look() -> str | None:
        item = shared.claims.claim_next(sid, take_over=False)
        return item.id if item else None

    with lease_elsewhere(shared, sid):  # this process's runner stays out of the way
        assert look() is None  # paused
        with shared.database.write() as db:
            inbox.set_paused(db, sid, False)
        assert elsewhere.try_claim(first, "remove")
        assert look() == steering
        assert look() == second  # the removal holds the first row
        assert look() is None
        assert shared.claims.claimed() >= {steering, second, first}
        assert shared.claims.purpose(second) == "admit"


def test_a_new_lease_holders_first_look_voids_the_claims_it_inherits_and_no_removal(
    shared: Services,
) -> None:
    """A dead holder's admission claim is void once another process wins the lease, even when
    the row it held is no longer next (steering input came since); a removal's claim stands."""
    sid, held = _queued_row(shared)
    removing = shared.sessions.send(sid, "being removed").item.id
    dead, heir = DatabaseClaims(shared.database, "dead-process"), DatabaseClaims(shared.database, "heir")
    with lease_elsewhere(shared, sid):  # this process's runner stays out of the way
        with shared.database.write() as db:
            inbox.set_paused(db, sid, False)
        assert dead.try_claim(held, "admit")
        assert DatabaseClaims(shared.database, "remover").try_claim(removing, "remove")
        steering = shared.sessions.send(sid, "steering", placement="steering").item.id

        def look(take_over: bool) -> str | None:
            item = heir.claim_next(sid, take_over)
            return item.id if item else None

        assert look(take_over=True) == steering
        assert shared.claims.purpose(held) is None  # void, though another row was claimed
        assert shared.claims.purpose(removing) == "remove"
        with shared.database.write() as db:
            assert not dead.still_mine(db, held)
        assert look(take_over=False) == held
        assert look(take_over=False) is None  # the removal still holds its row
        with shared.database.write() as db:
            assert heir.still_mine(db, held) and heir.still_mine(db, steering)


def test_an_admission_whose_claim_passed_elsewhere_neither_commits_nor_drops_the_row(
    shared: Services,
) -> None:
    sid, row = _queued_row(shared)
    with shared.database.read() as db:
        [item] = inbox.items(db, sid)
    assert shared.claims.try_claim(row, "admit")
    with lease_elsewhere(shared, sid):  # another process took the lease meanwhile ...
        heir = DatabaseClaims(shared.database, "new-holder")
        # ... voided this process's claim (the session is paused)
        assert heir.claim_next(sid, take_over=True) is None
        assert heir.try_claim(row, "admit")  # ... and took the row
        assert shared.runner.admit(sid, item) is None
    # No outcome here: the new holder reports the row's one outcome when it admits it.
    assert [r for r in shared.journal.records() if r.item_id == row] == []
    with shared.database.read() as db:
        assert [i.id for i in inbox.items(db, sid)] == [row]
        assert [e.kind for e in log.events_after(db, sid, 0)] == []


def test_a_subscriber_gets_log_order_from_its_cursor_whatever_the_news_says(services: Services) -> None:
    """Notices may arrive late, merged or out of order (from other processes): the socket reads
    the log after its own cursor, so it sees every event once, in order."""
    hub = services.runner.notifier
    local = getattr(hub, "local", hub)  # the process's own push hub
    assert isinstance(local, PushHub)
    sid = services.sessions.create()
    subscription = local.subscribe(sid, 0)
    try:
        logged = []
        for n in range(3):
            with services.database.write() as db:
                logged.append(
                    log.append(db, sid, NewEvent("assistant/message", {"text": f"{n}"}), datetime.now(UTC))
                )
        local.changed(sid, events=[logged[2]])  # the last one's news comes first
        local.changed(sid, events=[logged[0]])  # the first one's comes late
        local.changed(sid, queue=True)  # and a change that names no events
        assert local.flush()
        pushed = []  # news that waited may have been merged into fewer messages
        while not subscription.messages.empty():
            pushed.append(subscription.messages.get_nowait())
        assert 1 <= len(pushed) <= 3
        assert [e["seq"] for m in pushed for e in m["events"]] == [e.seq for e in logged]
        assert "queue" in pushed[-1]  # the last message answers the last news too
    finally:
        local.unsubscribe(subscription)


def test_the_lease_connection_asks_postgresql_to_notice_a_dead_peer_in_bounded_time(
    shared: Services,
) -> None:
    """The README's bound rests on these settings of the server's end of the connection."""
    with dedicated_connection(conninfo(shared.database.engine)) as connection:
        shown = {
            name: str(connection.execute(f"SHOW {name}").fetchone()[0])  # type: ignore[index]
            for name in ("tcp_keepalives_idle", "tcp_keepalives_interval", "tcp_keepalives_count")
        }
        user_timeout = str(connection.execute("SHOW tcp_user_timeout").fetchone()[0])  # type: ignore[index]
    assert shown == {
        "tcp_keepalives_idle": "5",
        "tcp_keepalives_interval": "2",
        "tcp_keepalives_count": "3",
    }
    assert user_timeout == "12000"  # milliseconds
    assert LEASE_LOSS_BOUND_SECONDS >= 5 + 3 * 2 and LEASE_LOSS_BOUND_SECONDS >= 12


def test_notices_waiting_together_merge_into_one_per_session() -> None:
    """Merging loses nothing a receiver needs: it reads the log after its own cursor anyway."""
    merged = merge(
        [
            Change("s_a", 4, False, False),
            Change("s_b", None, True, False),
            Change("s_a", None, True, False),
            Change("s_a", 7, False, False),
            Change("s_b", 2, False, True),
        ]
    )
    assert merged == [Change("s_a", 7, True, False), Change("s_b", 2, True, True)]


def test_a_quiet_notice_waits_for_the_commit_that_follows_and_goes_with_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A claim's notice and its admission's reach the other processes as one; a quiet notice
    alone still goes, once the hold is over."""
    engine = sa.create_engine("sqlite://")
    feed = ChangeFeed(engine, "", "db.schema", "me", lambda change: None, lambda: None)
    sent: list[tuple[float, list[Change]]] = []
    monkeypatch.setattr(feed, "_notify", lambda changes: sent.append((time.monotonic(), changes)))
    feed._sender.start()
    try:
        feed.publish(Change("s_a", None, True, False))  # the claim
        time.sleep(0.005)
        feed.publish(Change("s_a", 5, True, False))  # the admission
        wait_for(lambda: sent)
        time.sleep(QUIET_HOLD)
        assert [changes for _, changes in sent] == [[Change("s_a", 5, True, False)]]
        sent.clear()
        start = time.monotonic()
        feed.publish(Change("s_b", None, True, False))  # a row queued while the agent is busy
        wait_for(lambda: sent)
        assert [changes for _, changes in sent] == [[Change("s_b", None, True, False)]]
        assert sent[0][0] - start >= QUIET_HOLD * 0.9
    finally:
        feed._stop.set()
        feed._sender.join(5)
        engine.dispose()


def test_a_malformed_or_own_notice_is_ignored_and_a_good_one_applied() -> None:
    """The channel is open to anyone who can connect: a payload that does not fit changes nothing."""
    applied: list[Change] = []
    engine = sa.create_engine("sqlite://")
    feed = ChangeFeed(engine, "", "db.schema", "me", applied.append, lambda: None)
    try:
        for payload in (
            "not json",
            "[1, 2]",
            '{"o": "other"}',
            '{"o": "other", "s": 7}',
            '{"o": "other", "s": "s_a", "c": "5"}',
            '{"o": "me", "s": "s_a", "q": true}',
        ):
            feed._deliver(payload)
        assert applied == []
        feed._deliver('{"o": "other", "s": "s_a", "c": 5, "q": true, "r": false}')
        assert applied == [Change("s_a", 5, True, False)]
    finally:
        engine.dispose()


def test_a_claim_is_one_statement_that_commits_alone_without_waiting_for_the_disk(shared: Services) -> None:
    """A claim is coordination state (its row is the durable part): one round trip, no BEGIN or
    COMMIT, no wait for a flush; every other write still waits for the disk."""
    _, row = _queued_row(shared)
    sent: list[tuple[str, bool, sa.Engine]] = []
    here = threading.current_thread()

    def note(conn: sa.Connection, _cursor: object, statement: str, *_rest: object) -> None:
        if threading.current_thread() is not here:  # the process's own sweeper and feed
            return
        dbapi = conn.connection.dbapi_connection
        sent.append((statement.split()[0].upper(), bool(getattr(dbapi, "autocommit", False)), conn.engine))

    sa.event.listen(sa.engine.Engine, "before_cursor_execute", note)
    try:
        assert shared.claims.try_claim(row, "remove")
    finally:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", note)
    [(kind, alone, engine)] = sent
    assert (kind, alone) == ("UPDATE", True)
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
    with shared.database.write() as db:
        assert db.connection().exec_driver_sql("SHOW synchronous_commit").scalar() == "on"
    seen_elsewhere = sa.create_engine(shared.database.engine.url)
    try:
        with seen_elsewhere.connect() as other:
            claim = other.execute(sa.select(InboxRow.claim).where(InboxRow.id == row)).scalar()
        assert claim == "remove"
    finally:
        seen_elsewhere.dispose()
    shared.claims.release(row)
    assert shared.claims.purpose(row) is None
