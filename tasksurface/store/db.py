"""Transactions: one per command, writers serialised per database (SQLite) or per session row."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from .engine import (
    BRIEF_LOCK_WAIT_MS,
    SQLITE_BUSY_TIMEOUT_MS,
    WRITE_OPTION,
    brief_wait_engine,
    coordination_engine,
)

INTERACTIONS = "tasksurface.interactions"
"""Where an append notes what it did to the open panel, until the transaction commits."""
REPORTING = "tasksurface.webhooks"
"""The unit-of-work flag that says events are reported (set when a webhook URL is configured)."""
REPORTED = "tasksurface.reported"
"""Set by the outbox when a transaction wrote an event, so its worker hears of it after the commit."""
SNAPSHOT_SESSIONS = "tasksurface.snapshot_sessions"
"""In a snapshot's transaction, the sessions already read: one read transaction sees one state."""


class LockBusy(Exception):
    """A write that must not wait (`Database.write(waits=False)`) found a lock held longer than
    `engine.BRIEF_LOCK_WAIT_MS`; it was rolled back."""


class Database:
    def __init__(self, engine: sa.Engine, *, reporting: bool = False) -> None:
        self.engine = engine
        self.interaction_observers: list[Callable[[str], None]] = []
        """Told what each committed write did to open panels (shown, submitted, dismissed, bypassed)."""
        self.reporting = reporting
        """Whether write transactions also write the webhook events they report."""
        self.on_reported: Callable[[], None] | None = None
        """Called after a commit that wrote webhook events (the delivery worker's bell)."""
        self._snapshot: ContextVar[so.Session | None] = ContextVar(f"snapshot-{id(self)}", default=None)
        self._coordination: sa.Engine | None = None
        self._brief: sa.Engine | None = None
        self._coordination_lock = threading.Lock()

    @contextmanager
    def write(self, *, waits: bool = True) -> Iterator[so.Session]:
        """A write transaction; it commits when the block ends without an exception.

        `waits=False`: the transaction gives up with `LockBusy` instead of waiting longer than
        `BRIEF_LOCK_WAIT_MS` for a lock (PostgreSQL's row and table locks, SQLite's write lock)."""
        engine = self.engine if waits else self._brief_engine()
        with engine.connect() as connection, _brief_sqlite_wait(connection, not waits):
            connection = connection.execution_options(**{WRITE_OPTION: True})
            try:
                with connection.begin(), so.Session(bind=connection, expire_on_commit=False) as session:
                    session.info[REPORTING] = self.reporting
                    yield session
                    session.flush()
                    happened = session.info.pop(INTERACTIONS, [])
                    reported = session.info.get(REPORTED, False)
            except sa.exc.OperationalError as exc:
                if waits or not _waited_too_long(exc):
                    raise
                raise LockBusy(str(exc.orig)) from exc
        for kind in happened:  # only after the commit: a rolled-back append did nothing
            for observer in self.interaction_observers:
                observer(kind)
        if reported and self.on_reported is not None:
            self.on_reported()

    @contextmanager
    def read(self) -> Iterator[so.Session]:
        """A read transaction, or, inside `snapshot()` on the same thread, the snapshot's."""
        shared = self._snapshot.get()
        if shared is not None:
            yield shared
            return
        with self.engine.connect() as connection, connection.begin(), so.Session(bind=connection) as session:
            yield session

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Every read on this thread inside the block shares one transaction: what is built from
        several reads (a page, a push message) sees one state of the log, and pays for one BEGIN
        and one connection instead of one per read. A snapshot opened inside another is its own,
        fresh one, so a push sent while a page is drawn reads what has just been committed.
        PostgreSQL reads each statement's own state unless asked for one (REPEATABLE READ);
        SQLite's read transaction keeps the state of its first read."""
        with self.engine.connect() as connection:
            if connection.dialect.name == "postgresql":
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin(), so.Session(bind=connection) as session:
                session.info[SNAPSHOT_SESSIONS] = {}
                token = self._snapshot.set(session)
                try:
                    yield
                finally:
                    self._snapshot.reset(token)

    @contextmanager
    def coordinate(self) -> Iterator[sa.Connection]:
        """A connection on which each statement commits on its own, without waiting for the disk:
        for coordination state shared by processes (PostgreSQL's claims on inbox rows), whose loss
        in a crash of the database is harmless (`engine.coordination_engine` says why)."""
        with self._coordination_lock:
            if self._coordination is None:
                self._coordination = coordination_engine(self.engine)
            engine = self._coordination
        with engine.connect() as connection:
            yield connection

    def _brief_engine(self) -> sa.Engine:
        """PostgreSQL: the engine whose connections wait briefly for locks; SQLite: the one engine
        (its writes are given a brief busy timeout for the transaction instead)."""
        if self.engine.dialect.name != "postgresql":
            return self.engine
        with self._coordination_lock:
            if self._brief is None:
                self._brief = brief_wait_engine(self.engine)
            return self._brief

    def dispose(self) -> None:
        self.engine.dispose()
        with self._coordination_lock:
            for engine in (self._coordination, self._brief):
                if engine is not None:
                    engine.dispose()


@contextmanager
def _brief_sqlite_wait(connection: sa.Connection, brief: bool) -> Iterator[None]:
    """SQLite's busy timeout is the connection's: lowered for one transaction, then put back."""
    if not brief or connection.dialect.name != "sqlite":
        yield
        return
    raw: Any = connection.connection.dbapi_connection
    raw.execute(f"PRAGMA busy_timeout={BRIEF_LOCK_WAIT_MS}")
    try:
        yield
    finally:
        raw.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")


def _waited_too_long(exc: sa.exc.OperationalError) -> bool:
    """PostgreSQL's `lock_not_available` (55P03), or SQLite's `SQLITE_BUSY`."""
    found = exc.orig
    return (
        getattr(found, "sqlstate", None) == "55P03"
        or getattr(found, "sqlite_errorname", None) == "SQLITE_BUSY"
    )


def writes_in_one_statement(db: so.Session) -> bool:
    """Whether two writes that belong together go to the database as one statement (PostgreSQL's
    data-modifying `WITH`): a round trip saved on every append and enqueue. SQLite has no such
    statement, and its statements cost no round trip."""
    return db.get_bind().dialect.name == "postgresql"


def utc(value: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything we store is UTC."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def run(db: so.Session, statement: sa.Executable, **params: Any) -> sa.CursorResult[Any]:
    """A statement built once, run on the transaction's own connection with these values.

    The hot paths (a submission, its admission, a push) read and write a handful of rows; building
    each statement anew and passing it through the ORM cost ten times the database's own work
    (about 390 µs against 30 µs for a lookup by key on SQLite). Nothing pending in the unit of work
    is flushed first: callers that add ORM rows flush before they read.
    """
    return db.connection().execute(statement, params)
