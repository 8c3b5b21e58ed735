"""Submitted values checked against the persisted model: the host trusts no client."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import strict_json
from .limits import DEFAULT_LIMITS, Limits
from .model import (
    ChoiceField,
    MultiChoiceField,
    OrderField,
    TaskSurfaceModelV1,
    TextField,
    ToggleField,
)
from .refusals import Problem, SubmissionCode, SubmissionRefused

Values = dict[str, Any]


def validate_submission(
    model: TaskSurfaceModelV1,
    values: object,
    note: object = None,
    limits: Limits = DEFAULT_LIMITS,
) -> tuple[Values, str | None]:
    """Return the values (in model field order) and the note, or refuse with every problem."""
    if not isinstance(values, Mapping):
        raise SubmissionRefused([Problem(SubmissionCode.NOT_AN_OBJECT, "values must be an object")])
    problems: list[Problem] = []
    if note is not None and (
        not isinstance(note, str) or len(note) > limits.note_chars or not _is_unicode(note)
    ):
        problems.append(
            Problem(
                SubmissionCode.NOTE, f"note must be text of at most {limits.note_chars} characters", "note"
            )
        )
    # Lone surrogates are counted here, not crashed on; the checks below refuse them.
    size = len(
        strict_json.dumps_compact({"values": dict(values), "note": note}).encode("utf-8", "surrogatepass")
    )
    if size > limits.submission_bytes:
        raise SubmissionRefused(
            [
                Problem(
                    SubmissionCode.TOO_LARGE,
                    f"the submission is {size} bytes; the limit submission_bytes is "
                    f"{limits.submission_bytes}",
                )
            ]
        )
    declared = {f.id for f in model.fields}
    for key in values:
        if key not in declared:
            problems.append(Problem(SubmissionCode.UNKNOWN_FIELD, f"no field {key!r}", str(key)))
    checked: Values = {}
    for field in model.fields:
        if field.id not in values:
            problems.append(Problem(SubmissionCode.MISSING_VALUE, "a value is missing", field.id))
            continue
        problem = _check_value(field, values[field.id])
        if problem:
            problems.append(problem)
        else:
            checked[field.id] = values[field.id]
    if problems:
        raise SubmissionRefused(problems)
    clean_note = note if isinstance(note, str) and note.strip() else None
    return checked, clean_note


def _check_value(
    field: TextField | ChoiceField | MultiChoiceField | ToggleField | OrderField, value: Any
) -> Problem | None:
    where = field.id

    def wrong(expected: str) -> Problem:
        return Problem(SubmissionCode.WRONG_TYPE, f"expected {expected}", where)

    match field:
        case TextField(required=required):
            if not isinstance(value, str) or not _is_unicode(value):
                return wrong("text")
            if required and not value.strip():
                return Problem(SubmissionCode.REQUIRED, "this field is required", where)
        case ToggleField():
            if not isinstance(value, bool):
                return wrong("true or false")
        case ChoiceField(options=options):
            if value is None:
                return Problem(SubmissionCode.REQUIRED, "choose one option", where)
            if not isinstance(value, str):
                return wrong("one option id")
            if value not in {o.id for o in options}:
                return Problem(SubmissionCode.UNKNOWN_OPTION, f"{value!r} is not an option", where)
        case MultiChoiceField(options=options):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                return wrong("a list of option ids")
            if len(set(value)) != len(value):
                return Problem(SubmissionCode.DUPLICATE_OPTION, "an option is listed twice", where)
            unknown = [v for v in value if v not in {o.id for o in options}]
            if unknown:
                return Problem(SubmissionCode.UNKNOWN_OPTION, f"{unknown[0]!r} is not an option", where)
        case OrderField(options=options):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                return wrong("a list of option ids")
            if len(value) != len(options) or set(value) != {o.id for o in options}:
                return Problem(
                    SubmissionCode.NOT_A_PERMUTATION, "the order must list every option exactly once", where
                )
    return None


def _is_unicode(text: str) -> bool:
    """False for text with lone surrogates, which no UTF-8 log or message can hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def initial_values(model: TaskSurfaceModelV1) -> Values:
    """The values a fresh dock starts from; a choice without `initial` starts unanswered."""
    values: Values = {}
    for field in model.fields:
        match field:
            case TextField(initial=initial):
                values[field.id] = initial or ""
            case ToggleField(initial=initial):
                values[field.id] = bool(initial)
            case ChoiceField(initial=initial):
                values[field.id] = initial
            case MultiChoiceField(initial=initial):
                values[field.id] = list(initial or [])
            case OrderField(initial=initial, options=options):
                values[field.id] = list(initial or [o.id for o in options])
    return values


def prepare_submission(
    model: TaskSurfaceModelV1, values: object, note: object = None, limits: Limits = DEFAULT_LIMITS
) -> tuple[Values, str | None, str]:
    """Validate, then format; refuse when even the readable text would pass the limit."""
    from .formatter import format_submission

    checked, clean_note = validate_submission(model, values, note, limits)
    text = format_submission(model, checked, clean_note)
    if len(text.encode("utf-8")) > limits.submission_bytes:
        raise SubmissionRefused(
            [Problem(SubmissionCode.TOO_LARGE, "the formatted submission passes submission_bytes")]
        )
    return checked, clean_note, text
