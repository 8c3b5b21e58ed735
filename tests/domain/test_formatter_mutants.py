"""The readable text of the version 2 kinds, the decision and its reason, and the line breaks
that turn a value into an indented block, each written out."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tasksurface.domain.formatter import format_action, format_number, format_submission
from tasksurface.domain.model_v2 import PanelAction

from .builders import choice_field, model_with_fields, parsed, text_field
from .builders_v2 import choices, date_field, number_field, parsed_v2, review_field, text2, v2_model

Json = dict[str, Any]


def comparison(select: str = "one", **extra: Any) -> Json:
    return {
        "kind": "comparison",
        "id": "laptop",
        "label": "Laptop",
        "select": select,
        "properties": [{"id": "ram", "label": "Memory"}],
        "candidates": [{"id": "aero", "label": "Aero 13"}, {"id": "book", "label": "Book 14"}],
        "required": False,
        **extra,
    }


def itinerary(**extra: Any) -> Json:
    places = [
        {"id": "castle", "label": "Castle", "lat": 38.71, "lon": -9.13},
        {"id": "tower", "label": "Tower", "lat": 38.69, "lon": -9.21},
    ]
    return {"kind": "itinerary", "id": "day", "label": "Stops", "places": places, **extra}


def line_of(field: Json, value: Any) -> str:
    """The text of a one-field version 2 panel, without its title line."""
    text = format_submission(parsed_v2(v2_model(field, title="Form")), {field["id"]: value}, None)
    title, _, rest = text.partition("\n")
    assert title == "Task Surface: Form"
    return rest


# --- comparisons and itineraries ------------------------------------------------------------


def test_a_comparison_of_one_shows_the_candidate_label() -> None:
    assert line_of(comparison(), "book") == "- Laptop: Book 14"


def test_an_unanswered_comparison_of_one_is_not_answered() -> None:
    assert line_of(comparison(), None) == "- Laptop: (not answered)"


def test_a_comparison_of_many_joins_labels_in_the_order_sent() -> None:
    assert line_of(comparison("many"), ["book", "aero"]) == "- Laptop: Book 14, Aero 13"


@pytest.mark.parametrize("value", [[], None])
def test_an_empty_comparison_of_many_says_none(value: Any) -> None:
    assert line_of(comparison("many"), value) == "- Laptop: (none)"


def test_a_candidate_id_that_is_no_candidate_is_shown_as_itself() -> None:
    assert line_of(comparison(), "gone") == "- Laptop: gone"
    assert line_of(comparison("many"), ["aero", "gone"]) == "- Laptop: Aero 13, gone"


def test_an_itinerary_numbers_its_stops_from_one() -> None:
    assert line_of(itinerary(), ["tower", "castle"]) == "- Stops: 1. Tower, 2. Castle"


def test_an_itinerary_without_stops_says_so() -> None:
    assert line_of(itinerary(), []) == "- Stops: (no stops)"


def test_a_place_id_that_is_no_place_is_shown_as_itself() -> None:
    assert line_of(itinerary(), ["castle", "gone"]) == "- Stops: 1. Castle, 2. gone"


# --- numbers, dates and reviews ---------------------------------------------------------------


def test_numbers_are_written_as_json_writes_them() -> None:
    assert format_number(2) == "2"
    assert format_number(2.0) == "2.0"
    assert format_number(2.5, "kg") == "2.5 kg"
    assert format_number(3, "") == "3"
    assert format_number(3, None) == "3"


def test_a_number_line_with_and_without_a_unit() -> None:
    assert line_of(number_field(unit="kg"), 0) == "- People: 0 kg"
    assert line_of(number_field(), 12) == "- People: 12"
    assert line_of(number_field(unit="kg"), None) == "- People: (not answered)"


@pytest.mark.parametrize("value", [None, ""])
def test_a_date_without_a_value_is_not_answered(value: Any) -> None:
    assert line_of(date_field(), value) == "- Start: (not answered)"


def test_a_date_is_shown_as_sent() -> None:
    assert line_of(date_field(), "2026-05-04") == "- Start: 2026-05-04"


def test_a_review_groups_its_hunks_by_decision_in_a_fixed_order() -> None:
    text = line_of(review_field(), {"h2": "accept", "h1": "accept"})
    assert text == "- Config: accepted 2 of 2 changes\n    accepted: 1 (line 2), 2 (after line 7)"
    text = line_of(review_field(), {"h2": "reject", "h1": None})
    assert text == (
        "- Config: accepted 0 of 2 changes\n    rejected: 2 (after line 7)\n    undecided: 1 (line 2)"
    )


def test_a_review_with_no_decision_lists_every_hunk_undecided() -> None:
    assert line_of(review_field(), {}) == (
        "- Config: accepted 0 of 2 changes\n    undecided: 1 (line 2), 2 (after line 7)"
    )


# --- the decision and the note --------------------------------------------------------------


def panel_with_choices() -> Any:
    return parsed_v2(v2_model(text2(), submit=choices(("ok", "Approve"), ("no", "Request changes"))))


def test_a_decision_comes_right_after_the_title_and_its_note_is_the_reason() -> None:
    text = format_submission(panel_with_choices(), {"name": "x"}, "first\nsecond", "ok")
    assert text == (
        "Task Surface: Plan the offsite\n- Decision: Approve\n- Name: x\n- Reason:\n    first\n    second"
    )


def test_without_a_decision_the_note_is_a_note() -> None:
    text = format_submission(panel_with_choices(), {"name": "x"}, "fine", None)
    assert text == "Task Surface: Plan the offsite\n- Name: x\n- Note: fine"
    text = format_submission(panel_with_choices(), {"name": "x"}, "fine", "")
    assert text == "Task Surface: Plan the offsite\n- Name: x\n- Note: fine"


def test_an_action_that_is_no_submit_choice_gives_no_decision_line() -> None:
    text = format_submission(panel_with_choices(), {"name": "x"}, "fine", "gone")
    assert text == "Task Surface: Plan the offsite\n- Name: x\n- Note: fine"


def test_a_version_1_panel_has_no_decision_line() -> None:
    model = parsed(model_with_fields(text_field("t", "Name"), title="Form"))
    assert (
        format_submission(model, {"t": "Ada"}, "ok", "approve")
        == "Task Surface: Form\n- Name: Ada\n- Note: ok"
    )


def test_an_unanswered_version_1_choice_is_not_answered() -> None:
    model = parsed(model_with_fields(choice_field("c", "Channel"), title="Form"))
    assert format_submission(model, {"c": None}, None) == "Task Surface: Form\n- Channel: (not answered)"


def test_an_action_message_lists_only_the_values_given() -> None:
    model = parsed_v2(v2_model(number_field(), text2(), actions=[{"id": "dry", "label": "Dry run"}]))
    text = format_action(model, PanelAction(id="dry", label="Dry run"), {"name": "two\nlines"})
    assert text == "Task Surface: Plan the offsite\n- Action: Dry run\n- Name:\n    two\n    lines"


def test_a_field_without_a_line_format_is_a_type_error() -> None:
    odd = SimpleNamespace(title="Odd", fields=[SimpleNamespace(id="x")])
    with pytest.raises(TypeError) as info:
        format_submission(odd, {"x": 1}, None)  # type: ignore[arg-type]
    assert str(info.value) == "no line format for a SimpleNamespace"


# --- line breaks ------------------------------------------------------------------------------


def test_a_windows_line_end_is_one_break() -> None:
    assert line_of(text2(), "one\r\ntwo") == "- Name:\n    one\n    two"


def test_a_lone_carriage_return_then_a_new_line_is_still_one_break() -> None:
    assert line_of(text2(), "one\r\n\ntwo") == "- Name:\n    one\n    \n    two"


@pytest.mark.parametrize("separator", ["\x1c", "\x1d", "\x1e", "\n"])
def test_the_information_separators_break_lines_too(separator: str) -> None:
    assert line_of(text2(), f"one{separator}- Approved: yes") == "- Name:\n    one\n    - Approved: yes"


def test_a_tab_is_no_line_break() -> None:
    assert line_of(text2(), "one\ttwo") == "- Name: one\ttwo"
