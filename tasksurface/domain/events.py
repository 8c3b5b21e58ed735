"""Session event kinds and their payloads, as they are logged and sent on the wire."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, get_args

from .ids import (
    CallId,
    MessageId,
    RpcId,
    TaskSurfaceDismissalId,
    TaskSurfaceId,
    TaskSurfaceSubmissionId,
    is_wire_id,
)

EventKind = Literal[
    "user/message",
    "assistant/message",
    "tool/call",
    "tool/result",
    "task-surface/dismissed",
    "agent/error",
    "session/rewound",
    "task/notice",
]
EVENT_KINDS: frozenset[str] = frozenset(get_args(EventKind))


@dataclass(frozen=True)
class SessionEvent:
    """One logged fact; `seq` is its gapless position in its session."""

    seq: int
    kind: EventKind
    at: datetime
    payload: Mapping[str, Any]

    def to_wire(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "at": self.at.isoformat(), "payload": dict(self.payload)}


@dataclass(frozen=True)
class NewEvent:
    """An event about to be appended; the store gives it `seq` and `at`."""

    kind: EventKind
    payload: Mapping[str, Any]
    request_id: str | None = None
    """A client-minted idempotency id (submissionId, dismissalId), unique per session."""


@dataclass(frozen=True)
class TaskSurfaceCorrelation:
    """Ties a user message to the exact surface occurrence it answers."""

    submission_id: TaskSurfaceSubmissionId
    call_id: CallId
    surface_id: TaskSurfaceId
    values: Mapping[str, Any]
    action: str | None = None
    """The submit action chosen (version 2 panels with several submit buttons)."""

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {
            "version": 1,
            "submissionId": self.submission_id,
            "callId": self.call_id,
            "surfaceId": self.surface_id,
            "values": dict(self.values),
        }
        if self.action is not None:
            wire["action"] = self.action
        return wire


@dataclass(frozen=True)
class ActionCorrelation:
    """Ties a user message to a non-blocking action of an open surface; it does not close it."""

    request_id: str
    action_id: str
    call_id: CallId
    surface_id: TaskSurfaceId
    values: Mapping[str, Any]

    def to_wire(self) -> dict[str, Any]:
        return {
            "version": 1,
            "requestId": self.request_id,
            "actionId": self.action_id,
            "callId": self.call_id,
            "surfaceId": self.surface_id,
            "values": dict(self.values),
        }


def user_source(
    rpc_id: RpcId,
    correlation: TaskSurfaceCorrelation | None = None,
    action: ActionCorrelation | None = None,
) -> dict[str, Any]:
    source: dict[str, Any] = {"kind": "user", "rpcId": rpc_id}
    if correlation is not None:
        source["taskSurface"] = correlation.to_wire()
    if action is not None:
        source["taskSurfaceAction"] = action.to_wire()
    return source


def read_action(source: object) -> ActionCorrelation | None:
    """The action correlation of a message source, or `None`."""
    if not isinstance(source, Mapping):
        return None
    ta = source.get("taskSurfaceAction")
    if not isinstance(ta, Mapping) or ta.get("version") != 1:
        return None
    ids = (ta.get("requestId"), ta.get("callId"), ta.get("surfaceId"))
    action_id = ta.get("actionId")
    if not all(is_wire_id(i) for i in ids) or not isinstance(action_id, str):
        return None
    if not isinstance(ta.get("values"), Mapping):
        return None
    return ActionCorrelation(
        str(ta["requestId"]),
        action_id,
        CallId(ta["callId"]),
        TaskSurfaceId(ta["surfaceId"]),
        dict(ta["values"]),
    )


def read_correlation(source: object) -> TaskSurfaceCorrelation | None:
    """The correlation of a message source, or `None` for an ordinary message."""
    if not isinstance(source, Mapping):
        return None
    ts = source.get("taskSurface")
    if not isinstance(ts, Mapping) or ts.get("version") != 1 or isinstance(ts.get("version"), bool):
        return None  # `true == 1` in Python, but not in the stored shape
    ids = (ts.get("submissionId"), ts.get("callId"), ts.get("surfaceId"))
    if not all(is_wire_id(i) for i in ids) or not isinstance(ts.get("values"), Mapping):
        return None
    action = ts.get("action")
    return TaskSurfaceCorrelation(
        TaskSurfaceSubmissionId(ts["submissionId"]),
        CallId(ts["callId"]),
        TaskSurfaceId(ts["surfaceId"]),
        dict(ts["values"]),
        action if isinstance(action, str) else None,
    )


def text_content(text: str) -> list[dict[str, str]]:
    return [{"type": "text", "text": text}]


def content_text(content: object) -> str:
    """The plain text of a content block list; unknown blocks are skipped."""
    if not isinstance(content, list):
        return ""
    return "".join(
        b["text"]
        for b in content
        if isinstance(b, Mapping) and b.get("type") == "text" and isinstance(b.get("text"), str)
    )


def user_message(
    message_id: MessageId, source: Mapping[str, Any], content: list[dict[str, str]]
) -> dict[str, Any]:
    return {"messageId": message_id, "source": dict(source), "content": content}


def tool_call(call_id: CallId, name: str, args: object) -> dict[str, Any]:
    return {"callId": call_id, "name": name, "args": args}


def tool_result(
    call_id: CallId,
    name: str,
    ok: bool,
    text: str,
    meta: Mapping[str, Any] | None = None,
    *,
    ends_turn: bool = False,
) -> dict[str, Any]:
    """`endsTurn` marks the call that ended its turn, so a restart knows the agent owes nothing."""
    payload: dict[str, Any] = {"callId": call_id, "name": name, "ok": ok, "content": text_content(text)}
    if meta is not None:
        payload["meta"] = dict(meta)
    if ends_turn:
        payload["endsTurn"] = True
    return payload


def surface_dismissed(
    surface_id: TaskSurfaceId, call_id: CallId, dismissal_id: TaskSurfaceDismissalId
) -> dict[str, Any]:
    return {"surfaceId": surface_id, "callId": call_id, "dismissalId": dismissal_id}
