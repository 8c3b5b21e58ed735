"""One value against a V2 field's bounds; RE2 patterns; conditions; review hunks."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tasksurface.domain import constraints, patterns
from tasksurface.domain.hunks import hunks_of
from tasksurface.domain.model_v2 import DateField, MultiChoiceFieldV2, NumberField, TextFieldV2, VisibleWhen
from tasksurface.domain.visibility import applying, holds

from .builders_v2 import date_field, multi2, number_field, parsed_v2, review_field, text2, v2_model


def number(**extra: Any) -> NumberField:
    field = parsed_v2(v2_model(number_field(**extra))).fields[0]
    assert isinstance(field, NumberField)
    return field


def code(problem: Any) -> str | None:
    return None if problem is None else str(problem.code)


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ({}, None, None),
        ({"required": True}, None, "submission.required"),
        ({}, "3", "submission.wrong-type"),
        ({}, True, "submission.wrong-type"),
        ({"integer": True}, 3.0, "submission.not-an-integer"),
        ({"integer": True}, 3, None),
        ({"minimum": 2}, 2, None),
        ({"minimum": 2}, 1.999, "submission.below-minimum"),
        ({"maximum": 2}, 2, None),
        ({"maximum": 2}, 2.001, "submission.above-maximum"),
        ({"step": 0.1}, 0.3, None),  # exact decimals: 0.3 is three steps, whatever binary floats say
        ({"step": 0.1}, 0.35, "submission.off-step"),
        ({"step": 5, "minimum": 2}, 12, None),
        ({"step": 5, "minimum": 2}, 10, "submission.off-step"),
        ({"step": 5}, 10, None),
        ({"step": 5}, -5, None),
        ({"step": 0.5}, 1e300, None),
        ({"step": 3}, 10**40 + 1, "submission.off-step"),
    ],
)
def test_a_number_is_checked_against_its_bounds(
    field: dict[str, Any], value: Any, expected: str | None
) -> None:
    assert code(constraints.number_problem(number(**field), value)) == expected


def test_a_number_problem_carries_its_figures() -> None:
    problem = constraints.number_problem(number(minimum=2, step=0.5), 2.25)
    assert problem is not None and problem.params == {"step": 0.5, "base": 2}
    low = constraints.number_problem(number(minimum=2), 1)
    assert low is not None and low.params == {"minimum": 2} and low.where == "people"


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("2026-02-28", True),
        ("2024-02-29", True),
        ("2026-02-29", False),
        ("2026-13-01", False),
        ("2026-00-10", False),
        ("0000-01-01", False),
        ("2026-1-01", False),
        ("2026-01-01T00:00", False),
        ("２０２６-01-01", False),
        ("2026/01/01", False),
        (20260101, False),
    ],
)
def test_dates_are_iso_calendar_days(text: Any, valid: bool) -> None:
    assert constraints.is_iso_date(text) is valid


def test_a_date_is_checked_against_its_bounds_as_text() -> None:
    field = parsed_v2(v2_model(date_field(minimum="2026-03-01", maximum="2026-03-31"))).fields[0]
    assert isinstance(field, DateField)
    assert constraints.date_problem(field, "2026-03-01") is None
    assert constraints.date_problem(field, "2026-03-31") is None
    assert code(constraints.date_problem(field, "2026-02-28")) == "submission.below-minimum"
    assert code(constraints.date_problem(field, "2026-04-01")) == "submission.above-maximum"
    assert code(constraints.date_problem(field, "31/03/2026")) == "submission.not-a-date"
    assert constraints.date_problem(field, None) is None and constraints.date_problem(field, "") is None


def text_field(**extra: Any) -> TextFieldV2:
    field = parsed_v2(v2_model(text2(**extra))).fields[0]
    assert isinstance(field, TextFieldV2)
    return field


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ({"minLength": 3}, "", None),  # not answered: only `required` refuses it
        ({"minLength": 3}, "ab", "submission.too-short"),
        ({"minLength": 3}, "abc", None),
        ({"maxLength": 3}, "abcd", "submission.too-long"),
        ({"maxLength": 3}, "漢字😀", None),  # code points, not bytes or UTF-16 units
        ({"format": "email"}, "mei@example.org", None),
        ({"format": "email"}, "mei@example", "submission.invalid-format"),
        ({"format": "email"}, "mei example@x.org", "submission.invalid-format"),
        ({"format": "url"}, "https://example.org/x", None),
        ({"format": "url"}, "ftp://example.org", "submission.invalid-format"),
        ({"format": "url"}, "https://", "submission.invalid-format"),
        ({"format": "url"}, "https://exa mple.org", "submission.invalid-format"),
        ({"pattern": "[A-Z]{2}-[0-9]{4}"}, "AB-1234", None),
        ({"pattern": "[A-Z]{2}-[0-9]{4}"}, "AB-1234x", "submission.pattern-mismatch"),  # the whole value
        ({"pattern": "[A-Z]{2}-[0-9]{4}"}, "xAB-1234", "submission.pattern-mismatch"),
    ],
)
def test_a_text_is_checked_against_its_constraints(
    field: dict[str, Any], value: str, expected: str | None
) -> None:
    assert code(constraints.text_problem(text_field(**field), value)) == expected


def test_a_catastrophic_pattern_is_answered_at_once() -> None:
    field = text_field(pattern="(a+)+$")
    started = time.perf_counter()
    problem = constraints.text_problem(field, "a" * 100_000 + "!")
    elapsed = time.perf_counter() - started
    assert code(problem) == "submission.pattern-mismatch"
    assert elapsed < 0.5, f"RE2 took {elapsed:.3f} s"  # a backtracking engine would take ages


def test_at_most_256_compiled_patterns_are_kept_whatever_the_models_write() -> None:
    for n in range(300):
        patterns.check(f"a{{{n}}}")
    assert patterns.compiled.cache_info().currsize == 256


def test_patterns_refuse_what_needs_backtracking_and_compile_once() -> None:
    for bad in ("(?=a)", "(?<!a)b", r"(a)\1", "a{1001}", "(unclosed"):
        with pytest.raises(patterns.InvalidPattern):
            patterns.check(bad)
    patterns.check("[[:alpha:]]+")
    assert patterns.compiled("x+") is patterns.compiled("x+")
    assert patterns.matches_whole(r"\p{Han}+", "中文") and not patterns.matches_whole("a", "aa")


def test_counts_of_a_multi_choice() -> None:
    field = parsed_v2(v2_model(multi2(minItems=2, maxItems=3))).fields[0]
    assert isinstance(field, MultiChoiceFieldV2)
    assert constraints.count_problem(field, 0) is None
    assert code(constraints.count_problem(field, 1)) == "submission.too-few"
    assert constraints.count_problem(field, 2) is None and constraints.count_problem(field, 3) is None
    assert code(constraints.count_problem(field, 4)) == "submission.too-many"
    required = parsed_v2(v2_model(multi2(required=True))).fields[0]
    assert isinstance(required, MultiChoiceFieldV2)
    assert code(constraints.count_problem(required, 0)) == "submission.required"


# --- conditions -------------------------------------------------------------------------


def test_a_condition_holds_for_its_values_as_json_compares_them() -> None:
    equals = VisibleWhen(field="x", equals=1)
    assert holds(equals, 1) and holds(equals, 1.0) and not holds(equals, True) and not holds(equals, "1")
    assert holds(VisibleWhen(field="x", equals=True), True) and not holds(
        VisibleWhen(field="x", equals=True), 1
    )
    within = VisibleWhen.model_validate({"field": "x", "in": ["a", "b"]})
    assert holds(within, "b") and not holds(within, "c") and not holds(within, None)
    assert holds(within, ["c", "a"]) and not holds(within, ["c"]) and not holds(within, [])


def test_a_field_applies_only_while_its_controller_applies() -> None:
    model = parsed_v2(
        v2_model(
            {
                "kind": "choice",
                "id": "a",
                "label": "A",
                "options": [{"id": "y", "label": "Y"}, {"id": "n", "label": "N"}],
            },
            text2("b", "B", visibleWhen={"field": "a", "equals": "y"}),
            text2("c", "C", visibleWhen={"field": "b", "equals": "go"}),
            text2("d", "D"),
        )
    )
    assert applying(model.fields, {"a": "y", "b": "go"}) == {"a", "b", "c", "d"}
    assert applying(model.fields, {"a": "n", "b": "go"}) == {"a", "d"}  # c's controller is hidden
    assert applying(model.fields, {"a": "y", "b": "stop"}) == {"a", "b", "d"}


# --- hunks ------------------------------------------------------------------------------


def test_hunks_are_the_runs_of_change_with_host_ids() -> None:
    hunks = hunks_of("a\nb\nc\nd\ne\nf\ng\n", "a\nB\nc\nd\ne\nf\ng\nh\n")
    assert [h.id for h in hunks] == ["h1", "h2"]
    first, second = hunks
    assert (first.old_start, first.removed, first.new_start, first.added) == (2, ("b",), 2, ("B",))
    assert first.before_context == ((1, 1, "a"),) and first.after_context == ((3, 3, "c"), (4, 4, "d"))
    assert (second.old_start, second.removed, second.added) == (8, (), ("h",))
    assert second.before_context == ((6, 6, "f"), (7, 7, "g")) and second.after_context == ()
    assert first.place == "line 2" and second.place == "after line 7"


def test_hunk_places_read_as_a_person_says_them() -> None:
    assert hunks_of("a\nb\nc\n", "a\n")[0].place == "lines 2-3"
    assert hunks_of("a\n", "z\na\n")[0].place == "at the start"
    assert [h.place for h in hunks_of(None, "new\n")] == ["at the start"]


def test_hunk_ids_are_the_same_for_the_same_change() -> None:
    field = parsed_v2(v2_model(review_field())).fields[0]
    assert [h.id for h in hunks_of("a\nb\n", "a\nc\n")] == [h.id for h in hunks_of("a\nb\n", "a\nc\n")]
    assert field.kind == "review"
