"""The Celery worker of `TASKSURFACE_TASKS=celery`: `celery -A tasksurface.tasks.worker worker`.

It reads the same settings as the web app (database, commands file, model backend, queue) and
runs each task it takes on a thread of its pool, storing output and state in the database;
web processes see them from there. `scripts/worker.sh` starts one with the usual options.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import UTC, datetime

from celery.signals import worker_shutting_down

from ..config import load_settings
from ..domain.ids import TaskId
from ..services.container import build_backend
from ..store.db import Database
from ..store.engine import check_schema_current, make_engine
from .celery_app import RUN_TASK, make_celery
from .host import Changes, TaskHost
from .runtime import make_host, task_parts
from .watcher import LOOK_INTERVAL, Reaper

logger = logging.getLogger(__name__)
settings = load_settings(derive_secret=False)
app = make_celery(settings.celery_broker_url, settings.celery_queue)


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class WorkerRuntime:
    database: Database
    host: TaskHost
    reaper: Reaper
    stop: threading.Event


_runtime: WorkerRuntime | None = None
_lock = threading.Lock()


def runtime() -> WorkerRuntime:
    """Built on the first task, once per worker process; the schema must already be current."""
    global _runtime
    with _lock:
        if _runtime is None:
            database = Database(make_engine(settings.database_url))
            check_schema_current(database.engine)
            parts = task_parts(settings, build_backend(settings), _utcnow)
            host = make_host(settings, database, parts, "worker", _utcnow)
            reaper = Reaper(database, _utcnow, settings.task_host_timeout)
            _runtime = WorkerRuntime(database, host, reaper, threading.Event())
            threading.Thread(target=_reap, args=(_runtime,), name="task-reaper", daemon=True).start()
        return _runtime


def _reap(worker: WorkerRuntime) -> None:
    """Workers report lost hosts too, so tasks fail even when no web process is running."""
    interval = max(LOOK_INTERVAL, worker.reaper.host_timeout / 4)
    while not worker.stop.wait(interval):
        try:
            changes: Changes = worker.reaper.reap()
            if changes:
                logger.info("reported %d task(s) of lost hosts as failed", len(changes.ended))
        except Exception:
            logger.exception("looking for lost hosts failed")


@app.task(name=RUN_TASK, ignore_result=True)  # type: ignore[untyped-decorator]
def run_task(task_id: str) -> None:
    runtime().host.run_claimed(TaskId(task_id))


@worker_shutting_down.connect  # type: ignore[untyped-decorator]
def _shutting_down(**_kwargs: object) -> None:
    """A worker going away stops its tasks and reports them failed ('the worker stopped')."""
    if _runtime is not None:
        _runtime.stop.set()
        _runtime.host.stop()
