"""`ask_user_question`: a short blocking question, answered in the composer area.

The question is the tool call itself; the user's answer is its result. Between the
two the call has no result, which is what makes the question open: the log alone
says whether the agent is waiting for an answer, so a restart, a fork or a rewind
recovers the takeover exactly as it recovers a Task Surface.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, assert_never

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError, field_validator

from . import strict_json
from .events import SessionEvent, tool_result
from .ids import CallId, is_wire_id
from .refusals import Problem, QuestionCode, QuestionRefused

QUESTION_TOOL = "ask_user_question"
MAX_QUESTION_CHARS = 1000
MAX_OPTIONS = 6
MAX_OPTION_CHARS = 200
MAX_ANSWER_CHARS = 4000
MAX_ARGUMENT_BYTES = 16 * 1024

UNANSWERED = "The user did not answer this question; their next message says what they want instead."


class QuestionArguments(BaseModel):
    """What the model sends: one question and, if it helps, a few suggested answers."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    question: StrictStr = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    options: list[StrictStr] = Field(default_factory=list, max_length=MAX_OPTIONS)

    @field_validator("question")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the question is blank")
        return value.strip()

    @field_validator("options")
    @classmethod
    def _short_distinct_options(cls, value: list[str]) -> list[str]:
        cleaned = [option.strip() for option in value]
        if any(not option or len(option) > MAX_OPTION_CHARS for option in cleaned):
            raise ValueError(f"every option is 1 to {MAX_OPTION_CHARS} characters")
        if len(set(cleaned)) != len(cleaned):
            raise ValueError("options must be distinct")
        return cleaned


@dataclass(frozen=True)
class OpenQuestion:
    """The question the agent is waiting on; `call_seq` is where its call is logged."""

    call_id: CallId
    call_seq: int
    question: str
    options: tuple[str, ...]

    def to_wire(self) -> dict[str, Any]:
        return {"callId": self.call_id, "question": self.question, "options": list(self.options)}


def parse_question(raw: object) -> QuestionArguments:
    """Raw arguments (a JSON string as models send them, or an object) → a question, or a refusal."""
    if isinstance(raw, str):
        if len(raw.encode("utf-8", "surrogatepass")) > MAX_ARGUMENT_BYTES:
            raise _refused(QuestionCode.ARGUMENTS, f"arguments are over {MAX_ARGUMENT_BYTES} bytes")
        try:
            raw = strict_json.loads(raw)
        except strict_json.DuplicateKey as exc:
            raise _refused(QuestionCode.DUPLICATE_KEY, str(exc)) from None
        except ValueError as exc:
            raise _refused(QuestionCode.INVALID_JSON, f"arguments are not JSON: {exc}") from None
    if not isinstance(raw, Mapping):
        raise _refused(QuestionCode.ARGUMENTS, "arguments must be an object")
    try:
        return QuestionArguments.model_validate(dict(raw))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise _refused(QuestionCode.ARGUMENTS, first["msg"], where) from None


def check_answer(text: str) -> str:
    """The answer as it is logged: trimmed, not empty, not longer than a short message."""
    answer = text.strip()
    if not answer:
        raise _refused(QuestionCode.EMPTY_ANSWER, "write an answer or pick one of the suggestions")
    if len(answer) > MAX_ANSWER_CHARS:
        raise _refused(
            QuestionCode.ANSWER_TOO_LONG,
            f"the answer is {len(answer)} characters; at most {MAX_ANSWER_CHARS} fit",
        )
    return answer


def answered(call_id: CallId, answer: str) -> dict[str, Any]:
    """The result that carries the user's answer; the model reads the answer itself."""
    return tool_result(call_id, QUESTION_TOOL, True, answer, {"answer": answer})


def unanswered(call_id: CallId) -> dict[str, Any]:
    """The result of a question the user went past with another message."""
    return tool_result(call_id, QUESTION_TOOL, False, UNANSWERED, {"answer": None})


def answer_of(event: SessionEvent) -> str | None:
    """The answer a question's result carries; `None` for any other event."""
    answer = _answer_meta(event).get("answer")
    return answer if isinstance(answer, str) else None


def is_unanswered(event: SessionEvent) -> bool:
    meta = _answer_meta(event)
    return "answer" in meta and meta["answer"] is None


def _answer_meta(event: SessionEvent) -> Mapping[str, Any]:
    meta = event.payload.get("meta")
    if (
        event.kind != "tool/result"
        or event.payload.get("name") != QUESTION_TOOL
        or not isinstance(meta, Mapping)
    ):
        return {}
    return meta


def fold(state: OpenQuestion | None, event: SessionEvent) -> OpenQuestion | None:
    """Open on a well-formed question call; close on its result or on any user message."""
    payload = event.payload
    match event.kind:
        case "tool/call":
            # One question at a time: a second one in the same response is never run.
            return state if state is not None else _asked(event)
        case "tool/result":
            return None if state is not None and payload.get("callId") == state.call_id else state
        case "user/message":
            return None
        case (
            "assistant/message" | "task-surface/dismissed" | "agent/error" | "session/rewound" | "task/notice"
        ):
            return state
        case _:
            assert_never(event.kind)


def fold_all(events: list[SessionEvent], state: OpenQuestion | None = None) -> OpenQuestion | None:
    for event in events:
        state = fold(state, event)
    return state


def _asked(event: SessionEvent) -> OpenQuestion | None:
    """The same parser the tool runs decides, so the fold and the tool never disagree."""
    payload = event.payload
    if payload.get("name") != QUESTION_TOOL or not is_wire_id(payload.get("callId")):
        return None
    try:
        arguments = parse_question(payload.get("args"))
    except QuestionRefused:
        return None
    return OpenQuestion(CallId(payload["callId"]), event.seq, arguments.question, tuple(arguments.options))


def _refused(code: QuestionCode, message: str, where: str = "") -> QuestionRefused:
    return QuestionRefused(Problem(code, message, where))
