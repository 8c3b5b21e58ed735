"""Engines for SQLite (embedded default) and PostgreSQL (deployment), and schema upgrade."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

PROJECT_ROOT = Path(__file__).resolve().parents[2]
WRITE_OPTION = "tasksurface_write"
"""Execution option that makes a SQLite transaction take the write lock at BEGIN."""


def normalise_url(url: str) -> str:
    """`postgresql://` means the psycopg 3 driver here, the one we depend on."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


SQLITE_BUSY_TIMEOUT_MS = 30_000
"""How long a SQLite transaction waits for the write lock (it is held for milliseconds at a time)."""
PING_AFTER_REST = 1.0
"""Seconds a pooled PostgreSQL connection may rest before it is pinged on its way out of the pool."""


def make_engine(url: str, **kwargs: Any) -> sa.Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"timeout": 30}, **kwargs)
        _configure_sqlite(engine)
        return engine
    options: dict[str, Any] = {"pool_size": 10, "max_overflow": 20, "pool_use_lifo": True, **kwargs}
    engine = sa.create_engine(url, **options)
    _ping_rested_connections(engine)
    return engine


def coordination_engine(engine: sa.Engine) -> sa.Engine:
    """An engine beside a PostgreSQL `engine` for coordination state: who holds an inbox row right
    now. Each statement is its own transaction, and its commit does not wait for the disk.

    A claim is not an authority: the row it names is durable, and a claim lost in a crash of the
    database is void anyway (the leases went with that crash, a new lease holder voids the
    admission claims it inherits, and a removal's claim expires). The admission that follows a
    claim commits durably, which writes the claim's record to disk before its own. So a claim
    costs one round trip instead of three (BEGIN, the statement, COMMIT), and no wait for a flush.
    """
    return _engine_beside(
        engine, "SET synchronous_commit TO off", isolation_level="AUTOCOMMIT", pool_size=4, max_overflow=16
    )


def _engine_beside(engine: sa.Engine, setting: str, **options: Any) -> sa.Engine:
    """A pool of its own on `engine`'s database, each connection given `setting` when it opens
    (so it costs no round trip per transaction), lending the connection returned last."""
    beside = sa.create_engine(engine.url, pool_use_lifo=True, **options)

    @sa.event.listens_for(beside, "connect")
    def _apply_setting(dbapi_connection: Any, _record: Any) -> None:
        with dbapi_connection.cursor() as cursor:
            cursor.execute(setting)
        dbapi_connection.commit()

    _ping_rested_connections(beside)
    return beside


def _ping_rested_connections(engine: sa.Engine) -> None:
    """A connection that rested is pinged before it is lent, and replaced if the database is gone.

    A database that restarted leaves every pooled connection dead; a ping on each loan would find
    that, at a network round trip on every transaction (three per submission). A restart takes
    longer than `PING_AFTER_REST`, so a connection that came back to the pool since then was alive
    after it: only one that rested longer is pinged. The pool lends the one returned last, so a
    busy process keeps lending connections that need no ping. A failed ping makes the pool throw
    the connection away and connect again, before anything runs on it.
    """

    @sa.event.listens_for(engine, "checkin")
    def _resting_since(_dbapi_connection: Any, record: Any) -> None:
        record.info["resting_since"] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def _ping_if_rested(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("resting_since")
        if since is None or time.monotonic() - since < PING_AFTER_REST:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as exc:
            raise sa.exc.DisconnectionError("the pooled connection is gone") from exc


def _configure_sqlite(engine: sa.Engine) -> None:
    """WAL, a busy timeout and `BEGIN IMMEDIATE` for writers, so appends never hit 'locked'.

    A deferred transaction that reads and then writes cannot wait for the lock (SQLite
    would deadlock it), so writers take the lock when they begin and wait their turn.
    """

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        write = connection.get_execution_options().get(WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def alembic_config(connection: sa.Connection | None = None) -> Config:
    config = Config(toml_file=str(PROJECT_ROOT / "pyproject.toml"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


class SchemaNotCurrent(RuntimeError):
    """The database is not at the latest revision and auto-migration is off."""


def check_schema_current(engine: sa.Engine) -> None:
    heads = set(ScriptDirectory.from_config(alembic_config()).get_heads())
    with engine.connect() as connection:
        current = set(MigrationContext.configure(connection).get_current_heads())
    if current != heads:
        raise SchemaNotCurrent(
            f"the database schema is at {sorted(current) or 'nothing'}, not at {sorted(heads)}; "
            "run `alembic upgrade head` or set TASKSURFACE_AUTO_MIGRATE=1"
        )


def upgrade_to_head(engine: sa.Engine) -> None:
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Processes that start together upgrade one at a time; the later ones find the head.
            connection.exec_driver_sql(
                "SELECT pg_advisory_xact_lock(hashtext('tasksurface.migrate.' || current_schema()))"
            )
        command.upgrade(alembic_config(connection), "head")
