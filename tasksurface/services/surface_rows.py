"""The lifecycle state of a panel's transcript row, read from the log after it opened."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import sqlalchemy.orm as so

from ..domain.events import SessionEvent, content_text, read_correlation
from ..domain.ids import SessionId, TaskSurfaceId
from ..domain.projection import closes
from ..store import log

if TYPE_CHECKING:
    from .task_surface import TaskSurfaceService

RowState = Literal["open", "submitted", "dismissed", "bypassed", "unavailable"]


@dataclass(frozen=True)
class RowView:
    """A transcript row's state, and the submitted answer once there is one."""

    state: RowState
    answer: str | None = None
    values: Mapping[str, Any] | None = None
    """The submitted values, so a settled workspace shows the recorded answer read-only."""


def row_states(
    service: TaskSurfaceService, session_id: SessionId, events: Sequence[SessionEvent]
) -> dict[int, RowView]:
    states: dict[int, RowView] = {}
    shown = [(event, p) for event in events if (p := service.presentation_of(event)) is not None]
    if not shown:  # most pushes carry messages only: nothing to read
        return states
    with service.database.read() as db:
        active = log.get_session(db, session_id).projection.active
        for event, presentation in shown:
            if active and active.result_seq == event.seq:
                states[event.seq] = RowView("open")
                continue
            closing = _closing_event(db, session_id, event.seq, presentation.surface_id)
            state = _closed_state(closing, presentation.surface_id)
            if closing is None or state != "submitted":
                states[event.seq] = RowView(state)
                continue
            correlation = read_correlation(closing.payload.get("source"))
            values = correlation.values if correlation else None
            states[event.seq] = RowView(state, content_text(closing.payload.get("content")), values)
    return states


def _closing_event(
    db: so.Session, session_id: SessionId, seq: int, surface_id: TaskSurfaceId
) -> SessionEvent | None:
    """The first later event that closed this surface; its own action messages did not."""
    after = seq
    while True:
        found = log.first_visible_after(db, session_id, after, ("user/message", "task-surface/dismissed"))
        if found is None or closes(found, surface_id) or found.kind == "task-surface/dismissed":
            return found
        after = found.seq


def _closed_state(closing: SessionEvent | None, surface_id: TaskSurfaceId) -> RowState:
    if closing is None:
        return "unavailable"
    if closing.kind == "task-surface/dismissed":
        return "dismissed" if closing.payload.get("surfaceId") == surface_id else "unavailable"
    correlation = read_correlation(closing.payload.get("source"))
    return "submitted" if correlation and correlation.surface_id == surface_id else "bypassed"
