"""The settings operators rely on: database URL, auto-migration, the development key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tasksurface.config import load_settings
from tasksurface.store.engine import SchemaNotCurrent, make_engine
from tasksurface.web.factory import create_app

from ..conftest import services_of


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return set(sa.inspect(connection).get_table_names())
    finally:
        engine.dispose()


def test_a_fresh_database_is_upgraded_at_start(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("TASKSURFACE_DATABASE_URL", database_url)
    app = create_app()
    try:
        assert {"sessions", "session_events", "inbox_items", "alembic_version"} <= _tables(database_url)
    finally:
        services_of(app).stop()


def test_auto_migration_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'untouched.sqlite3'}"
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("TASKSURFACE_DATABASE_URL", url)
    monkeypatch.setenv("TASKSURFACE_AUTO_MIGRATE", "0")
    with pytest.raises(SchemaNotCurrent, match="alembic upgrade head"):
        create_app()
    assert _tables(url) == set()  # nothing was created behind the admin's back


def test_the_default_database_and_key_live_in_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    for name in (
        "TASKSURFACE_DATABASE_URL",
        "TASKSURFACE_SECRET_KEY",
        "TASKSURFACE_MODEL",
        "TASKSURFACE_TOOL_MODE",
    ):
        monkeypatch.delenv(name, raising=False)
    first = load_settings()
    assert first.database_url == f"sqlite:///{tmp_path / 'tasksurface.sqlite3'}"
    assert first.model == "scripted" and first.tool_mode == "native" and first.auto_migrate is True
    assert load_settings().secret_key == first.secret_key  # kept across restarts
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'wal.sqlite3'}")
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        engine.dispose()


def test_unknown_settings_values_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("TASKSURFACE_TOOL_MODE", "sometimes")
    with pytest.raises(ValueError, match="TASKSURFACE_TOOL_MODE"):
        load_settings()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"frame_ancestors": "*"}, "TASKSURFACE_FRAME_ANCESTORS"),
        ({"frame_ancestors": "'self' https:"}, "TASKSURFACE_FRAME_ANCESTORS"),
        ({"embed_secret": "too-short"}, "TASKSURFACE_EMBED_SECRET"),
        ({"embed_secret": "x" * 40, "identity_header": "X-User"}, "choose one"),
    ],
)
def test_embedding_settings_that_do_not_fit_refuse_to_start(overrides: dict[str, Any], message: str) -> None:
    from tasksurface.config import ConfigurationError

    with pytest.raises(ConfigurationError, match=message) as refused:
        load_settings({"secret_key": "k", **overrides})
    assert "too-short" not in str(refused.value)  # a secret is never echoed
