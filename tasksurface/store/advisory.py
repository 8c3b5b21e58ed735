"""Session leases as PostgreSQL advisory locks, all held on one dedicated connection.

A session-level advisory lock lives exactly as long as the connection that took it, so a
process that dies (SIGKILL, OOM, a lost machine) loses its leases as soon as PostgreSQL
drops its connection. A killed process's socket is closed by its kernel at once; for a
machine that vanishes, TCP keepalives and `tcp_user_timeout`, set on both ends of this
connection, make PostgreSQL give up on it within `LEASE_LOSS_BOUND_SECONDS`.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
from typing import Any

import psycopg
import sqlalchemy as sa

logger = logging.getLogger(__name__)

KEEPALIVE_IDLE = 5
KEEPALIVE_INTERVAL = 2
KEEPALIVE_COUNT = 3
USER_TIMEOUT_MS = 12_000
HEARTBEAT_SECONDS = 3.0
LEASE_LOSS_BOUND_SECONDS = 15
"""Idle 5 s + 3 probes 2 s apart = 11 s on a quiet connection; unanswered data gives up after 12 s."""

CLIENT_KEEPALIVES: dict[str, Any] = {
    "keepalives": 1,
    "keepalives_idle": KEEPALIVE_IDLE,
    "keepalives_interval": KEEPALIVE_INTERVAL,
    "keepalives_count": KEEPALIVE_COUNT,
    "tcp_user_timeout": USER_TIMEOUT_MS,
}
SERVER_KEEPALIVES = (
    f"SET tcp_keepalives_idle = {KEEPALIVE_IDLE}",
    f"SET tcp_keepalives_interval = {KEEPALIVE_INTERVAL}",
    f"SET tcp_keepalives_count = {KEEPALIVE_COUNT}",
    f"SET tcp_user_timeout = {USER_TIMEOUT_MS}",
)


def conninfo(engine: sa.Engine) -> str:
    """The libpq form of the engine's URL (its query, e.g. a `search_path` option, kept)."""
    url = engine.url.set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def dedicated_connection(info: str) -> psycopg.Connection[Any]:
    """An autocommit connection outside the pool whose death PostgreSQL notices in bounded time."""
    connection = psycopg.connect(info, autocommit=True, **CLIENT_KEEPALIVES)
    for statement in SERVER_KEEPALIVES:
        connection.execute(statement)
    return connection


def namespace_of(engine: sa.Engine) -> str:
    """Advisory locks and channels are per database, not per schema: the schema keeps
    deployments (and test runs) that share a database apart."""
    with engine.connect() as connection:
        schema = connection.exec_driver_sql("SELECT current_database() || '.' || current_schema()").scalar()
    return str(schema)


def lock_key(namespace: str, session_id: str) -> int:
    digest = hashlib.blake2b(f"{namespace}:{session_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class AdvisoryLeases:
    def __init__(self, info: str, namespace: str) -> None:
        self.info = info
        self.namespace = namespace
        self._lock = threading.Lock()
        self._connection: psycopg.Connection[Any] | None = None
        self._held: set[str] = set()
        self._stop = threading.Event()
        self._heartbeat = threading.Thread(target=self._beat, name="lease-heartbeat", daemon=True)

    def start(self) -> None:
        self._heartbeat.start()

    def acquire(self, session_id: str) -> bool:
        with self._lock:
            if session_id in self._held:
                return True
            try:
                row = (
                    self._connect()
                    .execute("SELECT pg_try_advisory_lock(%s)", (lock_key(self.namespace, session_id),))
                    .fetchone()
                )
            except psycopg.Error:
                logger.exception("the lease connection failed")
                self._lose_all()
                return False
            won = bool(row and row[0])
            if won:
                self._held.add(session_id)
            return won

    def release(self, session_id: str) -> None:
        with self._lock:
            if session_id not in self._held:
                return
            self._held.discard(session_id)
            try:
                assert self._connection is not None
                self._connection.execute(
                    "SELECT pg_advisory_unlock(%s)", (lock_key(self.namespace, session_id),)
                )
            except psycopg.Error:
                logger.exception("the lease connection failed")
                self._lose_all()

    def held(self, session_id: str) -> bool:
        with self._lock:
            return session_id in self._held

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            self._lose_all()

    def _connect(self) -> psycopg.Connection[Any]:
        if self._connection is None or self._connection.closed:
            self._held.clear()
            self._connection = dedicated_connection(self.info)
        return self._connection

    def _lose_all(self) -> None:
        """Every lease went with the connection; runners see `held` turn false and stop."""
        self._held.clear()
        if self._connection is not None:
            with contextlib.suppress(psycopg.Error):
                self._connection.close()
        self._connection = None

    def _beat(self) -> None:
        """A quiet connection could be dead without us knowing; a query every few seconds tells."""
        while not self._stop.wait(HEARTBEAT_SECONDS):
            with self._lock:
                if self._connection is None:
                    continue
                try:
                    self._connection.execute("SELECT 1")
                except psycopg.Error:
                    logger.warning("the lease connection was lost; this process holds no leases now")
                    self._lose_all()
