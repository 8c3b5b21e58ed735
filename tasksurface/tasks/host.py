"""The tasks of one process: each runs on its own thread; one flusher stores what they produce.

Output, progress and endings are buffered and written in one transaction per flush for every
task of the process, so fifty chatty tasks cost a few small transactions a second, not thousands.
While tasks run, the host beats a heartbeat on their rows and picks up stop requests made
anywhere; a host that dies stops beating, and any watcher then reports its tasks failed.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..domain.ids import SessionId, TaskId
from ..domain.tasks import HOST_STOPPED, WORKER_STOPPED, cancelled_detail
from ..store import tasks as task_rows
from ..store.db import Database
from .producers import Ending, Producer

logger = logging.getLogger(__name__)

FLUSH_INTERVAL = 0.2
"""Seconds between two writes of buffered output: what a person watching the tray waits at most."""
CANCEL_POLL_INTERVAL = 0.5
MAX_BUFFER_BYTES = 1024 * 1024
"""A producer that writes faster than the database takes it waits here (its pipe fills, then it)."""


@dataclass(frozen=True)
class Changes:
    """What one flush or one look changed: sessions whose tray to redraw, tasks that ended."""

    sessions: frozenset[SessionId] = frozenset()
    ended: frozenset[tuple[SessionId, TaskId]] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.sessions or self.ended)


Listener = Callable[[Changes], None]


def new_host_id(kind: str) -> str:
    return f"{kind}-{socket.gethostname()[:24]}-{os.getpid()}-{secrets.token_hex(4)}"


@dataclass
class _Handle:
    """One running task: the sink its producer writes to, and what waits to be stored."""

    task_id: TaskId
    session_id: SessionId
    host: TaskHost
    pieces: list[str] = field(default_factory=list)
    buffered: int = 0
    progress_report: tuple[float, float | None] | None = None
    ending: Ending | None = None
    host_stopped: bool = False
    stored: threading.Event = field(default_factory=threading.Event)
    _cancelled: threading.Event = field(default_factory=threading.Event)
    _callbacks: list[Callable[[], None]] = field(default_factory=list)

    # -- the Sink protocol ------------------------------------------------------------
    def write(self, text: str) -> None:
        if not text:
            return
        with self.host.buffer_room:
            while self.buffered > MAX_BUFFER_BYTES and not self._cancelled.is_set():
                self.host.wake.set()
                self.host.buffer_room.wait(1.0)
            self.pieces.append(text)
            self.buffered += len(text.encode("utf-8"))

    def progress(self, done: float, total: float | None) -> None:
        with self.host.buffer_room:
            self.progress_report = (done, total)

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def on_cancel(self, callback: Callable[[], None]) -> None:
        with self.host.buffer_room:
            self._callbacks.append(callback)
        if self._cancelled.is_set():
            callback()

    # -- for the host -----------------------------------------------------------------
    def cancel(self) -> None:
        self._cancelled.set()
        with self.host.buffer_room:
            callbacks = list(self._callbacks)
            self.host.buffer_room.notify_all()
        for callback in callbacks:
            callback()


class TaskHost:
    def __init__(
        self,
        database: Database,
        kind: str,
        producers: Mapping[str, Producer],
        clock: Callable[[], datetime],
        retain_bytes: int,
        heartbeat_interval: float,
    ) -> None:
        self.database = database
        self.kind = kind
        self.id = new_host_id(kind)
        self.producers = dict(producers)
        self.clock = clock
        self.retain_bytes = retain_bytes
        self.heartbeat_interval = heartbeat_interval
        self.listeners: list[Listener] = []
        self.wake = threading.Event()
        self.buffer_room = threading.Condition()
        self._running: dict[TaskId, _Handle] = {}
        self._flusher: threading.Thread | None = None
        self._stopping = threading.Event()

    # -- starting ---------------------------------------------------------------------
    def start(self, task_id: TaskId, session_id: SessionId, kind: str, spec: Mapping[str, Any]) -> None:
        """Run a task this process has just recorded as its own, on a thread of its own."""
        handle = self._register(task_id, session_id)
        threading.Thread(
            target=self._execute, args=(handle, kind, spec), name=f"task-{task_id}", daemon=True
        ).start()

    def run_claimed(self, task_id: TaskId) -> bool:
        """Claim a queued task and run it on this thread until it is stored as ended (workers)."""
        with self.database.write() as db:
            row = task_rows.claim(db, task_id, self.id, self.kind, self.clock())
            if row is None:
                return False  # taken by another delivery, or stopped while it waited
            session_id, kind, spec = SessionId(row.session_id), row.kind, dict(row.spec)
        self._emit(Changes(frozenset({session_id})))
        handle = self._register(task_id, session_id)
        self._execute(handle, kind, spec)
        handle.stored.wait()
        return True

    def _register(self, task_id: TaskId, session_id: SessionId) -> _Handle:
        handle = _Handle(task_id, session_id, self)
        with self.buffer_room:
            self._running[task_id] = handle
            if self._flusher is None or not self._flusher.is_alive():
                self._flusher = threading.Thread(target=self._flush_loop, name="task-flusher", daemon=True)
                self._flusher.start()
        return handle

    def _execute(self, handle: _Handle, kind: str, spec: Mapping[str, Any]) -> None:
        producer = self.producers.get(kind)
        try:
            if producer is None:
                ending = Ending("failed", f"this host cannot run {kind!r} tasks")
            elif self._stopping.is_set():
                ending = Ending("cancelled")
            else:
                ending = producer.run(spec, handle)
        except Exception as exc:  # a broken producer must not leave its task running
            logger.exception("task %s failed in its producer", handle.task_id)
            ending = Ending("failed", f"the host failed to run it: {type(exc).__name__}")
        with self.buffer_room:
            handle.ending = ending
        self.wake.set()

    # -- stopping ---------------------------------------------------------------------
    def cancel(self, task_id: TaskId) -> bool:
        """Stop a task at once if it runs here; elsewhere its host sees the request on its next poll."""
        with self.buffer_room:
            handle = self._running.get(task_id)
        if handle is None:
            return False
        handle.cancel()
        return True

    def running(self) -> list[TaskId]:
        with self.buffer_room:
            return list(self._running)

    def stop(self, timeout: float = 10.0) -> None:
        """The process is going away: its tasks stop and are reported failed ('the host stopped')."""
        self._stopping.set()
        with self.buffer_room:
            handles = list(self._running.values())
        for handle in handles:
            handle.host_stopped = True
            handle.cancel()
        deadline = time.monotonic() + timeout
        for handle in handles:
            self.wake.set()
            handle.stored.wait(max(0.0, deadline - time.monotonic()))
        self._flush()

    # -- storing ----------------------------------------------------------------------
    def _flush_loop(self) -> None:
        last_beat = last_poll = time.monotonic()
        while True:
            self.wake.wait(FLUSH_INTERVAL)
            self.wake.clear()
            try:
                self._flush()
                now = time.monotonic()
                if now - last_poll >= CANCEL_POLL_INTERVAL:
                    self._poll_cancels(beat=now - last_beat >= self.heartbeat_interval)
                    last_poll = now
                    if now - last_beat >= self.heartbeat_interval:
                        last_beat = now
            except Exception:
                logger.exception("storing task output failed; will try again")
            with self.buffer_room:
                if not self._running:
                    self._flusher = None
                    return

    def _take(self) -> list[tuple[_Handle, str, tuple[float, float | None] | None, Ending | None]]:
        taken = []
        with self.buffer_room:
            for handle in self._running.values():
                if handle.pieces or handle.progress_report or handle.ending:
                    taken.append((handle, "".join(handle.pieces), handle.progress_report, handle.ending))
                    handle.pieces, handle.buffered, handle.progress_report = [], 0, None
            self.buffer_room.notify_all()
        return sorted(taken, key=lambda t: t[0].task_id)  # rows are locked in id order, always

    def _flush(self) -> None:
        taken = self._take()
        if not taken:
            return
        sessions: set[SessionId] = set()
        ended: set[tuple[SessionId, TaskId]] = set()
        gone: list[_Handle] = []
        try:
            with self.database.write() as db:
                for handle, text, progress, ending in taken:
                    row = task_rows.row(db, handle.task_id, lock=True)
                    if row is None or row.status not in task_rows.ACTIVE:
                        handle.cancel()  # ended elsewhere (a lost heartbeat, a stop while queued)
                        if ending is not None:
                            gone.append(handle)
                        continue
                    sessions.add(handle.session_id)
                    if text:
                        task_rows.append_output(db, row, text, self.retain_bytes)
                    if progress is not None:
                        row.progress_done, row.progress_total = progress
                        task_rows.touch(row)
                    if ending is not None:
                        status, detail = self._final(row.cancel_reason, row.stopped_by, handle, ending)
                        task_rows.finish(db, row, status, detail, self.clock())
                        ended.add((handle.session_id, handle.task_id))
                        gone.append(handle)
        except Exception:
            with self.buffer_room:  # nothing was stored: put it back in front of what came since
                for handle, text, progress, _ending in taken:
                    handle.pieces.insert(0, text)
                    handle.buffered += len(text.encode("utf-8"))
                    handle.progress_report = handle.progress_report or progress
            raise
        with self.buffer_room:
            for handle in gone:
                self._running.pop(handle.task_id, None)
        for handle in gone:
            handle.stored.set()
        self._emit(Changes(frozenset(sessions), frozenset(ended)))

    @staticmethod
    def _final(
        reason: str | None, stopped_by: str | None, handle: _Handle, ending: Ending
    ) -> tuple[Any, str | None]:
        if handle.host_stopped:
            return "failed", HOST_STOPPED if handle.host.kind == "web" else WORKER_STOPPED
        if ending.status == "cancelled":
            return "cancelled", cancelled_detail(reason, "user" if stopped_by == "user" else "model")
        return ending.status, ending.detail

    def _poll_cancels(self, beat: bool) -> None:
        if not self.running():
            return
        with self.database.write() if beat else self.database.read() as db:
            if beat:
                wanted = task_rows.heartbeat(db, self.id, self.clock())
            else:
                wanted = task_rows.cancel_requested(db, self.id)
        for task_id in wanted:
            self.cancel(task_id)

    def _emit(self, changes: Changes) -> None:
        if not changes:
            return
        for listener in self.listeners:
            try:
                listener(changes)
            except Exception:
                logger.exception("a task listener failed")
