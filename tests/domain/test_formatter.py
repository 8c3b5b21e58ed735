"""Golden tests for the one readable text of a submission."""

from __future__ import annotations

from typing import Any

import pytest

from tasksurface.domain.formatter import INDENT, format_submission
from tasksurface.domain.model import TaskSurfaceModelV1
from tasksurface.domain.submission import prepare_submission

from .builders import (
    choice_field,
    column,
    diff_block,
    markdown_block,
    metric,
    metrics_block,
    minimal_model,
    model_with_fields,
    multi_choice_field,
    notice_block,
    option,
    order_field,
    parsed,
    section,
    table_block,
    text_field,
    toggle_field,
)

CHANNELS = [option("ch-stable", "Stable channel"), option("ch-beta", "Beta channel")]
PLATFORMS = [option("linux", "Linux"), option("mac", "macOS"), option("win", "Windows")]
STEPS = [option("build", "Build"), option("test", "Test"), option("ship", "Ship")]


def release_model(**overrides: Any) -> TaskSurfaceModelV1:
    return parsed(
        model_with_fields(
            text_field("summary", "Summary"),
            text_field("details", "Details", multiline=True),
            choice_field("target", "Target channel", options=CHANNELS),
            multi_choice_field("platforms", "Platforms", options=PLATFORMS),
            toggle_field("notify", "Notify users"),
            order_field("steps", "Steps", options=STEPS),
            title="Release plan",
            **overrides,
        )
    )


def release_values(**overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "summary": "Ship on Friday",
        "details": "First line\nSecond line\n\nFourth line",
        "target": "ch-beta",
        "platforms": ["win", "linux"],
        "notify": True,
        "steps": ["test", "build", "ship"],
    }
    values.update(overrides)
    return values


def one_field(field: dict[str, Any], value: Any, note: str | None = None) -> str:
    return format_submission(parsed(model_with_fields(field, title="Form")), {field["id"]: value}, note)


def test_full_submission_golden_text() -> None:
    text = format_submission(release_model(), release_values(), "Thanks!")
    assert text == (
        "Task Surface: Release plan\n"
        "- Summary: Ship on Friday\n"
        "- Details:\n"
        "    First line\n"
        "    Second line\n"
        "    \n"
        "    Fourth line\n"
        "- Target channel: Beta channel\n"
        "- Platforms: Windows, Linux\n"
        "- Notify users: yes\n"
        "- Steps: 1. Test, 2. Build, 3. Ship\n"
        "- Note: Thanks!"
    )


def test_title_line_comes_first() -> None:
    assert format_submission(release_model(), release_values(), None).split("\n")[0] == (
        "Task Surface: Release plan"
    )


def test_a_model_without_fields_formats_to_its_title() -> None:
    assert format_submission(parsed(minimal_model(title="Just look")), {}, None) == "Task Surface: Just look"


# --- text -------------------------------------------------------------------------------


def test_one_line_text() -> None:
    assert one_field(text_field("t", "Name"), "Ada") == "Task Surface: Form\n- Name: Ada"


def test_empty_text_is_marked_empty() -> None:
    assert one_field(text_field("t", "Name"), "") == "Task Surface: Form\n- Name: (empty)"


def test_multi_line_text_is_an_indented_block_keeping_every_line() -> None:
    text = one_field(text_field("t", "Plan", multiline=True), "one\n  two\n\n- three\n")
    assert text == "Task Surface: Form\n- Plan:\n    one\n      two\n    \n    - three\n    "


def test_a_multi_line_value_cannot_forge_another_field_line() -> None:
    text = one_field(text_field("t", "Plan", multiline=True), "ok\n- Approved: yes")
    assert "\n- Approved: yes" not in text
    assert text.endswith("\n    - Approved: yes")


# --- choice -----------------------------------------------------------------------------


def test_choice_shows_the_option_label_not_its_id() -> None:
    text = one_field(choice_field("c", "Channel", options=CHANNELS), "ch-stable")
    assert text == "Task Surface: Form\n- Channel: Stable channel"
    assert "ch-stable" not in text


def test_an_id_that_is_no_option_is_shown_as_itself() -> None:
    # Values are validated first; should one slip through, the text still names what was sent.
    assert one_field(choice_field("c", "Channel", options=CHANNELS), "ch-gone") == (
        "Task Surface: Form\n- Channel: ch-gone"
    )


# --- multi-choice -----------------------------------------------------------------------


def test_multi_choice_joins_labels_with_commas() -> None:
    text = one_field(multi_choice_field("m", "Platforms", options=PLATFORMS), ["linux", "mac", "win"])
    assert text == "Task Surface: Form\n- Platforms: Linux, macOS, Windows"


def test_multi_choice_keeps_the_submitted_order() -> None:
    text = one_field(multi_choice_field("m", "Platforms", options=PLATFORMS), ["mac", "linux"])
    assert text == "Task Surface: Form\n- Platforms: macOS, Linux"


def test_multi_choice_with_nothing_chosen_says_none() -> None:
    text = one_field(multi_choice_field("m", "Platforms", options=PLATFORMS), [])
    assert text == "Task Surface: Form\n- Platforms: (none)"


# --- toggle -----------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "shown"), [(True, "yes"), (False, "no")])
def test_toggle_is_yes_or_no(value: bool, shown: str) -> None:
    assert one_field(toggle_field("g", "Notify"), value) == f"Task Surface: Form\n- Notify: {shown}"


# --- order ------------------------------------------------------------------------------


def test_order_is_numbered_with_labels() -> None:
    text = one_field(order_field("o", "Steps", options=STEPS), ["ship", "build", "test"])
    assert text == "Task Surface: Form\n- Steps: 1. Ship, 2. Build, 3. Test"


def test_single_option_order() -> None:
    text = one_field(order_field("o", "Steps", options=[option("only", "Only step")]), ["only"])
    assert text == "Task Surface: Form\n- Steps: 1. Only step"


# --- note -------------------------------------------------------------------------------


def test_note_comes_last() -> None:
    text = format_submission(release_model(), release_values(), "See you")
    assert text.split("\n")[-1] == "- Note: See you"


def test_multi_line_note_is_an_indented_block() -> None:
    text = one_field(toggle_field("g", "Notify"), True, "first\nsecond")
    assert text == "Task Surface: Form\n- Notify: yes\n- Note:\n    first\n    second"


@pytest.mark.parametrize("note", [None, ""])
def test_no_note_line_without_a_note(note: str | None) -> None:
    text = format_submission(release_model(), release_values(), note)
    assert "Note" not in text
    assert text.split("\n")[-1] == "- Steps: 1. Test, 2. Build, 3. Ship"


def test_prepare_submission_drops_a_blank_note_from_the_text() -> None:
    _, note, text = prepare_submission(release_model(), release_values(), "   ")
    assert note is None
    assert text == format_submission(release_model(), release_values(), None)


# --- determinism and what is never repeated ---------------------------------------------


def test_same_input_gives_the_same_text() -> None:
    first = format_submission(release_model(), release_values(), "n")
    second = format_submission(release_model(), release_values(), "n")
    assert first == second


def test_field_order_comes_from_the_model_not_the_values() -> None:
    values = release_values()
    shuffled = {k: values[k] for k in ["steps", "notify", "summary", "platforms", "target", "details"]}
    assert format_submission(release_model(), shuffled, None) == format_submission(
        release_model(), values, None
    )


def test_the_display_model_is_never_repeated() -> None:
    model = parsed(
        model_with_fields(
            text_field("summary", "Summary"),
            choice_field(
                "target",
                "Target channel",
                options=[
                    option("ch-stable", "Stable channel", detail="SECRET-OPTION-DETAIL"),
                    option("ch-beta", "Beta channel"),
                ],
            ),
            title="Release plan",
            description="SECRET-DESCRIPTION",
            sections=[
                section(
                    "secret-section-id",
                    title="SECRET-SECTION-TITLE",
                    blocks=[
                        markdown_block("SECRET-MARKDOWN **bold**"),
                        metrics_block([metric("SECRET-METRIC-LABEL", "SECRET-METRIC-VALUE")]),
                        table_block([column("c", "SECRET-COLUMN")], [{"c": "SECRET-CELL"}]),
                        diff_block(before="SECRET-BEFORE", after="SECRET-AFTER", path="SECRET-PATH"),
                        notice_block("warning", "SECRET-NOTICE"),
                    ],
                )
            ],
            submit={"label": "SECRET-SUBMIT"},
        )
    )
    text = format_submission(model, {"summary": "fine", "target": "ch-beta"}, None)
    assert text == "Task Surface: Release plan\n- Summary: fine\n- Target channel: Beta channel"
    assert "SECRET" not in text.upper()
    assert "secret-section-id" not in text
    assert "Stable channel" not in text  # an option that was not chosen is not listed


def test_field_ids_do_not_appear() -> None:
    text = format_submission(release_model(), release_values(), None)
    for field_id in ("summary", "details", "target", "platforms", "notify", "steps", "ch-beta", "win"):
        assert field_id not in text


@pytest.mark.parametrize("separator", ["\r", "\u2028", "\u2029", "\x85", "\v", "\f"])
def test_any_line_break_in_submitted_text_is_indented_so_it_cannot_forge_a_field_line(separator: str) -> None:
    model = parsed(minimal_model(fields=[{"kind": "text", "id": "t", "label": "Comment"}]))
    text = format_submission(model, {"t": f"fine{separator}- Approved: yes"}, None)
    assert "\n- Approved" not in text
    assert text.endswith(f"- Comment:\n{INDENT}fine\n{INDENT}- Approved: yes")
