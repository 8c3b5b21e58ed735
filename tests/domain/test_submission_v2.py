"""Version 2 submissions: values that apply, typed bounds, review decisions, the chosen action,
draft values of a non-blocking action, plain form posts; and the one readable text of each."""

from __future__ import annotations

from typing import Any

import pytest

from tasksurface.domain.form_values import hunk_name, read_number, values_from_form
from tasksurface.domain.formatter import format_action, format_submission
from tasksurface.domain.model_v2 import PanelAction
from tasksurface.domain.refusals import SubmissionRefused
from tasksurface.domain.submission import initial_values, prepare_submission, validate_submission

from .builders import option
from .builders_v2 import (
    choice2,
    choices,
    date_field,
    multi2,
    number_field,
    parsed_v2,
    review_field,
    text2,
    toggle2,
    v2_model,
)


def offsite(**overrides: Any) -> Any:
    return parsed_v2(
        v2_model(
            number_field(minimum=2, maximum=40, integer=True, unit="people"),
            date_field(required=True),
            choice2(required=False),
            text2("why", "What instead?", required=True, visibleWhen={"field": "stay", "equals": "other"}),
            multi2(maxItems=2),
            toggle2(required=True),
            review_field(),
            **overrides,
        )
    )


def good(**overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "people": 8,
        "start": "2026-05-04",
        "stay": "hotel",
        "diet": ["veg"],
        "terms": True,
        "cfg": {"h1": "accept", "h2": "reject"},
    }
    values.update(overrides)
    return values


def problems(model: Any, values: Any, **kwargs: Any) -> list[tuple[str, str]]:
    with pytest.raises(SubmissionRefused) as info:
        validate_submission(model, values, **kwargs)
    return [(str(p.code), p.where) for p in info.value.problems]


def test_good_values_pass_and_a_hidden_field_is_not_part_of_them() -> None:
    checked, note = validate_submission(offsite(), good())
    assert checked == good() and note is None


def test_a_field_that_applies_is_required_and_one_that_does_not_is_refused() -> None:
    model = offsite()
    assert problems(model, good(stay="other")) == [("submission.missing-value", "why")]
    assert problems(model, good(stay="other", why="  ")) == [("submission.required", "why")]
    assert validate_submission(model, good(stay="other", why="A tent"))[0]["why"] == "A tent"
    assert problems(model, good(why="A tent")) == [("submission.hidden-field", "why")]


def test_each_bound_is_refused_beside_its_field() -> None:
    model = offsite()
    values = good(
        people=1, start="2026-02-30", diet=["veg", "vegan", "halal"], terms=False, cfg={"h1": "accept"}
    )
    assert problems(model, values) == [
        ("submission.below-minimum", "people"),
        ("submission.not-a-date", "start"),
        ("submission.too-many", "diet"),
        ("submission.required", "terms"),
        ("submission.undecided-hunk", "cfg"),
    ]


def test_optional_values_may_stay_unanswered() -> None:
    checked, _ = validate_submission(offsite(), good(people=None, stay=None, diet=[]))
    assert checked["people"] is None and checked["stay"] is None


@pytest.mark.parametrize(
    ("decisions", "expected"),
    [
        ([], "submission.wrong-type"),
        ({"h3": "accept"}, "submission.unknown-hunk"),
        ({"h1": "maybe", "h2": "accept"}, "submission.wrong-type"),
        ({"h1": None, "h2": "accept"}, "submission.undecided-hunk"),
    ],
)
def test_review_decisions_are_accept_or_reject_for_known_hunks(decisions: Any, expected: str) -> None:
    assert problems(offsite(), good(cfg=decisions)) == [(expected, "cfg")]


def test_an_optional_review_may_leave_hunks_undecided() -> None:
    model = parsed_v2(v2_model(review_field(required=False)))
    assert validate_submission(model, {"cfg": {"h2": "reject"}})[0] == {"cfg": {"h2": "reject"}}


def test_a_panel_with_submit_choices_needs_one_of_them() -> None:
    model = parsed_v2(v2_model(text2(), submit=choices(("ok", "Approve"), ("no", "Reject"))))
    assert problems(model, {"name": "x"}) == [("submission.action-required", "action")]
    assert problems(model, {"name": "x"}, action="maybe") == [("submission.unknown-action", "action")]
    assert problems(model, {"name": "x"}, action=1) == [("submission.unknown-action", "action")]
    assert validate_submission(model, {"name": "x"}, action="no")[0] == {"name": "x"}
    single = parsed_v2(v2_model(text2()))
    assert problems(single, {"name": "x"}, action="ok") == [("submission.unknown-action", "action")]


def test_draft_values_of_an_action_need_nothing_but_still_fit_their_types() -> None:
    model = offsite()
    draft = good(start=None, terms=False, cfg={})
    assert validate_submission(model, draft, draft=True)[0] == draft
    assert problems(model, good(people="many"), draft=True) == [("submission.wrong-type", "people")]
    assert problems(model, good(why="x"), draft=True) == [("submission.hidden-field", "why")]


def test_initial_values_of_the_new_kinds() -> None:
    model = parsed_v2(
        v2_model(
            number_field(initial=3), date_field(initial="2026-01-02"), review_field(), number_field("n2", "N")
        )
    )
    assert initial_values(model) == {"people": 3, "start": "2026-01-02", "cfg": {}, "n2": None}


# --- the readable text --------------------------------------------------------------------


def test_golden_text_of_every_new_kind() -> None:
    model = offsite(title="Book the offsite")
    _, _, text = prepare_submission(model, good(stay="other", why="A tent\nby the lake"), "Thanks")
    assert text == (
        "Task Surface: Book the offsite\n"
        "- People: 8 people\n"
        "- Start: 2026-05-04\n"
        "- Stay: Other\n"
        "- What instead?:\n"
        "    A tent\n"
        "    by the lake\n"
        "- Diet: Veg\n"
        "- Terms: yes\n"
        "- Config: accepted 1 of 2 changes\n"
        "    accepted: 1 (line 2)\n"
        "    rejected: 2 (after line 7)\n"
        "- Note: Thanks"
    )


def test_golden_text_of_unanswered_values_and_undecided_hunks() -> None:
    model = parsed_v2(
        v2_model(number_field(), date_field(), choice2(required=False), review_field(required=False))
    )
    text = format_submission(
        model, {"people": None, "start": None, "stay": None, "cfg": {"h1": "reject"}}, None
    )
    assert text == (
        "Task Surface: Plan the offsite\n"
        "- People: (not answered)\n"
        "- Start: (not answered)\n"
        "- Stay: (not answered)\n"
        "- Config: accepted 0 of 2 changes\n"
        "    rejected: 1 (line 2)\n"
        "    undecided: 2 (after line 7)"
    )


def test_golden_text_of_a_decision_with_its_reason() -> None:
    model = parsed_v2(v2_model(text2(), submit=choices(("ok", "Approve"), ("no", "Request changes"))))
    _, _, text = prepare_submission(model, {"name": "x"}, "Keep two workers", action="no")
    assert text == (
        "Task Surface: Plan the offsite\n- Decision: Request changes\n- Name: x\n- Reason: Keep two workers"
    )


def test_golden_text_of_an_action_message() -> None:
    model = parsed_v2(v2_model(number_field(unit="kg"), text2(), actions=[{"id": "dry", "label": "Dry run"}]))
    text = format_action(model, PanelAction(id="dry", label="Dry run"), {"people": 2.5, "name": ""})
    assert text == "Task Surface: Plan the offsite\n- Action: Dry run\n- People: 2.5 kg\n- Name: (empty)"


def test_numbers_read_as_json_writes_them() -> None:
    model = parsed_v2(v2_model(number_field(unit="m")))
    assert format_submission(model, {"people": 1e21}, None).endswith("- People: 1e+21 m")
    assert format_submission(model, {"people": -0.5}, None).endswith("- People: -0.5 m")


# --- plain form posts -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("12", 12),
        (" 2.5 ", 2.5),
        ("-3", -3),
        ("1e3", 1000.0),
        ("", None),
        ("  ", None),
        ("1,5", "1,5"),
        ("12abc", "12abc"),
        ("01", "01"),
        ("1e999", "1e999"),
    ],
)
def test_a_typed_number_is_read_as_json_would_read_it(typed: str, value: Any) -> None:
    assert read_number(typed) == value


def test_a_form_post_gives_the_values_that_apply() -> None:
    model = offsite()
    form = {
        "f.people": ["8"],
        "f.start": ["2026-05-04"],
        "f.stay": ["hotel"],
        "f.why": ["left over from before"],
        "f.diet": ["veg"],
        "f.terms": ["true"],
        hunk_name("cfg", "h1"): ["accept"],
        hunk_name("cfg", "h2"): ["reject"],
    }
    values = values_from_form(model, lambda name: form.get(name, []))
    assert values == good()  # `why` does not apply while the stay is a hotel


def test_a_form_post_with_nothing_typed_is_unanswered() -> None:
    values = values_from_form(offsite(), lambda name: [])
    assert (
        values["people"] is None
        and values["start"] is None
        and values["cfg"] == {}
        and values["terms"] is False
    )


def test_an_option_label_is_used_in_the_text_for_cards_too() -> None:
    model = parsed_v2(v2_model(choice2(presentation="cards", options=[option("h", "Hotel room")])))
    assert format_submission(model, {"stay": "h"}, None).endswith("- Stay: Hotel room")
