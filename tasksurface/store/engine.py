"""Engines for SQLite (embedded default) and PostgreSQL (deployment), and schema upgrade."""

from __future__ import annotations

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


def make_engine(url: str, **kwargs: Any) -> sa.Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"timeout": 30}, **kwargs)
        _configure_sqlite(engine)
        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20, **kwargs)


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
        cursor.execute("PRAGMA busy_timeout=30000")
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


MIGRATION_LOCK = 7_361_042_519
"""PostgreSQL advisory lock key: processes starting together upgrade one after the other."""


def upgrade_to_head(engine: sa.Engine) -> None:
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # held until this transaction ends
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        command.upgrade(alembic_config(connection), "head")
