"""Background tasks for their owner session: start, read, list, stop, and the completion notice.

Every rule that decides what the owner learns is in `domain.tasks`; here each decision is
taken under the task's row lock, so a finish, a kill, a read and a notice never race past one
another: each completion is noticed at most once.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from ..agent.ports import Notifier
from ..domain import task_args, task_text
from ..domain.events import NewEvent, SessionEvent
from ..domain.ids import CallId, SessionId, TaskId
from ..domain.refusals import Problem, TaskCode, TaskRefused
from ..domain.tasks import (
    NOTICE_KIND,
    KillDecision,
    OutputMode,
    Progress,
    PublicTaskSnapshot,
    StoppedBy,
    TaskRecord,
    cancelled_detail,
    decide_kill,
    decide_read,
    is_terminal,
    notice_payload,
    notice_request_id,
)
from ..store import log
from ..store import tasks as task_rows
from ..store.db import Database
from ..tasks.host import Changes

logger = logging.getLogger(__name__)

TAIL_BYTES = 2048
"""How much of a task's output the tray shows."""


@dataclass(frozen=True)
class TaskLimits:
    wait_timeout_ms: int
    max_wait_timeout_ms: int
    max_running: int
    """Queued or running tasks one session may have at once."""


class Dispatch(Protocol):
    """Where tasks run: in this process (embedded) or on workers (Celery)."""

    host_kind: str

    def host_id(self) -> str | None:
        """The host a new task is recorded with; `None` when it waits in a queue for a worker."""

    def submit(self, task: TaskRecord, spec: dict[str, Any]) -> None: ...

    def cancel(self, task_id: TaskId) -> None:
        """Stop at once when the task runs here; other hosts see the request when they next look."""


@dataclass(frozen=True)
class TaskView:
    """A task as the tray and the HTTP API show it to its owner."""

    snapshot: PublicTaskSnapshot
    progress: Progress | None
    tail: str

    def to_wire(self) -> dict[str, Any]:
        return {
            **self.snapshot.to_wire(),
            "progress": self.progress.to_wire() if self.progress else None,
            "tail": self.tail,
        }


def _not_found(task_id: object) -> TaskRefused:
    return TaskRefused(
        Problem(TaskCode.NOT_FOUND, f"there is no task {task_id!r} in this session", "task_id")
    )


class TaskService:
    def __init__(
        self,
        database: Database,
        notifier: Notifier,
        wake: Callable[[SessionId], None],
        clock: Callable[[], datetime],
        limits: TaskLimits,
        dispatch: Dispatch,
    ) -> None:
        self.database = database
        self.notifier = notifier
        self.wake = wake
        self.clock = clock
        self.limits = limits
        self.dispatch = dispatch
        self.listeners: list[Callable[[SessionId], None]] = []
        """Called with each session whose tasks changed (the tray's pushes)."""
        self._signal = threading.Condition()
        self._stopping = threading.Event()

    # -- the model's tools --------------------------------------------------------------
    def start(
        self,
        session_id: SessionId,
        call_id: CallId | None,
        kind: str,
        label: str,
        spec: dict[str, Any],
        output_mode: OutputMode,
        output_limit: int | None,
    ) -> TaskRecord:
        task_id = TaskId("t_" + secrets.token_urlsafe(8))  # 13 characters: a 64-byte notice names it
        new = task_rows.NewTask(
            task_id, session_id, call_id, kind, label, spec, output_mode, output_limit,
            self.dispatch.host_kind, self.dispatch.host_id(),
        )  # fmt: skip
        with self.database.write() as db:
            log.get_session(db, session_id, lock=True)  # one start at a time per session
            if task_rows.running_count(db, session_id) >= self.limits.max_running:
                raise TaskRefused(
                    Problem(
                        TaskCode.TOO_MANY,
                        f"this session already has {self.limits.max_running} tasks queued or running; "
                        "collect or stop one first",
                    )
                )
            task = task_rows.create(db, new, self.clock())
        try:
            self.dispatch.submit(task, spec)
        except Exception as exc:
            logger.exception("task %s could not be handed to its host", task_id)
            self._fail(task_id, f"could not be queued: {type(exc).__name__}")
        self._changed(Changes(frozenset({session_id})))
        return task

    def read(
        self, session_id: SessionId, task_id: TaskId, wait: bool, timeout_ms: int | None
    ) -> tuple[str, PublicTaskSnapshot]:
        """`task_output`: the increment this reader has not read; a terminal read reports the end."""
        if wait:
            self._wait_for_end(session_id, task_id, self.wait_ms(timeout_ms))
        with self.database.write() as db:
            row = task_rows.row(db, task_id, session_id, lock=True)
            if row is None:
                raise _not_found(task_id)
            record = task_rows.record(row)
            unread, last = task_rows.unread(db, row)
            decision = decide_read(record, unread, last)
            if decision.consumed_through is not None:
                row.read_seq = decision.consumed_through
            if decision.reports:
                row.reported = True
        return decision.text, record.snapshot

    def wait_ms(self, requested: int | None) -> int:
        return task_args.wait_ms(requested, self.limits.wait_timeout_ms, self.limits.max_wait_timeout_ms)

    def snapshots(self, session_id: SessionId) -> list[PublicTaskSnapshot]:
        with self.database.read() as db:
            return [t.snapshot for t in task_rows.for_session(db, session_id)]

    def kill(
        self, session_id: SessionId, task_id: TaskId, reason: str | None, by: StoppedBy
    ) -> tuple[KillDecision, PublicTaskSnapshot, int | None]:
        """Ask a task to stop at once. The model's kill reports the end; a person's stop does not,
        so the model still hears (in the notice) that the user stopped it and why."""
        ended = False
        with self.database.write() as db:
            row = task_rows.row(db, task_id, session_id, lock=True)
            if row is None:
                raise _not_found(task_id)
            decision = decide_kill(task_rows.record(row))
            if by == "model":
                row.reported = True
            if decision.outcome == "cancellation-requested" and not row.cancel_requested:
                row.cancel_requested, row.cancel_reason, row.stopped_by = True, reason, by
                task_rows.touch(row)
                if row.status == "queued":  # no host has it yet: it ends here and now
                    ended = task_rows.finish(db, row, "cancelled", cancelled_detail(reason, by), self.clock())
            record = task_rows.record(row)
        if decision.outcome == "cancellation-requested":
            self.dispatch.cancel(task_id)
        self._changed(Changes(frozenset({session_id}), frozenset({(session_id, task_id)} if ended else ())))
        return decision, record.snapshot, record.output_limit

    def limit_of(self, session_id: SessionId, task_id: TaskId) -> int | None:
        """The producer's cap of a task this session owns, for its refusals and failures too."""
        with self.database.read() as db:
            task = task_rows.get(db, task_id, session_id)
        return task.output_limit if task else None

    # -- the owner's next model request ---------------------------------------------------
    def deliver_notices(self, session_id: SessionId) -> None:
        """Write each unreported end of this session's tasks into its log, once, before the model reads it."""
        with self.database.read() as db:
            candidates = task_rows.unreported_ends(db, session_id)
        if not candidates:
            return
        logged: list[SessionEvent] = []
        with self.database.write() as db:
            for task_id in candidates:
                row = task_rows.row(db, task_id, session_id, lock=True)
                if row is None or row.reported or not is_terminal(row.status):
                    continue  # a read or a kill got there first
                row.reported = True
                notice = NewEvent(
                    NOTICE_KIND, notice_payload(task_rows.record(row)), notice_request_id(task_id)
                )
                logged.append(log.append(db, session_id, notice, self.clock()))
        if logged:
            self.notifier.changed(session_id, events=logged)
            self._tell_listeners({session_id})

    # -- people --------------------------------------------------------------------------
    def views(self, session_id: SessionId) -> list[TaskView]:
        with self.database.read() as db:
            return [
                TaskView(t.snapshot, t.progress, task_rows.tail(db, t.id, TAIL_BYTES))
                for t in task_rows.for_session(db, session_id)
            ]

    def view(self, session_id: SessionId, task_id: TaskId) -> TaskView:
        with self.database.read() as db:
            task = task_rows.get(db, task_id, session_id)
            if task is None:
                raise _not_found(task_id)
            return TaskView(task.snapshot, task.progress, task_rows.tail(db, task.id, TAIL_BYTES))

    # -- hosts and watchers --------------------------------------------------------------
    def on_changes(self, changes: Changes) -> None:
        """A host or a watcher saw tasks change: wake waiters, redraw trays, and let the runner
        of a session whose task ended write the notice (that is no wake-up of the model)."""
        self._changed(changes)

    def _changed(self, changes: Changes) -> None:
        with self._signal:
            self._signal.notify_all()
        for session_id, _task in changes.ended:
            self.wake(session_id)
        self._tell_listeners(set(changes.sessions) | {s for s, _ in changes.ended})

    def _tell_listeners(self, sessions: set[SessionId]) -> None:
        for session_id in sessions:
            for listener in self.listeners:
                try:
                    listener(session_id)
                except Exception:
                    logger.exception("a task listener failed for session %s", session_id)

    def _wait_for_end(self, session_id: SessionId, task_id: TaskId, wait_ms: int) -> None:
        deadline = time.monotonic() + wait_ms / 1000
        while not self._stopping.is_set():
            with self.database.read() as db:
                task = task_rows.get(db, task_id, session_id)
            if task is None or is_terminal(task.status):
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            with self._signal:
                # Local ends signal at once; a look at the database every second covers the rest.
                self._signal.wait(min(remaining, 1.0))

    def _fail(self, task_id: TaskId, detail: str) -> None:
        with self.database.write() as db:
            row = task_rows.row(db, task_id, lock=True)
            ended = row is not None and task_rows.finish(db, row, "failed", detail, self.clock())
            session_id = SessionId(row.session_id) if row is not None else None
        if ended and session_id is not None:
            self._changed(Changes(frozenset(), frozenset({(session_id, task_id)})))

    def stop(self) -> None:
        """Waiting reads return now (as a timeout would): the process is going away."""
        self._stopping.set()
        with self._signal:
            self._signal.notify_all()


def bounded_refusal(refusal: TaskRefused, limit: int | None) -> str:
    """A refusal about a known task is capped like every other text of that task."""
    return task_text.bounded(refusal.tool_text(), limit)
