"""The provisional preview of a panel whose arguments are still streaming."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tasksurface.backends.demos import DEMOS
from tasksurface.domain.limits import Limits
from tasksurface.domain.preview import Preview, PreviewBlock, PreviewField, PreviewSection, preview

from .strategies import valid_models

PROPERTY_SETTINGS = settings(max_examples=30, deadline=None)


def arguments(model: dict[str, Any]) -> str:
    """As the scripted agent writes them."""
    return json.dumps({"model": model}, ensure_ascii=False)


def grows(before: Preview | None, after: Preview | None) -> bool:
    """`after` shows all `before` showed, in the same places (and maybe more)."""
    if before is None:
        return True
    if after is None or before.title not in (None, after.title):
        return False
    if before.description not in (None, after.description) or len(before.sections) > len(after.sections):
        return False
    for old, new in zip(before.sections, after.sections, strict=False):
        if old.title not in (None, new.title) or new.blocks[: len(old.blocks)] != old.blocks:
            return False
    return after.fields[: len(before.fields)] == before.fields and (after.whole or not before.whole)


def check_every_prefix(text: str, model: dict[str, Any]) -> None:
    last: Preview | None = None
    for end in range(len(text) + 1):
        shown = preview(text[:end])
        assert grows(last, shown), (text[:end], last, shown)
        last = shown
    if last is None:  # nothing to show, even whole
        assert not model["title"].strip() and not model["sections"] and not model.get("fields")
        return
    assert last.whole
    assert len(last.sections) == len(model["sections"])
    assert [len(s.blocks) for s in last.sections] == [len(s["blocks"]) for s in model["sections"]]
    assert [f.label for f in last.fields] == [" ".join(f["label"].split()) for f in model.get("fields", [])]


@pytest.mark.parametrize("demo", sorted(DEMOS))
def test_every_prefix_of_a_shipped_demo_gives_a_growing_preview(demo: str) -> None:
    check_every_prefix(arguments(DEMOS[demo]), DEMOS[demo])


@PROPERTY_SETTINGS
@given(valid_models(), st.booleans())
def test_every_prefix_of_any_model_gives_a_growing_preview(model: dict[str, Any], pretty: bool) -> None:
    text = json.dumps({"model": model}, indent=1 if pretty else None)
    check_every_prefix(text, model)


@PROPERTY_SETTINGS
@given(st.text(max_size=200))
def test_junk_gives_no_preview_or_one_never_an_exception(text: str) -> None:
    shown = preview(text)
    assert shown is None or isinstance(shown, Preview)


@pytest.mark.parametrize(
    "text",
    ["", "junk", "[1, 2", '{"model": [', '{"model": "x"}', '{"other": {"title": "T"}}', "[" * 5000, "\ud800"],
)
def test_text_that_is_no_panel_shows_nothing(text: str) -> None:
    assert preview(text) is None


def test_the_title_shows_once_its_string_is_whole() -> None:
    assert preview('{"model": {"version": 1, "title": "Pick a data') is None
    shown = preview('{"model": {"version": 1, "title": "Pick a database"')
    assert shown is not None and shown.title == "Pick a database" and not shown.whole


def test_a_block_shows_once_a_later_one_has_begun_or_its_section_closed() -> None:
    head = '{"model": {"title": "T", "sections": [{"id": "a", "title": "First", "blocks": ['
    one = '{"kind": "notice", "tone": "info", "text": "Look"}'
    assert preview(head + one) == Preview("T", None, (PreviewSection("First", ()),), (), False)
    shown = preview(head + one + ", {")
    assert shown is not None and shown.sections[0].blocks == (PreviewBlock("notice", "Look"),)
    closed = preview(head + one + "]}, {")
    assert closed is not None and closed.sections == (
        PreviewSection("First", (PreviewBlock("notice", "Look"),)),
    )


def test_the_last_value_of_an_open_object_is_not_taken_as_finished() -> None:
    # 12 may be the start of 120: the table's rows are only counted once the block is done.
    text = '{"model": {"title": "T", "sections": [{"id": "a", "blocks": [{"kind": "table", "columns": '
    text += '[{"id": "n", "label": "N"}], "rows": [{"n": 1}, {"n": 12'
    shown = preview(text)
    assert shown is not None and shown.sections == ()
    done = preview(text + '}]}]}], "fields": [')
    assert done is not None and done.sections[0].blocks == (PreviewBlock("table", "N", 2),)


def test_fields_show_with_their_labels_once_finished() -> None:
    text = (
        '{"model": {"title": "T", "sections": [], "fields": [{"kind": "text", "id": "a", "label": "Name"}, '
    )
    text += '{"kind": "choice", "id": "b", "label": "Colour", "options": [{"id": "r", "label": "Red"}'
    shown = preview(text)
    assert shown is not None and shown.fields == (PreviewField("text", "Name"),)


def test_display_strings_are_redacted_and_bounded() -> None:
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0" * 2
    model = {
        "title": f"Rotate {key}",
        "sections": [{"id": "s", "blocks": [{"kind": "markdown", "text": "word " * 200}]}],
    }
    shown = preview(arguments(model))
    assert shown is not None and shown.title is not None
    assert key not in shown.title and "[redacted]" in shown.title
    summary = shown.sections[0].blocks[0].summary
    assert len(summary) <= 160 and summary.endswith("…")


def test_arguments_beyond_the_model_limit_are_not_previewed() -> None:
    text = arguments({"title": "T", "sections": [], "description": "x" * 600})
    assert preview(text, Limits(model_bytes=len(text) + 1)) is not None
    assert preview(text, Limits(model_bytes=len(text) - 1)) is None
    assert preview(text.replace("x", "é"), Limits(model_bytes=len(text) + 1)) is None  # bytes, not characters


def test_unknown_kinds_show_as_a_plain_block_or_field() -> None:
    model = {
        "title": "T",
        "sections": [{"id": "s", "blocks": [{"kind": "video", "src": "x"}, "junk"]}],
        "fields": [{"kind": "slider", "label": "Level"}, {"kind": "text"}, 3],
    }
    shown = preview(arguments(model))
    assert shown is not None
    assert shown.sections[0].blocks == (PreviewBlock("block"),)
    assert shown.fields == (PreviewField("field", "Level"), PreviewField("text", ""))


def test_a_markdown_glimpse_reads_as_text_without_marks_or_addresses() -> None:
    text = "## Summary\n- item `two`\n![chart](https://example.org/c.png) **bold** snake_case [notes](https://x.example)"
    model = {"title": "T", "sections": [{"id": "s", "blocks": [{"kind": "markdown", "text": text}]}]}
    shown = preview(arguments(model))
    assert shown is not None
    assert shown.sections[0].blocks == (
        PreviewBlock("markdown", "Summary item two chart bold snake_case notes"),
    )
