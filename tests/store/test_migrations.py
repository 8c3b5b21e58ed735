"""The Alembic history is the schema: one head, upgrade from empty, models match, round trips."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from tasksurface.store.engine import alembic_config, make_engine
from tasksurface.store.tables import Base


def test_there_is_a_single_head() -> None:
    assert len(ScriptDirectory.from_config(alembic_config()).get_heads()) == 1


def test_migrated_schema_equals_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "head")
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
            tables = set(sa.inspect(connection).get_table_names())
        assert {"sessions", "session_events", "inbox_items", "session_hidden_ranges"} <= tables
    finally:
        engine.dispose()


def test_downgrade_and_upgrade_round_trip(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "head")
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "base")
        with engine.connect() as connection:
            assert set(sa.inspect(connection).get_table_names()) <= {"alembic_version"}
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "head")
        with engine.connect() as connection:
            context = MigrationContext.configure(connection)
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()
