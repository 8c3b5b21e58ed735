"""Fixtures that start the real production server and always stop it, whatever the test did."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .gunicorn_process import ProductionServer

Launcher = Callable[..., ProductionServer]


@pytest.fixture
def production(database_url: str, tmp_path: Path) -> Iterator[Launcher]:
    """Makes production servers on the test's database; every one is stopped at teardown."""
    made: list[ProductionServer] = []

    def make(env: dict[str, str] | None = None, port: int | None = None) -> ProductionServer:
        server = ProductionServer(database_url, tmp_path / "instance", env, port)
        made.append(server)
        return server

    yield make
    for server in made:
        server.stop()


@pytest.fixture
def server(production: Launcher) -> ProductionServer:
    return production().start()
