"""What the host tells a team's backend: small, named events derived from the session log.

Each event type is a stable string (`session.created`, `surface.submitted`, …) with a
documented `data` shape. They are decided here, from the logged event alone, so the same
log always reports the same things; the store writes them in the transaction of that event.
Later kinds join by adding a case.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .events import SessionEvent, content_text, read_correlation
from .question import OpenQuestion, answer_of

SESSION_CREATED = "session.created"
"""A session was started: `{sessionId, user, title}`."""
SURFACE_SUBMITTED = "surface.submitted"
"""A panel's answer became an ordinary message of the session:
`{sessionId, user, surfaceId, callId, submissionId, messageId, values, action, text}`."""
SURFACE_DISMISSED = "surface.dismissed"
"""A panel was closed without an answer: `{sessionId, user, surfaceId, callId, dismissalId}`."""
QUESTION_ANSWERED = "question.answered"
"""The agent's question got its answer: `{sessionId, user, callId, question, answer}`."""
EVENT_TYPES = (SESSION_CREATED, SURFACE_SUBMITTED, SURFACE_DISMISSED, QUESTION_ANSWERED)
EMBED_PREFIX, HEADER_PREFIX = "embed:", "user:"


@dataclass(frozen=True)
class WebhookEvent:
    type: str
    data: dict[str, Any]


def user_of(owner: str) -> str | None:
    """The team's own id of the user (from its token or its auth proxy); `None` when anonymous."""
    for prefix in (EMBED_PREFIX, HEADER_PREFIX):
        if owner.startswith(prefix):
            return owner.removeprefix(prefix)
    return None


def session_created(session_id: str, owner: str, title: str) -> WebhookEvent:
    return WebhookEvent(SESSION_CREATED, {"sessionId": session_id, "user": user_of(owner), "title": title})


def reported(
    session_id: str, owner: str, event: SessionEvent, question: OpenQuestion | None
) -> WebhookEvent | None:
    """The event a logged event reports, if any; `question` is the one open before it."""
    base: dict[str, Any] = {"sessionId": session_id, "user": user_of(owner)}
    payload = event.payload
    if event.kind == "user/message":
        answer = read_correlation(payload.get("source"))
        if answer is None:
            return None
        return WebhookEvent(
            SURFACE_SUBMITTED,
            base
            | {
                "surfaceId": answer.surface_id,
                "callId": answer.call_id,
                "submissionId": answer.submission_id,
                "messageId": payload.get("messageId"),
                "values": dict(answer.values),
                "action": answer.action,
                "text": content_text(payload.get("content")),
            },
        )
    if event.kind == "task-surface/dismissed":
        return WebhookEvent(
            SURFACE_DISMISSED,
            base
            | {
                "surfaceId": payload.get("surfaceId"),
                "callId": payload.get("callId"),
                "dismissalId": payload.get("dismissalId"),
            },
        )
    answer_text = answer_of(event)
    if answer_text is not None:
        asked = question.question if question and question.call_id == payload.get("callId") else None
        return WebhookEvent(
            QUESTION_ANSWERED,
            base | {"callId": payload.get("callId"), "question": asked, "answer": answer_text},
        )
    return None
