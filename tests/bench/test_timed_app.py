"""The app with timing points still finds everything it wraps: a function it times that is renamed
or moved fails here, not halfway through a bench."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_timed_app_loads_and_writes_its_points_where_it_is_told(tmp_path: Path) -> None:
    log = tmp_path / "timing.log"
    env = dict(
        os.environ,
        TASKSURFACE_DATABASE_URL=f"sqlite:///{tmp_path / 'timed.sqlite3'}",
        TASKSURFACE_INSTANCE_PATH=str(tmp_path),
        TASKSURFACE_MODEL="scripted",
        TASKSURFACE_TIMING_LOG=str(log),
    )
    script = (
        "import bench.timed_app as timed\n"
        "response = timed.app.test_client().get('/')\n"
        "assert response.status_code == 200, response.status_code\n"
        "before = timed.run_queue_ns()\n"
        "sum(range(3_000_000))\n"
        "after = timed.run_queue_ns()\n"
        "assert isinstance(before, int) and 0 <= before <= after, (before, after)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    points = [line.split("\t") for line in log.read_text(encoding="utf-8").splitlines()]
    assert [(p[2], p[3]) for p in points] == [("view-in", "/"), ("view-out", "/")]
