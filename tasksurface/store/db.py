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

from .engine import WRITE_OPTION, coordination_engine

INTERACTIONS = "tasksurface.interactions"
"""Where an append notes what it did to the open panel, until the transaction commits."""
REPORTING = "tasksurface.webhooks"
"""The unit-of-work flag that says events are reported (set when a webhook URL is configured)."""
REPORTED = "tasksurface.reported"
"""Set by the outbox when a transaction wrote an event, so its worker hears of it after the commit."""
SNAPSHOT_SESSIONS = "tasksurface.snapshot_sessions"
"""In a snapshot's transaction, the sessions already read: one read transaction sees one state."""


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
        self._coordination_lock = threading.Lock()

    @contextmanager
    def write(self) -> Iterator[so.Session]:
        """A write transaction; it commits when the block ends without an exception."""
        with self.engine.connect() as connection:
            connection = connection.execution_options(**{WRITE_OPTION: True})
            with connection.begin(), so.Session(bind=connection, expire_on_commit=False) as session:
                session.info[REPORTING] = self.reporting
                yield session
                session.flush()
                happened = session.info.pop(INTERACTIONS, [])
                reported = session.info.get(REPORTED, False)
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
        with self._one_state() as session:
            yield session

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Every read on this thread inside the block shares one transaction: what is built from
        several reads (a page, a push message) sees one state of the log, and pays for one BEGIN
        and one connection instead of one per read. A snapshot opened inside another is its own,
        fresh one, so a push sent while a page is drawn reads what has just been committed."""
        with self._one_state() as session:
            session.info[SNAPSHOT_SESSIONS] = {}
            token = self._snapshot.set(session)
            try:
                yield
            finally:
                self._snapshot.reset(token)

    @contextmanager
    def _one_state(self) -> Iterator[so.Session]:
        """A read transaction whose every statement sees the state of its first one, on either
        database: what is read in several statements (a surface open in the session row, its
        submission in the inbox) is never torn by a commit that falls between them. SQLite's read
        transaction does this by itself; PostgreSQL's default (READ COMMITTED) gives each statement
        the latest commits, so it is asked for REPEATABLE READ, which a transaction that only
        reads never fails to serialize under."""
        with self.engine.connect() as connection:
            if connection.dialect.name == "postgresql":
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin(), so.Session(bind=connection) as session:
                yield session

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

    def dispose(self) -> None:
        self.engine.dispose()
        with self._coordination_lock:
            if self._coordination is not None:
                self._coordination.dispose()


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
