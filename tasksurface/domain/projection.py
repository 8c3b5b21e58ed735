"""The Task Surface projection: which surface, if any, is open — folded from the log alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, assert_never

from .events import SessionEvent, read_action, read_correlation
from .ids import CallId, TaskSurfaceId, is_wire_id
from .presentation import TOOL_NAME, read_presentation


@dataclass(frozen=True)
class ActiveSurface:
    call_id: CallId
    surface_id: TaskSurfaceId
    result_seq: int
    """Where the model lives, so reading it never scans the log."""


@dataclass(frozen=True)
class TaskSurfaceProjection:
    active: ActiveSurface | None = None


EMPTY = TaskSurfaceProjection()

Interaction = Literal["shown", "submitted", "dismissed", "bypassed"]
"""What one appended event did to the open panel: the content-free interaction counters."""


def fold(state: TaskSurfaceProjection, event: SessionEvent) -> TaskSurfaceProjection:
    """Open on a successful surface result; close on its submission, its dismissal or any user message."""
    payload = event.payload
    match event.kind:
        case "tool/result":
            opened = _opened_surface(event)
            return TaskSurfaceProjection(opened) if opened else state
        case "user/message":
            # A matching submission closes it as submitted; its own non-blocking action keeps it
            # open; any other user message is the bypass.
            if state.active and is_own_action(event, state.active.surface_id):
                return state
            return EMPTY if state.active else state
        case "task-surface/dismissed":
            active = state.active
            if active and payload.get("surfaceId") == active.surface_id:
                return EMPTY
            return state
        case "tool/call" | "assistant/message" | "agent/error" | "session/rewound" | "task/notice":
            return state
        case _:
            assert_never(event.kind)


def fold_all(events: list[SessionEvent], state: TaskSurfaceProjection = EMPTY) -> TaskSurfaceProjection:
    for event in events:
        state = fold(state, event)
    return state


def _opened_surface(event: SessionEvent) -> ActiveSurface | None:
    """Only a result whose whole meta re-validates opens: what cannot be drawn is never actionable."""
    payload = event.payload
    if (
        payload.get("name") != TOOL_NAME
        or payload.get("ok") is not True
        or not is_wire_id(payload.get("callId"))
    ):
        return None
    presentation = read_presentation(payload.get("meta"))
    if presentation is None:
        return None
    return ActiveSurface(CallId(payload["callId"]), presentation.surface_id, event.seq)


def is_own_action(event: SessionEvent, surface_id: TaskSurfaceId) -> bool:
    """A correlated action message of this surface: visible, but neither an answer nor a bypass."""
    action = read_action(event.payload.get("source"))
    return event.kind == "user/message" and action is not None and action.surface_id == surface_id


def closes(event: SessionEvent, surface_id: TaskSurfaceId) -> bool:
    """Whether this event, coming after the surface opened, closes it (fold's rule, one event)."""
    if event.kind == "task-surface/dismissed":
        return event.payload.get("surfaceId") == surface_id
    return event.kind == "user/message" and not is_own_action(event, surface_id)


def closes_as_submission(event: SessionEvent, surface_id: TaskSurfaceId) -> bool:
    correlation = read_correlation(event.payload.get("source"))
    return event.kind == "user/message" and correlation is not None and correlation.surface_id == surface_id


def interaction(
    before: TaskSurfaceProjection, after: TaskSurfaceProjection, event: SessionEvent
) -> Interaction | None:
    """The fold's decision for one event, named: a panel opened, or closed and how."""
    if after.active is not None and (before.active is None or before.active != after.active):
        return "shown"
    if before.active is None or after.active is not None:
        return None
    if event.kind == "task-surface/dismissed":
        return "dismissed"
    if closes_as_submission(event, before.active.surface_id):
        return "submitted"
    return "bypassed"
