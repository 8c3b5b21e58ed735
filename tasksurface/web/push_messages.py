"""What a push says, read once and drawn once per language of the pages it goes to.

A change is read under the session's lock in one snapshot (`News`); each page language then
draws it in a request context of its own, so a page gets its rows, its queue and its question in
the language it was drawn in, as a reload would draw them.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..domain.events import SessionEvent
from ..domain.ids import SessionId
from ..services.sessions import QueuedMessage
from . import views

if TYPE_CHECKING:
    from ..services.container import Services


def fresh_id() -> str:
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class QueueNews:
    items: Sequence[QueuedMessage]
    paused: bool

    def drawn(self, session_id: SessionId) -> dict[str, Any]:
        return {
            "items": [i.to_wire() for i in self.items],
            "paused": self.paused,
            "html": str(views.render_queue(self.items, session_id, self.paused)),
        }


def read_queue(services: Services, session_id: SessionId) -> QueueNews:
    items = services.sessions.queue(session_id)
    return QueueNews(items, services.sessions.get(session_id).paused)


def queue_message(services: Services, session_id: SessionId) -> dict[str, Any]:
    """The queue part of a hello or a push, drawn in the current request's language."""
    return read_queue(services, session_id).drawn(session_id)


@dataclass(frozen=True)
class News:
    """What every subscriber of a session gets alike, before it is drawn."""

    surface: dict[str, Any]
    answer_id: str
    """One id for the open question's answer, whichever language shows it."""
    closed: SessionEvent | None
    """The row of the surface that just closed, which shows its new state."""
    queue: QueueNews | None

    def drawn(self, services: Services, session_id: SessionId) -> dict[str, Any]:
        """The message without its events, in the language of the current request."""
        message: dict[str, Any] = {
            "type": "change",
            "taskSurface": self.surface,
            **views.question_message(services, session_id, self.answer_id),
        }
        if self.closed is not None:
            row = views.render_events(services, session_id, [self.closed])[0]
            message["rows"] = {str(self.closed.seq): str(row)}
        if self.queue is not None:
            message["queue"] = self.queue.drawn(session_id)
        return message


def with_events(
    services: Services,
    session_id: SessionId,
    shared: dict[str, Any],
    events: Sequence[SessionEvent],
    most: int,
) -> dict[str, Any]:
    """`shared` with the events after one cursor; a page further behind than `most` reloads."""
    if len(events) > most:
        return {"type": "reset"}
    return {**shared, "events": views.wire_events(services, session_id, events)}
