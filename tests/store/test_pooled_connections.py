"""PostgreSQL connections the pool lends: one that rested is pinged first, and a dead one is
replaced before anything runs on it; one back from work a moment ago is lent as it is."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import psycopg

from tasksurface.store import engine as engines

from ..conftest import postgres_schema

PID = sa.text("SELECT pg_backend_pid()")


@pytest.fixture
def url() -> Iterator[str]:
    with postgres_schema() as found:
        yield found


@pytest.fixture
def pings(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The pings the pool sends (the dialect's own ping, counted)."""
    sent: list[object] = []
    real: Callable[[psycopg.PGDialect_psycopg, Any], bool] = psycopg.PGDialect_psycopg.do_ping

    def counted(self: psycopg.PGDialect_psycopg, dbapi_connection: Any) -> bool:
        sent.append(dbapi_connection)
        return real(self, dbapi_connection)

    monkeypatch.setattr(psycopg.PGDialect_psycopg, "do_ping", counted)
    return sent


def one_connection(url: str) -> sa.Engine:
    return engines.make_engine(url, pool_size=1, max_overflow=0)


def kill(url: str, pid: int) -> None:
    admin = sa.create_engine(engines.normalise_url(url))
    with admin.connect() as connection:
        connection.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    admin.dispose()


def test_a_rested_connection_whose_server_side_died_is_replaced_before_use(
    url: str, pings: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engines, "PING_AFTER_REST", 0.0)  # every loan has rested long enough
    engine = one_connection(url)
    try:
        with engine.begin() as connection:
            dead = connection.execute(PID).scalar_one()
        kill(url, dead)  # as a restarted database leaves every pooled connection
        with engine.begin() as connection:
            assert connection.execute(PID).scalar_one() != dead
        assert len(pings) == 1
    finally:
        engine.dispose()


def test_a_connection_back_from_work_a_moment_ago_is_lent_without_a_ping(
    url: str, pings: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the rest rule saves, and what it risks: a connection killed in that moment fails its
    next statement (the pool then replaces it, as it does any connection that failed)."""
    monkeypatch.setattr(engines, "PING_AFTER_REST", 60.0)
    engine = one_connection(url)
    try:
        for _ in range(5):
            with engine.begin() as connection:
                pid = connection.execute(PID).scalar_one()
        assert pings == []
        kill(url, pid)
        with pytest.raises(sa.exc.OperationalError), engine.begin() as connection:
            connection.execute(PID)
        with engine.begin() as connection:
            assert connection.execute(PID).scalar_one() != pid
    finally:
        engine.dispose()
