"""Answers to `ask_user_question`: the answer is logged as the call's result and the turn goes on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..agent.ports import Notifier
from ..domain.events import NewEvent, content_text
from ..domain.ids import AnswerId, CallId, SessionId
from ..domain.question import QUESTION_TOOL, OpenQuestion, answered, check_answer
from ..domain.redaction import redact_question
from ..domain.refusals import Problem, QuestionCode, QuestionRefused
from ..store import log
from ..store.db import Database
from .errors import Conflict, RequestRefused, check_text


@dataclass(frozen=True)
class AnswerAccepted:
    event_seq: int
    answer: str

    def to_wire(self) -> dict[str, Any]:
        return {"eventSeq": self.event_seq, "answer": self.answer}


class QuestionRefusal(RequestRefused):
    """`invalid-answer`, with the detail code (`answer.empty`, `answer.id-conflict`, …)."""

    def __init__(self, refusal: QuestionRefused) -> None:
        super().__init__("invalid-answer", refusal.problem.message, refusal.code)


class QuestionService:
    def __init__(
        self,
        database: Database,
        notifier: Notifier,
        wake: Callable[[SessionId], None],
        clock: Callable[[], datetime],
    ) -> None:
        self.database = database
        self.notifier = notifier
        self.wake = wake
        self.clock = clock

    def open_question(self, session_id: SessionId) -> OpenQuestion | None:
        """The question the agent waits on, with credentials masked for the person who reads it."""
        with self.database.read() as db:
            question = log.open_question(db, session_id)
        return redact_question(question) if question else None

    def answer(
        self, session_id: SessionId, call_id: CallId, answer_id: AnswerId, text: str
    ) -> AnswerAccepted:
        """Log the answer once per `answer_id`; a retry gets the first result."""
        check_text(text, "the answer")
        with self.database.write() as db:
            log.get_session(db, session_id, lock=True)
            earlier = log.event_by_request(db, session_id, answer_id)
            if earlier is not None:
                return _replay(earlier.seq, earlier.payload, call_id, text)
            question = log.open_question(db, session_id)
            if question is None or question.call_id != call_id:
                raise Conflict("question-not-open", "the agent is not waiting for an answer to this question")
            try:
                answer = check_answer(text)
            except QuestionRefused as refusal:
                raise QuestionRefusal(refusal) from None
            result = NewEvent("tool/result", answered(call_id, answer), answer_id)
            event = log.append(db, session_id, result, self.clock())
        self.notifier.changed(session_id, events=[event])
        self.wake(session_id)  # the turn that asked goes on with the answer
        return AnswerAccepted(event.seq, answer)


def _replay(seq: int, payload: Any, call_id: CallId, text: str) -> AnswerAccepted:
    answer = content_text(payload.get("content"))
    if payload.get("name") != QUESTION_TOOL or payload.get("callId") != call_id or answer != text.strip():
        conflict = Problem(QuestionCode.ID_CONFLICT, "this answerId was already used for another answer")
        raise QuestionRefusal(QuestionRefused(conflict))
    return AnswerAccepted(seq, answer)
