"""Version 2's rules in detail: refusals as a person and a model read them (code, message, place and
figures), the lookups the services use, conditions, review hunks and exact steps."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import re2

from tasksurface.backends.demos import COMPARE_CARDS
from tasksurface.domain import constraints, model_v2, patterns
from tasksurface.domain.hunks import hunks_of
from tasksurface.domain.limits import Limits
from tasksurface.domain.model_v2 import DateField, MultiChoiceFieldV2, NumberField, TextFieldV2, VisibleWhen
from tasksurface.domain.parser import parse_model
from tasksurface.domain.refusals import Problem, SurfaceRefused

from .builders_v2 import (
    choice2,
    choices,
    date_field,
    multi2,
    number_field,
    parsed_v2,
    text2,
    toggle2,
    v2_model,
)


def multi(**extra: Any) -> MultiChoiceFieldV2:
    field = parsed_v2(v2_model(multi2(**extra))).fields[0]
    assert isinstance(field, MultiChoiceFieldV2)
    return field


def test_a_model_finds_its_fields_choices_and_actions_by_id() -> None:
    model = parsed_v2(
        v2_model(
            text2("name"),
            text2("city", "City"),
            submit=choices(("approve", "Approve"), ("reject", "Reject")),
            actions=[{"id": "preview", "label": "Preview"}, {"id": "refresh", "label": "Refresh"}],
        )
    )
    city = model.field("city")
    assert isinstance(city, TextFieldV2) and city.label == "City"
    assert model.field("nowhere") is None
    choice = model.submit_choice("reject")
    assert choice is not None and choice.label == "Reject"
    assert model.submit_choice("nowhere") is None
    action = model.action("refresh")
    assert action is not None and action.label == "Refresh"
    assert model.action("nowhere") is None
    assert parsed_v2(v2_model(text2())).submit_choice("approve") is None


def test_multi_choice_count_problems_say_how_many_and_carry_the_figure() -> None:
    assert constraints.count_problem(multi(required=True), 0) == Problem(
        "submission.required", "choose at least one option", "diet"
    )
    bounded = multi(minItems=2, maxItems=2)
    assert constraints.count_problem(bounded, 1) == Problem(
        "submission.too-few", "choose at least 2", "diet", {"minimum": 2}
    )
    assert constraints.count_problem(bounded, 3) == Problem(
        "submission.too-many", "choose at most 2", "diet", {"maximum": 2}
    )


@pytest.mark.parametrize(
    ("text", "web"),
    [
        ("http://example.com/a?b=c", True),
        ("https://example.com", True),
        ("HTTPS://example.com", True),
        ("ftp://example.com", False),
        ("https://", False),
        ("https://exa mple.com", False),
        ("http://[::1", False),
        ("example.com", False),
    ],
)
def test_a_web_address_is_absolute_http_or_https_with_a_host(text: str, web: bool) -> None:
    assert constraints.is_web_url(text) is web


def test_a_refused_pattern_says_what_re2_found() -> None:
    with pytest.raises(patterns.InvalidPattern) as caught:
        patterns.check("(")
    assert str(caught.value) == "missing ): ("


def test_a_pattern_refusal_reads_re2_s_words_whatever_their_form() -> None:
    assert patterns._reason(re2.error(b"invalid perl operator: (?=")) == "invalid perl operator: (?="
    assert patterns._reason(re2.error(b"bad \xff byte")) == "bad \ufffd byte"
    assert patterns._reason(re2.error("as text")) == "as text"
    assert patterns._reason(re2.error()) == "not an RE2 pattern"
    assert patterns._reason(re2.error(b"")) == "not an RE2 pattern"


def condition_refusal(*fields: dict[str, object]) -> Problem:
    with pytest.raises(SurfaceRefused) as caught:
        parse_model(v2_model(*fields))
    return caught.value.problem


def test_condition_refusals_say_what_a_condition_may_name() -> None:
    assert condition_refusal(text2("a", "A", visibleWhen={"field": "zz", "equals": "x"})) == Problem(
        "surface.condition-unknown-field", "no field 'zz' to depend on", "model.fields.0.visibleWhen.field"
    )
    assert condition_refusal(text2("a", "A", visibleWhen={"field": "a", "equals": "x"})) == Problem(
        "surface.condition-not-earlier",
        "a condition can only depend on an earlier field (so no cycle can form)",
        "model.fields.0.visibleWhen.field",
    )
    assert condition_refusal(text2("a", "A"), text2("b", "B", visibleWhen={"field": "a"})) == Problem(
        "surface.invalid-condition", "give exactly one of equals or in", "model.fields.1.visibleWhen"
    )
    assert condition_refusal(
        text2("a", "A"), text2("b", "B", visibleWhen={"field": "a", "in": []})
    ) == Problem("surface.invalid-condition", "in needs at least one value", "model.fields.1.visibleWhen.in")
    assert condition_refusal(
        toggle2(), text2("b", "B", visibleWhen={"field": "terms", "equals": "on"})
    ) == Problem(
        "surface.invalid-condition",
        "'on' is not a value field 'terms' can have",
        "model.fields.1.visibleWhen",
    )


def test_a_condition_on_a_comparison_names_one_of_its_candidates() -> None:
    cards = copy.deepcopy(COMPARE_CARDS["fields"][0])
    for value, fits in (("x13", True), ("nope", False), (13, False)):
        data = v2_model(cards, text2("why", "Why", visibleWhen={"field": "laptop", "equals": value}))
        if fits:
            parsed_v2(data)
        else:
            with pytest.raises(SurfaceRefused, match="invalid-condition"):
                parse_model(data)


def test_a_one_line_change_among_many_equal_lines_is_one_small_hunk() -> None:
    """Without `autojunk=False`, difflib ignores lines repeated in more than 1% of a long text,
    and one changed line among 250 equal ones becomes a hunk of a hundred lines."""
    old = ["    }"] * 150 + ["a"] + ["    }"] * 100
    new = [*old[:150], "b", *old[151:]]
    (hunk,) = hunks_of("\n".join(old), "\n".join(new))
    assert (hunk.removed, hunk.added, hunk.place) == (("a",), ("b",), "line 151")


def test_context_below_a_hunk_stops_where_either_text_ends() -> None:
    first = hunks_of("a\nb\nc\nd\n", "X\nb\n")[0]
    assert first.after_context == ((2, 2, "b"),)
    assert first.before_context == ()


def test_a_step_too_fine_to_check_exactly_counts_as_off_step() -> None:
    field = parsed_v2(v2_model(number_field(step=0.5))).fields[0]
    assert isinstance(field, NumberField)
    problem = constraints.number_problem(field, 10**2000)
    assert problem is not None and problem.code == "submission.off-step"
    assert constraints.number_problem(field, 10**20) is None


def test_every_name_model_v2_exports_exists() -> None:
    assert model_v2.__all__ == sorted(model_v2.__all__)
    for name in model_v2.__all__:
        assert hasattr(model_v2, name), name


def test_a_condition_built_in_code_may_name_its_values_in_() -> None:
    condition = VisibleWhen(field="stay", in_=["hotel"])
    assert condition.model_dump(by_alias=True) == {"field": "stay", "in": ["hotel"]}


def test_unset_v2_attributes_take_their_documented_defaults() -> None:
    order = {"kind": "order", "id": "o", "label": "O", "options": [{"id": "a", "label": "A"}]}
    cards = copy.deepcopy(COMPARE_CARDS["fields"][0])
    cards.pop("initial", None)
    model = parsed_v2(
        v2_model(number_field(), date_field(), toggle2(), order, multi2(), cards, text2(format="url"))
    )
    number, date, toggle, ordered, multiple, comparison, text = model.fields
    assert [f.required for f in model.fields] == [False, False, False, False, False, True, False]
    assert isinstance(number, NumberField) and number.integer is False
    assert isinstance(multiple, MultiChoiceFieldV2) and multiple.filterable is False
    assert isinstance(text, TextFieldV2) and text.format == "url"
    assert (date.kind, toggle.kind, ordered.kind, comparison.kind) == (
        "date",
        "toggle",
        "order",
        "comparison",
    )


def test_text_and_count_bounds_reach_down_to_zero_and_one() -> None:
    parsed_v2(v2_model(text2(minLength=0, maxLength=1), multi2(minItems=0, maxItems=1)))
    for bad in (text2(minLength=-1), multi2(minItems=-1), multi2(maxItems=0)):
        with pytest.raises(SurfaceRefused, match=r"^surface\.schema: "):
            parse_model(v2_model(bad))


def test_submit_choices_take_a_tone_and_choices_a_presentation() -> None:
    tones = {"actions": [{"id": f"a{t}", "label": t, "tone": t} for t in ("primary", "neutral", "danger")]}
    model = parsed_v2(v2_model(choice2(presentation="cards"), submit=tones))
    assert [a["tone"] for a in model.normalised()["submit"]["actions"]] == ["primary", "neutral", "danger"]
    assert (
        parsed_v2(v2_model(choice2(presentation="list"))).normalised()["fields"][0]["presentation"] == "list"
    )


def test_a_hunk_shows_two_unchanged_lines_on_each_side() -> None:
    (hunk,) = hunks_of("1\n2\n3\n4\n5\n6\n7\n", "1\n2\n3\nfour\n5\n6\n7\n")
    assert hunk.before_context == ((2, 2, "2"), (3, 3, "3"))
    assert hunk.after_context == ((5, 5, "5"), (6, 6, "6"))


def test_a_pattern_whose_program_needs_more_than_a_megabyte_is_refused() -> None:
    patterns.check(".{1000}")
    with pytest.raises(patterns.InvalidPattern):
        patterns.check(".{1000}" * 8)


def test_a_step_is_checked_exactly_up_to_a_thousand_digits_of_quotient() -> None:
    field = parsed_v2(v2_model(number_field(step=1))).fields[0]
    assert isinstance(field, NumberField)
    assert constraints.number_problem(field, 10**999) is None
    problem = constraints.number_problem(field, 10**1000)
    assert problem is not None and problem.code == "submission.off-step"


def number(**extra: Any) -> NumberField:
    field = parsed_v2(v2_model(number_field(**extra))).fields[0]
    assert isinstance(field, NumberField)
    return field


def test_number_problems_say_what_is_wanted_with_their_figures() -> None:
    assert constraints.number_problem(number(required=True), None) == Problem(
        "submission.required", "this field is required", "people"
    )
    assert constraints.number_problem(number(), "3") == Problem(
        "submission.wrong-type", "expected a number", "people"
    )
    assert constraints.number_problem(number(integer=True), 2.5) == Problem(
        "submission.not-an-integer", "expected a whole number", "people"
    )
    assert constraints.number_problem(number(minimum=2), 1) == Problem(
        "submission.below-minimum", "the smallest value is 2", "people", {"minimum": 2}
    )
    assert constraints.number_problem(number(maximum=2.5), 3) == Problem(
        "submission.above-maximum", "the largest value is 2.5", "people", {"maximum": 2.5}
    )
    assert constraints.number_problem(number(step=5, minimum=2), 10) == Problem(
        "submission.off-step", "use a multiple of 5 from 2", "people", {"step": 5, "base": 2}
    )
    assert constraints.number_problem(number(step=5), 12) == Problem(
        "submission.off-step", "use a multiple of 5 from 0", "people", {"step": 5, "base": 0}
    )


def test_date_problems_say_what_is_wanted_with_their_figures() -> None:
    def date(**extra: Any) -> DateField:
        field = parsed_v2(v2_model(date_field(**extra))).fields[0]
        assert isinstance(field, DateField)
        return field

    for empty in (None, ""):
        assert constraints.date_problem(date(required=True), empty) == Problem(
            "submission.required", "this field is required", "start"
        )
        assert constraints.date_problem(date(), empty) is None
    assert constraints.date_problem(date(), "1 May") == Problem(
        "submission.not-a-date", "expected a date as YYYY-MM-DD", "start"
    )
    assert constraints.date_problem(date(minimum="2026-03-01"), "2026-02-28") == Problem(
        "submission.below-minimum", "the earliest date is 2026-03-01", "start", {"minimum": "2026-03-01"}
    )
    assert constraints.date_problem(date(maximum="2026-03-01"), "2026-03-02") == Problem(
        "submission.above-maximum", "the latest date is 2026-03-01", "start", {"maximum": "2026-03-01"}
    )


def test_number_bounds_that_cannot_hold_say_why() -> None:
    def problem(**extra: Any) -> Problem:
        with pytest.raises(SurfaceRefused) as caught:
            parse_model(v2_model(number_field(**extra)))
        return caught.value.problem

    assert problem(minimum=5, maximum=4) == Problem(
        "surface.invalid-bounds", "minimum is above maximum", "model.fields.0"
    )
    assert problem(integer=True, step=0.5) == Problem(
        "surface.invalid-bounds", "step of a whole-number field must be whole", "model.fields.0"
    )
    assert problem(maximum=3, initial=4) == Problem(
        "surface.invalid-initial", "initial value: the largest value is 3", "model.fields.0.initial"
    )


def test_a_condition_with_more_values_than_options_allowed_says_the_limit() -> None:
    data = v2_model(text2("t", "T"), text2("d", "D", visibleWhen={"field": "t", "in": ["a", "b", "c"]}))
    with pytest.raises(SurfaceRefused) as caught:
        parse_model(data, Limits(options=2))
    assert caught.value.problem == Problem(
        "surface.limit", "3 options; the limit options is 2", "model.fields.1.visibleWhen.in"
    )


def test_text_problems_say_what_is_wanted_with_their_figures() -> None:
    def text(**extra: Any) -> TextFieldV2:
        field = parsed_v2(v2_model(text2(**extra))).fields[0]
        assert isinstance(field, TextFieldV2)
        return field

    assert constraints.text_problem(text(minLength=3), "ab") == Problem(
        "submission.too-short", "write at least 3 characters", "name", {"minimum": 3}
    )
    assert constraints.text_problem(text(maxLength=2), "abc") == Problem(
        "submission.too-long", "write at most 2 characters", "name", {"maximum": 2}
    )
    assert constraints.text_problem(text(format="email"), "nope") == Problem(
        "submission.invalid-format", "expected an email address", "name", {"format": "email"}
    )
    assert constraints.text_problem(text(format="url"), "nope") == Problem(
        "submission.invalid-format", "expected a web address", "name", {"format": "url"}
    )
    assert constraints.text_problem(text(pattern="[0-9]+"), "12a") == Problem(
        "submission.pattern-mismatch", "this does not have the expected form", "name"
    )


@pytest.mark.parametrize("text", ["2026-+1-01", "2026-01-+1", "2026-1 -01", "2026-01- 1"])
def test_a_date_s_month_and_day_are_two_ascii_digits_each(text: str) -> None:
    assert not constraints.is_iso_date(text)


def field_refusal(field: dict[str, object]) -> Problem:
    with pytest.raises(SurfaceRefused) as caught:
        parse_model(v2_model(field))
    return caught.value.problem


def test_field_bounds_that_cannot_hold_say_why_and_where() -> None:
    assert field_refusal(text2(minLength=3, maxLength=2)) == Problem(
        "surface.invalid-bounds", "minLength is above maxLength", "model.fields.0"
    )
    assert field_refusal(text2(pattern="a" * 501)) == Problem(
        "surface.limit",
        "the pattern is 501 characters; the limit pattern_chars is 500",
        "model.fields.0.pattern",
    )
    assert field_refusal(text2(pattern="(")) == Problem(
        "surface.invalid-pattern", "not an RE2 pattern: missing ): (", "model.fields.0.pattern"
    )
    assert field_refusal(date_field(minimum="2026-02-30")) == Problem(
        "surface.invalid-date", "minimum '2026-02-30' is not a date as YYYY-MM-DD", "model.fields.0.minimum"
    )
    assert field_refusal(date_field(minimum="2026-03-01", maximum="2026-02-01")) == Problem(
        "surface.invalid-bounds", "minimum is after maximum", "model.fields.0"
    )
    assert field_refusal(multi2(minItems=4)) == Problem(
        "surface.invalid-bounds", "minItems cannot be met", "model.fields.0"
    )


def test_button_and_review_refusals_say_why_with_their_limits() -> None:
    assert condition_refusal_of(v2_model(submit={"actions": []})) == Problem(
        "surface.empty", "submit needs a label or at least one action", "model.submit"
    )
    nine = choices(*[(f"a{n}", "A") for n in range(9)])
    assert condition_refusal_of(v2_model(submit=nine)) == Problem(
        "surface.limit", "9 actions; the limit actions is 8", "model.submit.actions"
    )
    many = [{"id": f"x{n}", "label": "X"} for n in range(9)]
    assert condition_refusal_of(v2_model(actions=many)) == Problem(
        "surface.limit", "9 actions; the limit actions is 8", "model.actions"
    )
    same = {"kind": "review", "id": "r", "label": "R", "before": "a\n", "after": "a\n"}
    assert condition_refusal_of(v2_model(same)) == Problem(
        "surface.empty", "a review needs a change: before and after are the same", "model.fields.0"
    )
    before = "\n".join(f"line {n}" for n in range(9)) + "\n"
    after = "\n".join(f"line {n}" if n % 2 else f"LINE {n}" for n in range(9)) + "\n"
    review = {"kind": "review", "id": "r", "label": "R", "before": before, "after": after}
    with pytest.raises(SurfaceRefused) as caught:
        parse_model(v2_model(review), Limits(review_hunks=4))
    assert caught.value.problem == Problem(
        "surface.limit", "5 review_hunks; the limit review_hunks is 4", "model.fields.0"
    )


def condition_refusal_of(data: dict[str, object]) -> Problem:
    with pytest.raises(SurfaceRefused) as caught:
        parse_model(data)
    return caught.value.problem


def test_re2_keeps_refused_patterns_out_of_the_server_log() -> None:
    """A model can send any number of bad patterns; each is refused to the model, not printed."""
    assert patterns._options().log_errors is False
    assert patterns._options().max_mem == 1 << 20
