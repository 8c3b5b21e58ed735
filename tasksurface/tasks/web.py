"""Background tasks in a web process: the service, the embedded host or the Celery queue, the watcher."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from ..agent.ports import ModelBackend, Notifier
from ..config import Settings
from ..domain.ids import SessionId
from ..services.tasks import Dispatch, TaskLimits, TaskService
from ..store.db import Database
from .commands import DeclaredCommands
from .host import TaskHost
from .runtime import EmbeddedDispatch, make_host, task_parts
from .watcher import Reaper, TaskWatcher


@dataclass
class WebTasks:
    service: TaskService
    declared: DeclaredCommands
    host: TaskHost | None
    """The embedded host; `None` when workers run the tasks."""
    watcher: TaskWatcher
    reaper: Reaper
    sqlite: bool

    def start(self) -> None:
        """After a crash: tasks of the dead process are reported failed, and owed notices written."""
        if self.sqlite:
            self.reaper.fail_other_web_hosts(self.host.id if self.host else "")
        self.reaper.reap()
        self.watcher.look()
        self.watcher.start()

    def stop_waits(self) -> None:
        self.service.stop()

    def stop(self) -> None:
        self.watcher.stop()
        if self.host is not None:
            self.host.stop()


def build_web_tasks(
    settings: Settings,
    database: Database,
    backend: ModelBackend,
    notifier: Notifier,
    wake: Callable[[SessionId], None],
    clock: Callable[[], datetime],
    declared: DeclaredCommands | None = None,
) -> WebTasks:
    parts = task_parts(settings, backend, clock, declared)
    host: TaskHost | None = None
    dispatch: Dispatch
    if settings.tasks == "celery":
        # Celery is loaded only where it is configured: its import is a tenth of a second of every
        # start with the embedded host (the default).
        from .celery_app import CeleryDispatch, make_celery

        dispatch = CeleryDispatch(
            make_celery(settings.celery_broker_url, settings.celery_queue), settings.celery_queue
        )
    else:
        host = make_host(settings, database, parts, "web", clock)
        dispatch = EmbeddedDispatch(host)
    limits = TaskLimits(
        settings.task_wait_timeout_ms, settings.task_max_wait_timeout_ms, settings.task_max_running
    )
    service = TaskService(database, notifier, wake, clock, limits, dispatch)
    if host is not None:
        host.listeners.append(service.on_changes)
    reaper = Reaper(database, clock, settings.task_host_timeout, service.on_changes)
    watcher = TaskWatcher(database, reaper, service.on_changes, host.id if host else None, wake)
    sqlite = database.engine.dialect.name == "sqlite"
    return WebTasks(service, parts.declared, host, watcher, reaper, sqlite)
