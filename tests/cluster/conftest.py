"""Cluster tests run on PostgreSQL only: SQLite is served by one process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ..conftest import postgres_schema
from ..support import Api
from .processes import Gunicorn, servers

pytestmark = pytest.mark.postgres


@pytest.fixture
def database_url() -> Iterator[str]:
    """A throwaway PostgreSQL schema that every process of the test shares."""
    with postgres_schema() as url:
        yield url


@pytest.fixture
def pair(database_url: str, tmp_path: Path) -> Iterator[list[Gunicorn]]:
    with servers(database_url, tmp_path / "instance", 2) as started:
        yield started


def clients(*urls: str) -> list[Api]:
    """One person on several processes: the identity cookie is the same everywhere."""
    first = Api(urls[0])
    found = [first]
    for url in urls[1:]:
        other = Api(url)
        other.http = first.http
        found.append(other)
    return found
