"""A start loads only what its settings use: the OpenAI client, Celery and the PostgreSQL driver
cost a start over half a second together, and the default settings (the scripted model, the
embedded task host, SQLite) use none of them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPTIONAL = ("openai", "celery", "psycopg")
START = f"""
import json, sys
from tasksurface.web.factory import create_app
app = create_app({{"database_url": sys.argv[1], "secret_key": "start"}})
app.extensions["tasksurface"].stop()
print(json.dumps(sorted(name for name in {OPTIONAL!r} if name in sys.modules)))
"""


def test_a_start_with_the_default_settings_loads_no_optional_client(tmp_path: Path) -> None:
    env = {name: value for name, value in os.environ.items() if not name.startswith("TASKSURFACE_")}
    env["TASKSURFACE_INSTANCE_PATH"] = str(tmp_path)
    url = f"sqlite:///{tmp_path / 'start.sqlite3'}"
    started = subprocess.run(
        [sys.executable, "-c", START, url], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert started.returncode == 0, started.stderr
    assert json.loads(started.stdout.strip().splitlines()[-1]) == []
