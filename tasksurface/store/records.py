"""Plain frozen values that leave the store; no ORM row ever does."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..domain.ids import CallId, InboxItemId, MessageId, SessionId, TaskSurfaceId
from ..domain.projection import ActiveSurface, TaskSurfaceProjection


@dataclass(frozen=True)
class SessionInfo:
    id: SessionId
    owner: str
    title: str
    created_at: datetime
    head_seq: int
    paused: bool
    forked_from: SessionId | None
    forked_at_seq: int | None
    projection: TaskSurfaceProjection
    question_call_seq: int | None = None
    """Where the call of the question the agent waits on is logged, if it waits on one."""


@dataclass(frozen=True)
class InboxItem:
    id: InboxItemId
    session_id: SessionId
    position: int
    message_id: MessageId
    placement: str
    source: dict[str, Any]
    content: list[dict[str, Any]]
    request_id: str | None
    surface_id: TaskSurfaceId | None
    created_at: datetime


def projection_of(
    call_id: str | None, surface_id: str | None, result_seq: int | None
) -> TaskSurfaceProjection:
    if call_id is None or surface_id is None or result_seq is None:
        return TaskSurfaceProjection()
    return TaskSurfaceProjection(ActiveSurface(CallId(call_id), TaskSurfaceId(surface_id), result_seq))
