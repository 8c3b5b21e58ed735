from __future__ import annotations

from collections.abc import Iterator

import pytest

from tasksurface.store.db import Database
from tasksurface.store.engine import make_engine, upgrade_to_head


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    """A migrated, empty database (SQLite, and PostgreSQL when configured)."""
    db = Database(make_engine(database_url))
    upgrade_to_head(db.engine)
    yield db
    db.dispose()
