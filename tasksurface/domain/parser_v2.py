"""The rules of version 2 a schema cannot say: bounds that fit, patterns RE2 accepts, initial
values inside their constraints, conditions on earlier fields only, and the actions' ids."""

from __future__ import annotations

from typing import Any

from . import constraints, patterns
from .checks import check_count, check_detail, check_short, check_unique, refuse
from .hunks import review_hunks
from .limits import Limits
from .model_v2 import (
    AnyFieldV2,
    ChoiceFieldV2,
    ComparisonField,
    DateField,
    MultiChoiceFieldV2,
    NumberField,
    ReviewField,
    SubmitChoices,
    TaskSurfaceModelV2,
    TextFieldV2,
    ToggleFieldV2,
    VisibleWhen,
)
from .refusals import Problem, SurfaceCode


def check_v2(model: TaskSurfaceModelV2, limits: Limits) -> None:
    from .parser_workspaces import check_workspaces

    _check_buttons(model, limits)
    check_workspaces(model, limits)
    for i, field in enumerate(model.fields):
        where = f"model.fields.{i}"
        check_detail(limits, field.help, f"{where}.help")
        _check_kind(field, limits, where)
        if field.visibleWhen is not None:
            _check_condition(model, i, field.visibleWhen, limits, f"{where}.visibleWhen")


def _check_buttons(model: TaskSurfaceModelV2, limits: Limits) -> None:
    ids: list[tuple[str, str]] = []
    if isinstance(model.submit, SubmitChoices):
        choices = model.submit.actions
        if not choices:
            raise refuse(SurfaceCode.EMPTY, "submit needs a label or at least one action", "model.submit")
        check_count("actions", len(choices), limits.actions, "model.submit.actions")
        for k, choice in enumerate(choices):
            check_short(limits, choice.label, f"model.submit.actions.{k}.label")
            ids.append((choice.id, f"model.submit.actions.{k}.id"))
    check_count("actions", len(model.actions), limits.actions, "model.actions")
    for k, action in enumerate(model.actions):
        check_short(limits, action.label, f"model.actions.{k}.label")
        ids.append((action.id, f"model.actions.{k}.id"))
    check_unique(ids)  # one namespace, so a message can never leave doubt about which button


def _initial(problem: Problem | None, where: str) -> None:
    if problem is not None:
        raise refuse(SurfaceCode.INVALID_INITIAL, f"initial value: {problem.message}", f"{where}.initial")


def _check_kind(field: AnyFieldV2, limits: Limits, where: str) -> None:
    match field:
        case TextFieldV2():
            check_short(limits, field.placeholder, f"{where}.placeholder")
            if (
                field.minLength is not None
                and field.maxLength is not None
                and field.minLength > field.maxLength
            ):
                raise refuse(SurfaceCode.INVALID_BOUNDS, "minLength is above maxLength", where)
            if field.pattern is not None:
                if len(field.pattern) > limits.pattern_chars:
                    raise refuse(
                        SurfaceCode.LIMIT,
                        f"the pattern is {len(field.pattern)} characters; the limit pattern_chars is "
                        f"{limits.pattern_chars}",
                        f"{where}.pattern",
                    )
                try:
                    patterns.check(field.pattern)
                except patterns.InvalidPattern as exc:
                    raise refuse(
                        SurfaceCode.INVALID_PATTERN, f"not an RE2 pattern: {exc}", f"{where}.pattern"
                    ) from None
            _initial(constraints.text_problem(field, field.initial or ""), where)
        case NumberField():
            check_short(limits, field.unit, f"{where}.unit")
            _check_number_bounds(field, where)
            if field.initial is not None:
                _initial(constraints.number_problem(field, field.initial), where)
        case DateField():
            for key in ("minimum", "maximum", "initial"):
                value = getattr(field, key)
                if value is not None and not constraints.is_iso_date(value):
                    raise refuse(
                        SurfaceCode.INVALID_DATE,
                        f"{key} {value!r} is not a date as YYYY-MM-DD",
                        f"{where}.{key}",
                    )
            if field.minimum is not None and field.maximum is not None and field.minimum > field.maximum:
                raise refuse(SurfaceCode.INVALID_BOUNDS, "minimum is after maximum", where)
            if field.initial is not None:
                _initial(constraints.date_problem(field, field.initial), where)
        case MultiChoiceFieldV2():
            low, high = field.minItems, field.maxItems
            if (low is not None and high is not None and low > high) or (
                low is not None and low > len(field.options)
            ):
                raise refuse(SurfaceCode.INVALID_BOUNDS, "minItems cannot be met", where)
            if field.initial:
                _initial(constraints.count_problem(field, len(field.initial)), where)
        case ReviewField():
            check_short(limits, field.path, f"{where}.path")
            check_short(limits, field.language, f"{where}.language")
            hunks = review_hunks(field)
            if not hunks:
                raise refuse(
                    SurfaceCode.EMPTY, "a review needs a change: before and after are the same", where
                )
            check_count("review_hunks", len(hunks), limits.review_hunks, where)
    # A choice, toggle or order has no rule a schema cannot say; a comparison or an itinerary is
    # checked with the workspaces.


def _check_number_bounds(field: NumberField, where: str) -> None:
    low, high = field.minimum, field.maximum
    if low is not None and high is not None and low > high:
        raise refuse(SurfaceCode.INVALID_BOUNDS, "minimum is above maximum", where)
    if field.integer:
        for key in ("minimum", "maximum", "step"):
            if isinstance(getattr(field, key), float):
                raise refuse(
                    SurfaceCode.INVALID_BOUNDS, f"{key} of a whole-number field must be whole", where
                )


def _check_condition(
    model: TaskSurfaceModelV2, index: int, condition: VisibleWhen, limits: Limits, where: str
) -> None:
    position = next((k for k, f in enumerate(model.fields) if f.id == condition.field), None)
    if position is None:
        raise refuse(
            SurfaceCode.CONDITION_UNKNOWN_FIELD,
            f"no field {condition.field!r} to depend on",
            f"{where}.field",
        )
    if position >= index:
        raise refuse(
            SurfaceCode.CONDITION_NOT_EARLIER,
            "a condition can only depend on an earlier field (so no cycle can form)",
            f"{where}.field",
        )
    if (condition.equals is None) == (condition.in_ is None):
        raise refuse(SurfaceCode.INVALID_CONDITION, "give exactly one of equals or in", where)
    wanted = [condition.equals] if condition.in_ is None else condition.in_
    if not wanted:
        raise refuse(SurfaceCode.INVALID_CONDITION, "in needs at least one value", f"{where}.in")
    check_count("options", len(wanted), limits.options, f"{where}.in")
    controller = model.fields[position]
    for value in wanted:
        if not _fits(controller, value):
            raise refuse(
                SurfaceCode.INVALID_CONDITION,
                f"{value!r} is not a value field {condition.field!r} can have",
                where,
            )


def _fits(controller: AnyFieldV2, value: Any) -> bool:
    """Whether the controlling field can ever have this value, so the condition can hold."""
    match controller:
        case ChoiceFieldV2() | MultiChoiceFieldV2():
            return isinstance(value, str) and value in {o.id for o in controller.options}
        case ToggleFieldV2():
            return isinstance(value, bool)
        case TextFieldV2():
            return isinstance(value, str)
        case NumberField():
            return isinstance(value, int | float) and not isinstance(value, bool)
        case DateField():
            return constraints.is_iso_date(value)
        case ComparisonField():
            return isinstance(value, str) and value in {c.id for c in controller.candidates}
    return False  # an order, a review or an itinerary has no single value a condition could name
