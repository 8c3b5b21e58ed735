"""Every typed refusal code, so callers and tests name a reason instead of matching prose."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum


class SurfaceCode(StrEnum):
    """Why a `show_task_surface` model was refused."""

    INVALID_JSON = "surface.invalid-json"
    DUPLICATE_KEY = "surface.duplicate-key"
    ARGUMENTS = "surface.invalid-arguments"
    UNSUPPORTED_VERSION = "surface.unsupported-version"
    UNKNOWN_KIND = "surface.unknown-kind"
    UNKNOWN_PROPERTY = "surface.unknown-property"
    SCHEMA = "surface.schema"
    DUPLICATE_ID = "surface.duplicate-id"
    UNKNOWN_COLUMN = "surface.unknown-column"
    INVALID_INITIAL = "surface.invalid-initial"
    EMPTY = "surface.empty"
    LIMIT = "surface.limit"
    ALREADY_OPEN = "surface.already-open"
    NESTED_CALL = "surface.nested-call"


class SubmissionCode(StrEnum):
    """Why submitted values were refused (the detail behind `invalid-submission`)."""

    NOT_AN_OBJECT = "submission.not-an-object"
    UNKNOWN_FIELD = "submission.unknown-field"
    MISSING_VALUE = "submission.missing-value"
    REQUIRED = "submission.required"
    WRONG_TYPE = "submission.wrong-type"
    UNKNOWN_OPTION = "submission.unknown-option"
    DUPLICATE_OPTION = "submission.duplicate-option"
    NOT_A_PERMUTATION = "submission.not-a-permutation"
    TOO_LARGE = "submission.too-large"
    NOTE = "submission.invalid-note"
    ID_CONFLICT = "submission.id-conflict"


class QuestionCode(StrEnum):
    """Why an `ask_user_question` call or an answer to it was refused."""

    INVALID_JSON = "question.invalid-json"
    DUPLICATE_KEY = "question.duplicate-key"
    ARGUMENTS = "question.invalid-arguments"
    NESTED_CALL = "question.nested-call"
    EMPTY_ANSWER = "answer.empty"
    ANSWER_TOO_LONG = "answer.too-long"
    ID_CONFLICT = "answer.id-conflict"


class TaskCode(StrEnum):
    """Why a background task tool call, or a request about a task, was refused."""

    INVALID_JSON = "task.invalid-json"
    DUPLICATE_KEY = "task.duplicate-key"
    ARGUMENTS = "task.invalid-arguments"
    NOT_FOUND = "task.not-found"
    TOO_MANY = "task.too-many"
    UNKNOWN_COMMAND = "command.unknown"
    UNKNOWN_ARGUMENT = "command.unknown-argument"
    MISSING_ARGUMENT = "command.missing-argument"
    INVALID_ARGUMENT = "command.invalid-argument"


@dataclass(frozen=True)
class Problem:
    """One reason, with the place it applies to (`fields.2.options`, a field id, …)."""

    code: str
    message: str
    where: str = ""

    def to_wire(self) -> dict[str, str]:
        wire = {"code": self.code, "message": self.message}
        if self.where:
            wire["where"] = self.where
        return wire


class Refused(Exception):
    """One problem that stops a call; its code is the problem's."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(f"{problem.code}: {problem.message}")
        self.problem = problem

    @property
    def code(self) -> str:
        return self.problem.code

    def tool_text(self) -> str:
        """What the model reads back: the typed problem, so it can fix its arguments."""
        return "error: " + json.dumps(self.problem.to_wire(), ensure_ascii=False)


class SurfaceRefused(Refused):
    """A model that must not open a surface; carries its first problem."""


class SubmissionRefused(Exception):
    """Values that do not fit the persisted model; carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(f"{p.code} at {p.where}" for p in problems))
        self.problems = problems


class QuestionRefused(Refused):
    """A question that must not be asked, or an answer that must not be logged."""


class TaskRefused(Refused):
    """A task tool call or task request that does nothing; the model or client reads the code."""
