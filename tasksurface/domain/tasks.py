"""Background tasks: their states, the public snapshot, and what a read, a kill or a finish decides.

Kind-agnostic: a producer (a declared command, a sub-agent) starts a task and writes its output;
everything here is the same whoever produced it. A task belongs to the session that started it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal, get_args

from . import task_text
from .events import SessionEvent
from .ids import SessionId, TaskId

TaskStatus = Literal["queued", "running", "completed", "failed", "cancelled"]
STATUSES: frozenset[str] = frozenset(get_args(TaskStatus))
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "cancelled"})
OutputMode = Literal["stream", "final"]
"""`stream`: each read returns what this reader has not read yet; `final`: nothing until the task ends."""
StoppedBy = Literal["model", "user"]

NOTICE_KIND: Final = "task/notice"
CANCELLATION_REQUESTED = "cancellation requested"
HOST_STOPPED = "the host stopped"
WORKER_STOPPED = "the worker stopped"
MAX_LABEL_CHARS = 200
MAX_REASON_CHARS = 500


def is_terminal(status: str) -> bool:
    return status in TERMINAL


@dataclass(frozen=True)
class Progress:
    """What a producer reports of how far it is; `total` is None when only a percentage is known."""

    done: float
    total: float | None = None

    @property
    def fraction(self) -> float:
        total = self.total if self.total else 100.0
        return max(0.0, min(1.0, self.done / total)) if total > 0 else 0.0

    def to_wire(self) -> dict[str, Any]:
        return {"done": self.done, "total": self.total, "fraction": round(self.fraction, 4)}


@dataclass(frozen=True)
class PublicTaskSnapshot:
    """What the model and the person may see of a task: never the owner or the reported bit."""

    id: TaskId
    kind: str
    label: str
    status: TaskStatus
    detail: str | None
    started_at: datetime
    ended_at: datetime | None

    def to_wire(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "label": self.label,
            "status": self.status,
            "detail": self.detail,
            "startedAt": self.started_at.isoformat(),
            "endedAt": self.ended_at.isoformat() if self.ended_at else None,
        }


@dataclass(frozen=True)
class TaskRecord:
    """A task as the store keeps it; only the host and the services see the internal parts."""

    id: TaskId
    session_id: SessionId
    kind: str
    label: str
    status: TaskStatus
    detail: str | None
    started_at: datetime
    ended_at: datetime | None
    output_mode: OutputMode
    output_limit: int | None
    """The producer's `outputLimitBytes`; `None` leaves every text of this task unbounded."""
    reported: bool
    """The owner has learnt of the end (a terminal read, a kill, or the notice): no notice after it."""
    cancel_requested: bool
    cancel_reason: str | None
    stopped_by: StoppedBy | None
    progress: Progress | None
    version: int

    @property
    def snapshot(self) -> PublicTaskSnapshot:
        detail = self.detail
        if not is_terminal(self.status) and self.cancel_requested:
            detail = CANCELLATION_REQUESTED
        return PublicTaskSnapshot(
            self.id, self.kind, self.label, self.status, detail, self.started_at, self.ended_at
        )


@dataclass(frozen=True)
class ReadDecision:
    """What one `task_output` answers, and whether it ends the owner's interest in the end."""

    text: str
    consumed_through: int | None
    """The last output chunk this read hands over, or None when it hands over nothing."""
    reports: bool


def decide_read(task: TaskRecord, unread: str, last_chunk: int | None) -> ReadDecision:
    """`unread` is the output after this reader's cursor, up to `last_chunk`, oldest first.

    A final-output task shows nothing before it ends; a terminal read reports the end, so
    no completion notice follows it.
    """
    snapshot = task.snapshot
    visible = task.output_mode == "stream" or is_terminal(task.status)
    output = unread if visible else ""
    text = task_text.read_text(output, snapshot.status, snapshot.detail, task.output_limit)
    return ReadDecision(text, last_chunk if visible else None, is_terminal(task.status))


KillOutcome = Literal["cancellation-requested", "already-finished"]


@dataclass(frozen=True)
class KillDecision:
    outcome: KillOutcome
    text: str

    def to_wire(self, task: PublicTaskSnapshot) -> dict[str, Any]:
        return {"outcome": self.outcome, "task": task.to_wire()}


def decide_kill(task: TaskRecord) -> KillDecision:
    """A finished task keeps its output unread; anything else is asked to stop at once."""
    if is_terminal(task.status):
        return KillDecision(
            "already-finished", task_text.finished_text(task.id, task.snapshot, task.output_limit)
        )
    return KillDecision("cancellation-requested", task_text.cancellation_text(task.id, task.output_limit))


def cancelled_detail(reason: str | None, by: StoppedBy) -> str:
    """The detail of a task that stopped because someone asked; the model reads who and why."""
    said = f": {reason}" if reason else ""
    return f"stopped by the user{said}" if by == "user" else f"cancelled{said}"


def lost_host_detail(host_kind: str, timeout_seconds: float) -> str:
    """Why a running task failed when its host stopped beating."""
    if host_kind == "web":
        return HOST_STOPPED
    return f"the worker stopped (no sign of life for {timeout_seconds:g} s)"


def notice_payload(task: TaskRecord) -> dict[str, Any]:
    """The logged notice: the model reads `text`; the page shows the parts in the person's language."""
    snapshot = task.snapshot
    return {
        "taskId": task.id,
        "kind": task.kind,
        "label": task.label,
        "status": snapshot.status,
        "detail": snapshot.detail,
        "text": task_text.notice_text(
            task.id, task.kind, task.label, snapshot.status, snapshot.detail, task.output_limit
        ),
    }


def notice_request_id(task_id: TaskId) -> str:
    """The notice's uniqueness key in its session's log; the ':' keeps it apart from client ids."""
    return f"notice:{task_id}"


DELEGATE_SOURCE = "delegate"
"""The source kind of the one message a sub-agent is given: its task's prompt."""


def is_delegated(history: Sequence[SessionEvent]) -> bool:
    """A sub-agent's history: the model answers a delegated prompt, with nobody to ask or show."""
    if not history or history[0].kind != "user/message":
        return False
    source = history[0].payload.get("source")
    return isinstance(source, Mapping) and source.get("kind") == DELEGATE_SOURCE


def read_notice(payload: Mapping[str, Any]) -> str:
    text = payload.get("text")
    return text if isinstance(text, str) else ""


CARD_KIND = "dsh/task-control"
"""The `tool/result.meta` of the task tools: the card the transcript draws and the canonical value."""
Card = Literal["read", "execute"]
CONTROL_TOOLS = ("task_output", "task_list", "task_kill")
PRODUCER_TOOLS = ("run_command", "delegate_task")


def card_meta(card: Card, value: Any) -> dict[str, Any]:
    return {"kind": CARD_KIND, "version": 1, "card": card, "value": value}


def read_card(meta: object) -> tuple[Card, Any] | None:
    """The card of a task tool's result, or None for any other result."""
    if (
        not isinstance(meta, Mapping)
        or meta.get("kind") != CARD_KIND
        or meta.get("card") not in ("read", "execute")
    ):
        return None
    card: Card = meta["card"]
    return card, meta.get("value")


def started_text(snapshot: PublicTaskSnapshot) -> str:
    """What a producer tool answers: the id to track, and how the end will be heard of."""
    return (
        f"started background task {snapshot.id} ({snapshot.kind}: {snapshot.label}) "
        f"[status: {snapshot.status}]. You are notified in this session when it finishes; "
        "read its output with task_output."
    )
