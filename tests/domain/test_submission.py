"""Submitted values checked against the persisted model, and plain form fields turned into values."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

import pytest

from tasksurface.domain import strict_json
from tasksurface.domain.form_values import form_name, values_from_form
from tasksurface.domain.formatter import format_submission
from tasksurface.domain.limits import DEFAULT_LIMITS, Limits
from tasksurface.domain.model import TaskSurfaceModelV1
from tasksurface.domain.refusals import Problem, SubmissionCode, SubmissionRefused
from tasksurface.domain.submission import initial_values, prepare_submission, validate_submission

from .builders import (
    choice_field,
    model_with_fields,
    multi_choice_field,
    option,
    order_field,
    parsed,
    text_field,
    toggle_field,
)


def every_kind_model() -> TaskSurfaceModelV1:
    return parsed(
        model_with_fields(
            text_field("summary", "Summary", required=True),
            text_field("comment", "Comment", multiline=True),
            choice_field("target", "Target"),
            multi_choice_field("extras", "Extras"),
            toggle_field("notify", "Notify"),
            order_field("steps", "Steps"),
        )
    )


def good_values(**overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "summary": "Ship it",
        "comment": "",
        "target": "beta",
        "extras": ["gamma"],
        "notify": False,
        "steps": ["gamma", "alpha", "beta"],
    }
    values.update(overrides)
    return values


def problems_of(values: Any, note: Any = None, limits: Limits = DEFAULT_LIMITS) -> list[Problem]:
    with pytest.raises(SubmissionRefused) as info:
        validate_submission(every_kind_model(), values, note, limits)
    return info.value.problems


def only_problem(values: Any, note: Any = None, limits: Limits = DEFAULT_LIMITS) -> Problem:
    (problem,) = problems_of(values, note, limits)
    return problem


# --- accepted ---------------------------------------------------------------------------


def test_good_values_are_returned_unchanged() -> None:
    checked, note = validate_submission(every_kind_model(), good_values())
    assert checked == good_values()
    assert note is None


def test_checked_values_follow_model_field_order() -> None:
    reversed_values = dict(reversed(list(good_values().items())))
    checked, _ = validate_submission(every_kind_model(), reversed_values)
    assert list(checked) == ["summary", "comment", "target", "extras", "notify", "steps"]


def test_any_mapping_is_an_object() -> None:
    checked, _ = validate_submission(every_kind_model(), MappingProxyType(good_values()))
    assert checked == good_values()


def test_a_model_without_fields_takes_an_empty_object() -> None:
    assert validate_submission(parsed(), {}) == ({}, None)


def test_note_is_kept_and_a_blank_note_is_dropped() -> None:
    assert validate_submission(every_kind_model(), good_values(), "thanks")[1] == "thanks"
    assert validate_submission(every_kind_model(), good_values(), "  \n ")[1] is None
    assert validate_submission(every_kind_model(), good_values(), "")[1] is None


# --- values object ----------------------------------------------------------------------


@pytest.mark.parametrize("values", [None, [], ["summary"], "summary=x", 5, True])
def test_values_must_be_an_object(values: Any) -> None:
    assert only_problem(values).code == SubmissionCode.NOT_AN_OBJECT


def test_unknown_field_is_refused() -> None:
    problem = only_problem(good_values(surprise="x"))
    assert (problem.code, problem.where) == (SubmissionCode.UNKNOWN_FIELD, "surprise")


def test_field_labels_are_not_field_ids() -> None:
    values = good_values()
    values["Summary"] = values.pop("summary")
    codes = {(p.code, p.where) for p in problems_of(values)}
    assert codes == {(SubmissionCode.UNKNOWN_FIELD, "Summary"), (SubmissionCode.MISSING_VALUE, "summary")}


@pytest.mark.parametrize("field_id", ["summary", "comment", "target", "extras", "notify", "steps"])
def test_every_field_needs_a_value(field_id: str) -> None:
    values = good_values()
    del values[field_id]
    problem = only_problem(values)
    assert (problem.code, problem.where) == (SubmissionCode.MISSING_VALUE, field_id)


# --- text -------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, 5, True, ["x"], {"text": "x"}])
def test_text_must_be_a_string(value: Any) -> None:
    problem = only_problem(good_values(comment=value))
    assert (problem.code, problem.where) == (SubmissionCode.WRONG_TYPE, "comment")


@pytest.mark.parametrize("value", ["", " ", "\n\t  \r\n", "\u3000"])
def test_required_text_must_not_be_empty_or_whitespace(value: str) -> None:
    problem = only_problem(good_values(summary=value))
    assert (problem.code, problem.where) == (SubmissionCode.REQUIRED, "summary")


def test_optional_text_may_be_empty_or_whitespace() -> None:
    for comment in ("", "   "):
        assert validate_submission(every_kind_model(), good_values(comment=comment)) == (
            good_values(comment=comment),
            None,
        )


def test_required_text_with_content_around_whitespace_is_fine() -> None:
    values, _ = validate_submission(every_kind_model(), good_values(summary="  yes  "))
    assert values["summary"] == "  yes  "  # kept as typed


def test_text_with_lone_surrogates_is_refused_not_crashed() -> None:
    problem = only_problem(good_values(comment="bad \ud800"))
    assert (problem.code, problem.where) == (SubmissionCode.WRONG_TYPE, "comment")


# --- choice -----------------------------------------------------------------------------


def test_choice_none_means_unanswered() -> None:
    problem = only_problem(good_values(target=None))
    assert (problem.code, problem.where) == (SubmissionCode.REQUIRED, "target")


@pytest.mark.parametrize("value", [1, True, ["beta"], {"id": "beta"}])
def test_choice_must_be_one_option_id(value: Any) -> None:
    problem = only_problem(good_values(target=value))
    assert (problem.code, problem.where) == (SubmissionCode.WRONG_TYPE, "target")


@pytest.mark.parametrize("value", ["delta", "Beta", "", " beta"])
def test_choice_must_be_a_declared_option(value: str) -> None:
    problem = only_problem(good_values(target=value))
    assert (problem.code, problem.where) == (SubmissionCode.UNKNOWN_OPTION, "target")


# --- multi-choice -----------------------------------------------------------------------


@pytest.mark.parametrize("value", [[], ["alpha"], ["gamma", "alpha"], ["alpha", "beta", "gamma"]])
def test_multi_choice_takes_any_distinct_subset(value: list[str]) -> None:
    checked, _ = validate_submission(every_kind_model(), good_values(extras=value))
    assert checked["extras"] == value


@pytest.mark.parametrize("value", [None, "alpha", {"alpha": True}, [1], ["alpha", None], [["alpha"]]])
def test_multi_choice_must_be_a_list_of_ids(value: Any) -> None:
    problem = only_problem(good_values(extras=value))
    assert (problem.code, problem.where) == (SubmissionCode.WRONG_TYPE, "extras")


def test_multi_choice_refuses_duplicates() -> None:
    problem = only_problem(good_values(extras=["alpha", "alpha"]))
    assert (problem.code, problem.where) == (SubmissionCode.DUPLICATE_OPTION, "extras")


def test_multi_choice_refuses_unknown_ids() -> None:
    problem = only_problem(good_values(extras=["alpha", "delta"]))
    assert (problem.code, problem.where) == (SubmissionCode.UNKNOWN_OPTION, "extras")


# --- toggle -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [True, False])
def test_toggle_takes_a_bool(value: bool) -> None:
    assert validate_submission(every_kind_model(), good_values(notify=value))[0]["notify"] is value


@pytest.mark.parametrize("value", [1, 0, "true", "false", "on", None, [True]])
def test_toggle_refuses_anything_but_a_bool(value: Any) -> None:
    problem = only_problem(good_values(notify=value))
    assert (problem.code, problem.where) == (SubmissionCode.WRONG_TYPE, "notify")


# --- order ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value", [["alpha", "beta", "gamma"], ["gamma", "beta", "alpha"], ["beta", "alpha", "gamma"]]
)
def test_order_takes_any_permutation_and_keeps_it(value: list[str]) -> None:
    assert validate_submission(every_kind_model(), good_values(steps=value))[0]["steps"] == value


@pytest.mark.parametrize(
    "value",
    [
        [],
        ["alpha", "beta"],
        ["alpha", "beta", "gamma", "delta"],
        ["alpha", "beta", "delta"],
        ["alpha", "alpha", "beta"],
        ["alpha", "beta", "gamma", "gamma"],
        ["Alpha", "beta", "gamma"],
    ],
    ids=["empty", "missing", "extra", "unknown", "duplicate", "duplicate extra", "label"],
)
def test_order_must_be_a_permutation_of_every_option(value: list[str]) -> None:
    problem = only_problem(good_values(steps=value))
    assert (problem.code, problem.where) == (SubmissionCode.NOT_A_PERMUTATION, "steps")


@pytest.mark.parametrize("value", [None, "alpha,beta,gamma", [1, 2, 3], {"alpha": 1}])
def test_order_must_be_a_list_of_ids(value: Any) -> None:
    problem = only_problem(good_values(steps=value))
    assert (problem.code, problem.where) == (SubmissionCode.WRONG_TYPE, "steps")


# --- many problems at once --------------------------------------------------------------


def test_every_problem_is_reported_each_at_its_field() -> None:
    values = {
        "summary": " ",
        "comment": 3,
        "target": "delta",
        "extras": ["alpha", "alpha"],
        "notify": "true",
        "surprise": 1,
    }
    problems = problems_of(values, note=42)
    assert {(p.code, p.where) for p in problems} == {
        (SubmissionCode.NOTE, "note"),
        (SubmissionCode.UNKNOWN_FIELD, "surprise"),
        (SubmissionCode.REQUIRED, "summary"),
        (SubmissionCode.WRONG_TYPE, "comment"),
        (SubmissionCode.UNKNOWN_OPTION, "target"),
        (SubmissionCode.DUPLICATE_OPTION, "extras"),
        (SubmissionCode.WRONG_TYPE, "notify"),
        (SubmissionCode.MISSING_VALUE, "steps"),
    }
    assert len(problems) == 8


def test_one_problem_per_field() -> None:
    # A duplicate that is also unknown is still one problem for that field.
    problems = problems_of(good_values(extras=["delta", "delta"]))
    assert [p.where for p in problems] == ["extras"]


def test_refusal_wire_form_names_each_field() -> None:
    with pytest.raises(SubmissionRefused) as info:
        validate_submission(every_kind_model(), good_values(notify=1, target=None))
    wires = [p.to_wire() for p in info.value.problems]
    assert {w["where"] for w in wires} == {"notify", "target"}
    assert all(w["code"].startswith("submission.") and w["message"] for w in wires)


# --- note -------------------------------------------------------------------------------


@pytest.mark.parametrize("note", [5, True, ["a note"], {"text": "a note"}])
def test_note_must_be_text(note: Any) -> None:
    problem = only_problem(good_values(), note)
    assert (problem.code, problem.where) == (SubmissionCode.NOTE, "note")


def test_note_length_is_bounded() -> None:
    limits = Limits(note_chars=10)
    validate_submission(every_kind_model(), good_values(), "x" * 10, limits)
    problem = only_problem(good_values(), "x" * 11, limits)
    assert (problem.code, problem.where) == (SubmissionCode.NOTE, "note")


def test_note_with_lone_surrogates_is_refused_not_crashed() -> None:
    assert only_problem(good_values(), "\udfff").code == SubmissionCode.NOTE


# --- size -------------------------------------------------------------------------------


def submission_size(values: dict[str, Any], note: str | None) -> int:
    return strict_json.utf8_size({"values": values, "note": note})


def test_submission_bytes_limit_is_exact() -> None:
    values = good_values(comment="ü" * 50)
    size = submission_size(values, "n")
    validate_submission(every_kind_model(), values, "n", Limits(submission_bytes=size))
    problem = only_problem(values, "n", Limits(submission_bytes=size - 1))
    assert problem.code == SubmissionCode.TOO_LARGE
    assert "submission_bytes" in problem.message


def test_note_counts_toward_the_submission_size() -> None:
    limit = submission_size(good_values(), None) + 5
    validate_submission(every_kind_model(), good_values(), None, Limits(submission_bytes=limit))
    problem = only_problem(good_values(), "a long note", Limits(submission_bytes=limit))
    assert problem.code == SubmissionCode.TOO_LARGE


def test_default_submission_limit_is_32_kib() -> None:
    model = parsed(model_with_fields(text_field("t", "T")))
    validate_submission(model, {"t": "x" * (30 * 1024)})
    with pytest.raises(SubmissionRefused) as info:
        validate_submission(model, {"t": "x" * (32 * 1024)})
    assert [p.code for p in info.value.problems] == [SubmissionCode.TOO_LARGE]


def test_formatted_text_over_the_limit_is_too_large() -> None:
    # Small values, but long labels make the readable text longer than the values.
    model = parsed(
        model_with_fields(toggle_field("t", "L" * 150), title="T" * 150),
    )
    limit = 120
    assert submission_size({"t": True}, None) <= limit
    validate_submission(model, {"t": True}, None, Limits(submission_bytes=limit))
    with pytest.raises(SubmissionRefused) as info:
        prepare_submission(model, {"t": True}, None, Limits(submission_bytes=limit))
    assert [p.code for p in info.value.problems] == [SubmissionCode.TOO_LARGE]


def test_prepare_submission_returns_checked_values_note_and_the_formatted_text() -> None:
    model = every_kind_model()
    checked, note, text = prepare_submission(model, good_values(), "  ok  ")
    assert checked == good_values()
    assert note == "  ok  "
    assert text == format_submission(model, checked, note)


def test_prepare_submission_refuses_what_validate_refuses() -> None:
    with pytest.raises(SubmissionRefused) as info:
        prepare_submission(every_kind_model(), good_values(notify="yes"))
    assert [(p.code, p.where) for p in info.value.problems] == [(SubmissionCode.WRONG_TYPE, "notify")]


# --- initial values ---------------------------------------------------------------------


def test_initial_values_without_initials() -> None:
    assert initial_values(every_kind_model()) == {
        "summary": "",
        "comment": "",
        "target": None,
        "extras": [],
        "notify": False,
        "steps": ["alpha", "beta", "gamma"],
    }


def test_initial_values_use_declared_initials() -> None:
    model = parsed(
        model_with_fields(
            text_field("summary", initial="draft"),
            choice_field("target", initial="gamma"),
            multi_choice_field("extras", initial=["gamma", "alpha"]),
            toggle_field("notify", initial=True),
            order_field("steps", initial=["beta", "gamma", "alpha"]),
        )
    )
    assert initial_values(model) == {
        "summary": "draft",
        "target": "gamma",
        "extras": ["gamma", "alpha"],
        "notify": True,
        "steps": ["beta", "gamma", "alpha"],
    }


def test_initial_values_are_fresh_lists() -> None:
    model = parsed(model_with_fields(multi_choice_field(initial=["alpha"]), order_field()))
    first = initial_values(model)
    first["extras"].append("beta")
    first["steps"].reverse()
    assert initial_values(model) == {"extras": ["alpha"], "steps": ["alpha", "beta", "gamma"]}


def test_initial_values_of_an_answered_model_validate() -> None:
    model = parsed(
        model_with_fields(text_field(), choice_field(initial="beta"), toggle_field(), order_field())
    )
    assert validate_submission(model, initial_values(model)) == (
        {"summary": "", "target": "beta", "notify": False, "steps": ["alpha", "beta", "gamma"]},
        None,
    )


def test_unanswered_initial_choice_does_not_validate() -> None:
    model = parsed(model_with_fields(choice_field()))
    with pytest.raises(SubmissionRefused) as info:
        assert validate_submission(model, initial_values(model)) == (
            {"summary": "", "target": "beta", "notify": False, "steps": ["alpha", "beta", "gamma"]},
            None,
        )
    assert [p.code for p in info.value.problems] == [SubmissionCode.REQUIRED]


# --- form values ------------------------------------------------------------------------


def fake_getlist(form: dict[str, list[str]]) -> Any:
    asked: list[str] = []

    def getlist(name: str) -> Sequence[str]:
        asked.append(name)
        return form.get(name, [])

    getlist.asked = asked  # type: ignore[attr-defined]
    return getlist


def test_form_names_carry_the_field_id() -> None:
    assert form_name("target") == "f.target"
    model = every_kind_model()
    getlist = fake_getlist({})
    values_from_form(model, getlist)
    assert getlist.asked == [f"f.{f.id}" for f in model.fields]


def test_form_values_for_every_kind() -> None:
    form = {
        "f.summary": ["line one\r\nline two\r\n"],
        "f.comment": ["plain"],
        "f.target": ["beta"],
        "f.extras": ["gamma", "alpha"],
        "f.notify": ["true"],
        "f.steps": ["gamma", "alpha", "beta"],
        "f.unrelated": ["ignored"],
        "summary": ["not prefixed, ignored"],
    }
    values = values_from_form(every_kind_model(), fake_getlist(form))
    assert values == {
        "summary": "line one\nline two\n",
        "comment": "plain",
        "target": "beta",
        "extras": ["gamma", "alpha"],
        "notify": True,
        "steps": ["gamma", "alpha", "beta"],
    }
    validate_submission(every_kind_model(), values)


def test_form_values_when_nothing_is_posted() -> None:
    assert values_from_form(every_kind_model(), fake_getlist({})) == {
        "summary": "",
        "comment": "",
        "target": None,
        "extras": [],
        "notify": False,
        "steps": [],
    }


def test_an_unchecked_toggle_is_false_and_a_checked_one_is_true() -> None:
    model = parsed(model_with_fields(toggle_field("notify")))
    assert values_from_form(model, fake_getlist({"f.notify": []})) == {"notify": False}
    assert values_from_form(model, fake_getlist({"f.notify": ["true"]})) == {"notify": True}


def test_form_text_keeps_lone_newlines_and_takes_the_first_value() -> None:
    model = parsed(model_with_fields(text_field("t", "T", multiline=True)))
    assert values_from_form(model, fake_getlist({"f.t": ["a\nb\r\nc", "second"]})) == {"t": "a\nb\nc"}


def test_form_values_pass_posted_choices_through_for_validation() -> None:
    model = parsed(model_with_fields(choice_field("c", options=[option("a"), option("b")])))
    values = values_from_form(model, fake_getlist({"f.c": ["zzz"]}))
    assert values == {"c": "zzz"}
    with pytest.raises(SubmissionRefused) as info:
        validate_submission(model, values)
    assert [p.code for p in info.value.problems] == [SubmissionCode.UNKNOWN_OPTION]


def test_form_values_round_trip_through_initial_values() -> None:
    model = parsed(
        model_with_fields(
            text_field("t", initial="a\nb"),
            choice_field("c", initial="beta"),
            multi_choice_field("m", initial=["gamma"]),
            toggle_field("g", initial=True),
            order_field("o", initial=["gamma", "beta", "alpha"]),
        )
    )
    start = initial_values(model)
    form = {
        "f.t": [start["t"].replace("\n", "\r\n")],
        "f.c": [start["c"]],
        "f.m": start["m"],
        "f.g": ["true"],
        "f.o": start["o"],
    }
    assert values_from_form(model, fake_getlist(form)) == start


# --- every refusal, written out -------------------------------------------------------------

C = SubmissionCode
VALUE_REFUSALS: list[tuple[str, dict[str, Any], Problem]] = [
    ("text not text", {"comment": 3}, Problem(C.WRONG_TYPE, "expected text", "comment")),
    ("required text empty", {"summary": " "}, Problem(C.REQUIRED, "this field is required", "summary")),
    ("toggle not a boolean", {"notify": "yes"}, Problem(C.WRONG_TYPE, "expected true or false", "notify")),
    ("choice unanswered", {"target": None}, Problem(C.REQUIRED, "choose one option", "target")),
    ("choice not text", {"target": ["beta"]}, Problem(C.WRONG_TYPE, "expected one option id", "target")),
    ("choice unknown", {"target": "zeta"}, Problem(C.UNKNOWN_OPTION, "'zeta' is not an option", "target")),
    (
        "multi not a list",
        {"extras": "beta"},
        Problem(C.WRONG_TYPE, "expected a list of option ids", "extras"),
    ),
    ("multi not ids", {"extras": [1]}, Problem(C.WRONG_TYPE, "expected a list of option ids", "extras")),
    (
        "multi twice",
        {"extras": ["beta", "beta"]},
        Problem(C.DUPLICATE_OPTION, "an option is listed twice", "extras"),
    ),
    (
        "multi unknown",
        {"extras": ["beta", "zeta", "eta"]},
        Problem(C.UNKNOWN_OPTION, "'zeta' is not an option", "extras"),
    ),
    ("order not a list", {"steps": "alpha"}, Problem(C.WRONG_TYPE, "expected a list of option ids", "steps")),
    ("order not ids", {"steps": [1, 2, 3]}, Problem(C.WRONG_TYPE, "expected a list of option ids", "steps")),
    (
        "order short",
        {"steps": ["alpha", "beta"]},
        Problem(C.NOT_A_PERMUTATION, "the order must list every option exactly once", "steps"),
    ),
    (
        "order repeats",
        {"steps": ["alpha", "beta", "beta"]},
        Problem(C.NOT_A_PERMUTATION, "the order must list every option exactly once", "steps"),
    ),
]


@pytest.mark.parametrize(
    ("change", "problem"), [(c, p) for _, c, p in VALUE_REFUSALS], ids=[n for n, _, _ in VALUE_REFUSALS]
)
def test_every_value_refusal_has_its_code_message_and_place(change: dict[str, Any], problem: Problem) -> None:
    assert problems_of(good_values(**change)) == [problem]


def test_every_shape_refusal_has_its_code_message_and_place() -> None:
    assert problems_of(["Ship it"]) == [Problem(C.NOT_AN_OBJECT, "values must be an object")]
    unknown = problems_of({**good_values(), "extra": 1, "more": 2})
    assert unknown == [
        Problem(C.UNKNOWN_FIELD, "no field 'extra'", "extra"),
        Problem(C.UNKNOWN_FIELD, "no field 'more'", "more"),
    ]
    missing = {k: v for k, v in good_values().items() if k not in ("notify", "steps")}
    assert problems_of(missing) == [
        Problem(C.MISSING_VALUE, "a value is missing", "notify"),
        Problem(C.MISSING_VALUE, "a value is missing", "steps"),
    ]
    assert problems_of(good_values(), note=7) == [
        Problem(C.NOTE, "note must be text of at most 4000 characters", "note")
    ]


def test_the_formatted_text_is_held_to_submission_bytes_exactly() -> None:
    # Small values, a long title: the values fit, the readable text may not.
    model = parsed(model_with_fields(toggle_field("notify", "Notify"), title="T" * 200))
    values = {"notify": False}
    text = format_submission(model, values, None)
    assert text == "Task Surface: " + "T" * 200 + "\n- Notify: no"
    size = len(text.encode("utf-8"))
    assert prepare_submission(model, values, limits=Limits(submission_bytes=size)) == (values, None, text)
    with pytest.raises(SubmissionRefused) as info:
        prepare_submission(model, values, limits=Limits(submission_bytes=size - 1))
    assert info.value.problems == [Problem(C.TOO_LARGE, "the formatted submission passes submission_bytes")]


def test_prepare_holds_values_and_note_to_the_given_limits() -> None:
    model = every_kind_model()
    with pytest.raises(SubmissionRefused) as info:
        prepare_submission(model, good_values(), note="twelve chars", limits=Limits(note_chars=11))
    assert info.value.problems == [Problem(C.NOTE, "note must be text of at most 11 characters", "note")]
    assert str(info.value) == "submission.invalid-note at note"
