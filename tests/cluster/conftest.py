"""Cluster tests run on PostgreSQL only: SQLite is served by one process."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tasksurface.store.engine import normalise_url

from ..conftest import POSTGRES_URL
from ..support import Api
from .processes import Gunicorn, servers

pytestmark = pytest.mark.postgres


@pytest.fixture
def database_url() -> Iterator[str]:
    """A throwaway PostgreSQL schema that every process of the test shares."""
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
