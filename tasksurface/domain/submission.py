"""Submitted values checked against the persisted model: the host trusts no client.

Version 1's rules hold for both versions; version 2 adds typed bounds, conditions (a field
that does not apply is neither required nor submitted), review decisions and the chosen
submit action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import constraints, strict_json
from .hunks import DECISIONS, review_hunks
from .limits import DEFAULT_LIMITS, Limits
from .model import ChoiceField, MultiChoiceField, OrderField, TextField, ToggleField
from .model_v2 import (
    ChoiceFieldV2,
    ComparisonField,
    DateField,
    ItineraryField,
    MultiChoiceFieldV2,
    NumberField,
    ReviewField,
    SubmitChoices,
    TaskSurfaceModel,
    TextFieldV2,
    ToggleFieldV2,
)
from .refusals import Problem, SubmissionCode, SubmissionRefused
from .visibility import applying

Values = dict[str, Any]
AnyField = Any
"""A field of either version (every V2 field class extends or joins the V1 ones)."""

DRAFT_EXEMPT = frozenset({SubmissionCode.REQUIRED, SubmissionCode.TOO_FEW, SubmissionCode.UNDECIDED_HUNK})
"""What a non-blocking action may leave unfinished: it sends the values as they stand."""


def validate_submission(
    model: TaskSurfaceModel,
    values: object,
    note: object = None,
    limits: Limits = DEFAULT_LIMITS,
    action: object = None,
    *,
    draft: bool = False,
) -> tuple[Values, str | None]:
    """Return the values of the fields that apply (in model order) and the note, or refuse
    with every problem; `draft` checks the values of a non-blocking action (nothing required)."""
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
    sized: dict[str, Any] = {"values": dict(values), "note": note}
    if action is not None:
        sized["action"] = action
    size = len(strict_json.dumps_compact(sized).encode("utf-8", "surrogatepass"))
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
    if not draft:
        problems.extend(_action_problems(model, action))
    declared = {f.id for f in model.fields}
    shown = applying(model.fields, values)
    for key in values:
        if key not in declared:
            problems.append(Problem(SubmissionCode.UNKNOWN_FIELD, f"no field {key!r}", str(key)))
        elif key not in shown:
            problems.append(
                Problem(SubmissionCode.HIDDEN_FIELD, "this field does not apply, so it is not sent", str(key))
            )
    checked: Values = {}
    for field in model.fields:
        if field.id not in shown:
            continue
        if field.id not in values:
            problems.append(Problem(SubmissionCode.MISSING_VALUE, "a value is missing", field.id))
            continue
        problem = _check_value(field, values[field.id])
        if problem and not (draft and problem.code in DRAFT_EXEMPT):
            problems.append(problem)
        elif problem is None or draft:
            checked[field.id] = values[field.id]
    if problems:
        raise SubmissionRefused(problems)
    clean_note = note if isinstance(note, str) and note.strip() else None
    return checked, clean_note


def _action_problems(model: TaskSurfaceModel, action: object) -> list[Problem]:
    choices = model.submit.actions if isinstance(model.submit, SubmitChoices) else None
    if choices is None:
        if action is None:
            return []
        return [Problem(SubmissionCode.UNKNOWN_ACTION, "this panel has a single submit button", "action")]
    if action is None:
        return [Problem(SubmissionCode.ACTION_REQUIRED, "choose how to submit", "action")]
    if not isinstance(action, str) or action not in {c.id for c in choices}:
        return [Problem(SubmissionCode.UNKNOWN_ACTION, f"{action!r} is not a submit action", "action")]
    return []


def _check_value(field: AnyField, value: Any) -> Problem | None:
    match field:
        case NumberField():
            return constraints.number_problem(field, value)
        case DateField():
            return constraints.date_problem(field, value)
        case ReviewField():
            return _review_problem(field, value)
        case ComparisonField():
            return _comparison_problem(field, value)
        case ItineraryField():
            return _itinerary_problem(field, value)
        case ChoiceFieldV2(required=False) if value is None:
            return None
    problem = _check_v1(field, value)
    if problem is not None:
        return problem
    match field:
        case TextFieldV2():
            return constraints.text_problem(field, value)
        case MultiChoiceFieldV2():
            return constraints.count_problem(field, len(value))
        case ToggleFieldV2(required=True) if value is not True:
            return Problem(SubmissionCode.REQUIRED, "this must be switched on", field.id)
    return None


def _check_v1(
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


def _review_problem(field: ReviewField, value: Any) -> Problem | None:
    """`{hunkId: "accept" | "reject"}`; an undecided hunk is absent (or `null`)."""
    where = field.id
    if not isinstance(value, Mapping):
        return Problem(SubmissionCode.WRONG_TYPE, "expected a decision for each hunk", where)
    ids = [h.id for h in review_hunks(field)]
    for hunk_id, decision in value.items():
        if hunk_id not in ids:
            return Problem(SubmissionCode.UNKNOWN_HUNK, f"no hunk {hunk_id!r}", where)
        if decision is not None and decision not in DECISIONS:
            return Problem(SubmissionCode.WRONG_TYPE, "a decision is accept or reject", where)
    undecided = [i for i in ids if value.get(i) is None]
    if field.required and undecided:
        return Problem(
            SubmissionCode.UNDECIDED_HUNK,
            f"{len(undecided)} of {len(ids)} changes still need a decision",
            where,
            {"undecided": len(undecided), "total": len(ids)},
        )
    return None


def _comparison_problem(field: ComparisonField, value: Any) -> Problem | None:
    """The choice contract (`select: one`) or the multi-choice contract (`many`), by candidate id."""
    where = field.id
    ids = {c.id for c in field.candidates}
    if field.select == "one":
        if value is None:
            return Problem(SubmissionCode.REQUIRED, "choose one candidate", where) if field.required else None
        if not isinstance(value, str):
            return Problem(SubmissionCode.WRONG_TYPE, "expected one candidate id", where)
        if value not in ids:
            return Problem(SubmissionCode.UNKNOWN_OPTION, f"{value!r} is not a candidate", where)
        return None
    return _id_list_problem(value, ids, where, field.required, "candidate")


def _itinerary_problem(field: ItineraryField, value: Any) -> Problem | None:
    """Place ids in visit order: each place at most once, within minItems and maxItems."""
    problem = _id_list_problem(value, {p.id for p in field.places}, field.id, field.required, "place")
    if problem is not None or not value:
        return problem
    if field.minItems is not None and len(value) < field.minItems:
        return Problem(
            SubmissionCode.TOO_FEW, f"choose at least {field.minItems}", field.id, {"minimum": field.minItems}
        )
    if field.maxItems is not None and len(value) > field.maxItems:
        return Problem(
            SubmissionCode.TOO_MANY, f"choose at most {field.maxItems}", field.id, {"maximum": field.maxItems}
        )
    return None


def _id_list_problem(value: Any, ids: set[str], where: str, required: bool, what: str) -> Problem | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return Problem(SubmissionCode.WRONG_TYPE, f"expected a list of {what} ids", where)
    if len(set(value)) != len(value):
        return Problem(SubmissionCode.DUPLICATE_OPTION, f"a {what} is listed twice", where)
    unknown = [v for v in value if v not in ids]
    if unknown:
        return Problem(SubmissionCode.UNKNOWN_OPTION, f"{unknown[0]!r} is not a {what}", where)
    if required and not value:
        return Problem(SubmissionCode.REQUIRED, f"choose at least one {what}", where)
    return None


def _is_unicode(text: str) -> bool:
    """False for text with lone surrogates, which no UTF-8 log or message can hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def initial_values(model: TaskSurfaceModel) -> Values:
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
            case NumberField(initial=initial) | DateField(initial=initial):
                values[field.id] = initial
            case ReviewField():
                values[field.id] = {}
            case ComparisonField(initial=initial, select=select):
                values[field.id] = initial if select == "one" else list(initial or [])
            case ItineraryField(initial=initial):
                values[field.id] = list(initial or [])
    return values


def submittable(model: TaskSurfaceModel, values: Mapping[str, Any]) -> Values:
    """Only the values of the fields that apply, as the page sends them."""
    shown = applying(model.fields, values)
    return {k: v for k, v in values.items() if k in shown}


def prepare_submission(
    model: TaskSurfaceModel,
    values: object,
    note: object = None,
    limits: Limits = DEFAULT_LIMITS,
    action: object = None,
) -> tuple[Values, str | None, str]:
    """Validate, then format; refuse when even the readable text would pass the limit."""
    from .formatter import format_submission

    checked, clean_note = validate_submission(model, values, note, limits, action)
    text = format_submission(model, checked, clean_note, action if isinstance(action, str) else None)
    if len(text.encode("utf-8")) > limits.submission_bytes:
        raise SubmissionRefused(
            [Problem(SubmissionCode.TOO_LARGE, "the formatted submission passes submission_bytes")]
        )
    return checked, clean_note, text
