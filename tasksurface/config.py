"""Settings from the environment, named as DESIGN.md's configuration table names them."""

from __future__ import annotations

import os
from pathlib import Path

INSTANCE_PATH = Path(os.environ.get("TASKSURFACE_INSTANCE_PATH", Path(__file__).resolve().parents[1] / "instance"))


def database_url() -> str:
    """`TASKSURFACE_DATABASE_URL`, else a SQLite file in the instance folder."""
    url = os.environ.get("TASKSURFACE_DATABASE_URL")
    if url:
        return url
    INSTANCE_PATH.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{INSTANCE_PATH / 'tasksurface.sqlite3'}"
