"""Looks at the tasks table for what other processes did: output and ends to show, notices owed,
and hosts that stopped beating. Every web process runs one; a Celery worker runs the reaper part."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta

from ..domain.ids import SessionId, TaskId
from ..domain.tasks import TERMINAL, lost_host_detail
from ..store import tasks as task_rows
from ..store.db import Database, utc
from .host import Changes

logger = logging.getLogger(__name__)

LOOK_INTERVAL = 0.5
"""Seconds between two looks: how late a person sees a worker's output, and a notice is written."""


class Reaper:
    """What reports failed the tasks of a host that stopped beating; shared by web and worker."""

    def __init__(
        self,
        database: Database,
        clock: Callable[[], datetime],
        host_timeout: float,
        on_changes: Callable[[Changes], None] | None = None,
    ) -> None:
        self.database = database
        self.clock = clock
        self.host_timeout = host_timeout
        self.on_changes = on_changes

    def fail_lost(
        self, task_ids: list[TaskId], detail_for: Callable[[str], str], before: datetime
    ) -> Changes:
        """Running tasks whose host has not beaten since `before` end failed, saying why."""
        ended: set[tuple[SessionId, TaskId]] = set()
        for task_id in sorted(task_ids):
            with self.database.write() as db:
                row = task_rows.row(db, task_id, lock=True)
                if row is None or row.status != "running":
                    continue
                if row.heartbeat_at is not None and utc(row.heartbeat_at) >= before:
                    continue  # it beat again since the look
                if task_rows.finish(db, row, "failed", detail_for(row.host_kind), self.clock()):
                    ended.add((SessionId(row.session_id), task_id))
        changes = Changes(frozenset(), frozenset(ended))
        if changes and self.on_changes is not None:
            self.on_changes(changes)
        return changes

    def reap(self) -> Changes:
        before = self.clock() - timedelta(seconds=self.host_timeout)
        with self.database.read() as db:
            lost = task_rows.stale(db, before)
        if not lost:
            return Changes()
        return self.fail_lost(lost, lambda kind: lost_host_detail(kind, self.host_timeout), before)

    def fail_other_web_hosts(self, host_id: str) -> Changes:
        """SQLite serves one process: at start, embedded tasks of any earlier process died with it."""
        with self.database.read() as db:
            orphans = task_rows.orphans_of_other_web_hosts(db, host_id)
        if not orphans:
            return Changes()
        return self.fail_lost(orphans, lambda kind: lost_host_detail(kind, self.host_timeout), self.clock())


class TaskWatcher:
    def __init__(
        self,
        database: Database,
        reaper: Reaper,
        on_changes: Callable[[Changes], None],
        local_host_id: str | None,
        wake: Callable[[SessionId], None] | None = None,
    ) -> None:
        self.database = database
        self.reaper = reaper
        self.on_changes = on_changes
        self.local_host_id = local_host_id
        """Tasks of this process report their changes themselves; the watcher skips them."""
        self.wake = wake
        self._seen: dict[TaskId, int] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._looks = 0

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="task-watcher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _loop(self) -> None:
        while not self._stop.wait(LOOK_INTERVAL):
            try:
                self.look()
            except Exception:
                logger.exception("looking at the tasks failed; will look again")

    def look(self) -> None:
        """One look: changes of other hosts' tasks, sessions owed a notice, lost hosts."""
        self._looks += 1
        with self.database.read() as db:
            activity = task_rows.activity(db, list(self._seen))
            owed = task_rows.sessions_with_unreported_ends(db) if self.wake else []
        sessions: set[SessionId] = set()
        ended: set[tuple[SessionId, TaskId]] = set()
        seen: dict[TaskId, int] = {}
        for task in activity:
            if task.host_id is not None and task.host_id == self.local_host_id:
                continue
            if self._seen.get(task.id) != task.version:
                sessions.add(task.session_id)
                if task.status in TERMINAL and task.id in self._seen:
                    ended.add((task.session_id, task.id))
            if task.status not in TERMINAL:
                seen[task.id] = task.version
        self._seen = seen
        if sessions or ended:
            self.on_changes(Changes(frozenset(sessions), frozenset(ended)))
        for session_id in owed:
            assert self.wake is not None
            self.wake(session_id)
        if self._looks % max(1, int(self.reaper.host_timeout / 4 / LOOK_INTERVAL)) == 0:
            self.reaper.reap()
