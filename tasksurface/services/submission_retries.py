"""A submission id used again: a retry gets the first answer, other content is a conflict.

A page that lost its answer sends the same submission again with the same id, so the id's first
use decides: while its inbox row is queued, the row; once admitted, the logged `user/message`.
The retry counts as the same only if it names the same surface, values and action and its text,
drawn again from the panel the log holds, is the text first sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy.orm as so

from ..domain import strict_json
from ..domain.events import SessionEvent, content_text, read_correlation
from ..domain.ids import MessageId, SessionId, TaskSurfaceId
from ..domain.limits import Limits
from ..domain.presentation import SurfacePresentation
from ..domain.refusals import Problem, SubmissionCode, SubmissionRefused
from ..domain.results import SubmitAccepted, SubmitRejected, SubmitResult
from ..domain.submission import prepare_submission
from ..store import answers, log

FirstUse = tuple[MessageId, dict[str, Any], str]
"""(messageId, source, text) of the id's first use."""

_REWOUND: FirstUse = (MessageId(""), {}, "")
"""An earlier use that no longer counts; it has no correlation, so it reads as a conflict."""


def first_use(db: so.Session, session_id: SessionId, found: answers.Answers) -> FirstUse | None:
    """The first use of this id: its row if it is still queued, else the logged event that used
    it, if any."""
    if found.queued is not None:
        item = found.queued
        return item.message_id, item.source, content_text(item.content)
    if found.logged_seq is None:
        return None
    event = log.event_at(db, session_id, found.logged_seq)
    if event is not None and not log.is_visible(db, session_id, event.seq):
        return _REWOUND  # an id used in history a rewind took away cannot be used again
    if event is not None and event.kind == "user/message":
        payload = event.payload
        return MessageId(payload["messageId"]), payload["source"], content_text(payload.get("content"))
    return None


def answer_again(
    db: so.Session,
    session_id: SessionId,
    earlier: FirstUse,
    *,
    surface_id: TaskSurfaceId,
    values: object,
    note: object,
    action: object,
    presentation_of: Callable[[SessionEvent], SurfacePresentation | None],
    limits: Limits,
) -> SubmitResult:
    """The first answer for a retry of this surface, values, note and action, else the conflict."""
    message_id, source, text = earlier
    correlation = read_correlation(source)
    conflict = SubmitRejected(
        "invalid-submission",
        (Problem(SubmissionCode.ID_CONFLICT, "this submissionId was already used for other values"),),
    )
    if correlation is None or correlation.surface_id != surface_id:
        return conflict
    if strict_json.dumps_compact(values) != strict_json.dumps_compact(dict(correlation.values)):
        return conflict
    if action != correlation.action:
        return conflict
    result_event = log.tool_result_for_call(db, session_id, correlation.call_id)
    shown = presentation_of(result_event) if result_event else None
    if shown is None:
        return conflict
    try:
        _, _, retried_text = prepare_submission(shown.model, values, note, limits, action)
    except SubmissionRefused:
        return conflict
    return SubmitAccepted(message_id) if retried_text == text else conflict
