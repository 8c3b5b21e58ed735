"""Shared fixtures: a real database per test (SQLite, and PostgreSQL when configured),
the real app, a live server on 127.0.0.1 and helper actions that speak the wire API."""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server

from tasksurface.services.container import Services
from tasksurface.store.engine import normalise_url
from tasksurface.web.factory import create_app

from .support import Api

POSTGRES_URL = os.environ.get("TASKSURFACE_TEST_POSTGRES_URL")
DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a throwaway PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    with postgres_schema() as url:
        yield url


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A throwaway PostgreSQL schema, dropped afterwards; the test is skipped without PostgreSQL."""
    if not POSTGRES_URL:
        pytest.skip("TASKSURFACE_TEST_POSTGRES_URL is not set")
    schema = "t_" + secrets.token_hex(6)
    admin = sa.create_engine(normalise_url(POSTGRES_URL))
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in POSTGRES_URL else "?"
    try:
        yield f"{POSTGRES_URL}{separator}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


@pytest.fixture
def app_config(database_url: str) -> dict[str, Any]:
    return {"database_url": database_url, "secret_key": "test-secret-key"}


@pytest.fixture
def app(app_config: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path / "instance"))
    flask_app = create_app(app_config)
    yield flask_app
    services_of(flask_app).stop()


def services_of(app: Flask) -> Services:
    found: Services = app.extensions["tasksurface"]
    return found


@pytest.fixture
def services(app: Flask) -> Services:
    return services_of(app)


class LiveServer:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self._server: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self._server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


@pytest.fixture
def live_server(app: Flask) -> Iterator[LiveServer]:
    server = LiveServer(app)
    yield server
    server.stop()


@pytest.fixture
def api(live_server: LiveServer) -> Iterator[Api]:
    with Api(live_server.url, services_of(live_server.app).runner.idle) as client:
        yield client
