"""Property tests: every valid model parses and normalises idempotently; every broken one is refused."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tasksurface.domain.formatter import format_submission
from tasksurface.domain.parser import parse_arguments, parse_model
from tasksurface.domain.refusals import SubmissionRefused, SurfaceCode, SurfaceRefused
from tasksurface.domain.submission import initial_values, validate_submission

from .strategies import cell_values, json_values, valid_models

Json = dict[str, Any]
Path = tuple[str | int, ...]

PROPERTY_SETTINGS = settings(max_examples=100, deadline=None)

BLOCK_KINDS = {"markdown", "metrics", "table", "diff", "notice"}
FIELD_KINDS = {"text", "choice", "multi-choice", "toggle", "order"}
LAYOUT_KINDS = {"stack", "grid"}

REQUIRED: dict[str, tuple[str, ...]] = {
    "model": ("version", "title", "sections", "submit"),
    "section": ("id", "blocks"),
    "layout:stack": ("kind",),
    "layout:grid": ("kind", "columns"),
    "block:markdown": ("kind", "text"),
    "block:metrics": ("kind", "items"),
    "block:table": ("kind", "columns", "rows"),
    "block:diff": ("kind", "before", "after"),
    "block:notice": ("kind", "tone", "text"),
    "metric": ("label", "value"),
    "column": ("id", "label"),
    "field:text": ("kind", "id", "label"),
    "field:toggle": ("kind", "id", "label"),
    "field:choice": ("kind", "id", "label", "options"),
    "field:multi-choice": ("kind", "id", "label", "options"),
    "field:order": ("kind", "id", "label", "options"),
    "option": ("id", "label"),
    "submit": ("label",),
}

# Keys whose value must be a string, a bool or a list; `None` is only wrong where not nullable.
STRING_KEYS = {"title", "id", "label", "value", "text", "after", "tone"}
NULLABLE_STRING_KEYS = {"description", "detail", "path", "language", "before"}
BOOL_KEYS = {"multiline", "required"}
LIST_KEYS = {"sections", "fields", "blocks", "items", "columns", "rows", "options"}


def objects(model: Json) -> list[tuple[Path, str]]:
    """Every JSON object in a model with what it is; table rows are tagged `row`."""
    found: list[tuple[Path, str]] = [((), "model"), (("submit",), "submit")]
    for i, section in enumerate(model["sections"]):
        sp: Path = ("sections", i)
        found.append((sp, "section"))
        if "layout" in section:
            found.append(((*sp, "layout"), f"layout:{section['layout']['kind']}"))
        for j, block in enumerate(section["blocks"]):
            bp: Path = (*sp, "blocks", j)
            found.append((bp, f"block:{block['kind']}"))
            if block["kind"] == "metrics":
                found.extend(((*bp, "items", k), "metric") for k in range(len(block["items"])))
            if block["kind"] == "table":
                found.extend(((*bp, "columns", k), "column") for k in range(len(block["columns"])))
                found.extend(((*bp, "rows", k), "row") for k in range(len(block["rows"])))
    for i, field in enumerate(model.get("fields", [])):
        fp: Path = ("fields", i)
        found.append((fp, f"field:{field['kind']}"))
        found.extend(((*fp, "options", k), "option") for k in range(len(field.get("options", []))))
    return found


def at(model: Json, path: Path) -> Any:
    node: Any = model
    for part in path:
        node = node[part]
    return node


def assert_refused(data: Any, *codes: str) -> None:
    """Refused with one of `codes` both as decoded data and as raw argument text."""
    attempt: Callable[[], object]
    for attempt in (lambda: parse_model(data), lambda: parse_arguments(json.dumps({"model": data}))):
        try:
            attempt()
        except SurfaceRefused as refusal:
            assert refusal.code in codes, (refusal.problem, codes)
        else:
            raise AssertionError(f"accepted a broken model; expected {codes}")


def expected_normal_form(data: Json) -> Json:
    """An independent statement of normalisation: defaults written, absent optionals dropped."""
    model = copy.deepcopy(data)

    def drop_none(obj: Json, *keys: str) -> None:
        for key in keys:
            if obj.get(key, "") is None:
                del obj[key]

    drop_none(model, "description")
    model.setdefault("fields", [])
    for section in model["sections"]:
        drop_none(section, "title")
        section.setdefault("layout", {"kind": "stack"})
        for block in section["blocks"]:
            if block["kind"] == "metrics":
                for item in block["items"]:
                    drop_none(item, "detail")
            if block["kind"] == "diff":
                drop_none(block, "path", "language")
    for field in model["fields"]:
        drop_none(field, "initial")
        if field["kind"] == "text":
            field.setdefault("multiline", False)
            field.setdefault("required", False)
        for option in field.get("options", []):
            drop_none(option, "detail")
    return model


# --- valid models -----------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(valid_models())
def test_valid_models_parse_from_data_and_from_argument_text(data: Json) -> None:
    model = parse_model(data)
    assert parse_arguments(json.dumps({"model": data})).normalised() == model.normalised()


@PROPERTY_SETTINGS
@given(valid_models())
def test_normalisation_is_idempotent(data: Json) -> None:
    once = parse_model(data).normalised()
    twice = parse_model(once).normalised()
    assert twice == once
    assert parse_model(json.loads(json.dumps(once))).normalised() == once


@PROPERTY_SETTINGS
@given(valid_models())
def test_normalisation_only_writes_defaults_and_drops_absent_optionals(data: Json) -> None:
    assert parse_model(data).normalised() == expected_normal_form(data)


# --- broken models ----------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(valid_models(), st.data())
def test_dropping_a_required_key_is_refused(data: Json, draw: st.DataObject) -> None:
    candidates = [(path, key) for path, tag in objects(data) if tag != "row" for key in REQUIRED[tag]]
    path, key = draw.draw(st.sampled_from(candidates))
    del at(data, path)[key]
    expected = {"version": SurfaceCode.UNSUPPORTED_VERSION, "kind": SurfaceCode.UNKNOWN_KIND}
    assert_refused(data, expected.get(key, SurfaceCode.SCHEMA))


@PROPERTY_SETTINGS
@given(valid_models(), st.data())
def test_adding_an_unknown_key_is_refused(data: Json, draw: st.DataObject) -> None:
    path, tag = draw.draw(st.sampled_from(objects(data)))
    # No model property has these names, and the space keeps the last one from being a column id.
    names = ["not a column"] if tag == "row" else ["html", "onClick", "style", "script", "not a column"]
    key = draw.draw(st.sampled_from(names))
    # A row's value must be a fine cell, so that the undeclared column is the only fault.
    value = draw.draw(cell_values if tag == "row" else json_values)
    at(data, path)[key] = value
    assert_refused(data, SurfaceCode.UNKNOWN_COLUMN if tag == "row" else SurfaceCode.UNKNOWN_PROPERTY)


@PROPERTY_SETTINGS
@given(valid_models(), st.data())
def test_an_unknown_kind_is_refused(data: Json, draw: st.DataObject) -> None:
    kinded = [(p, t) for p, t in objects(data) if t.split(":")[0] in ("layout", "block", "field")]
    if not kinded:  # a fields-free model with default layouts still has blocks; guard anyway
        return
    path, tag = draw.draw(st.sampled_from(kinded))
    known = {"layout": LAYOUT_KINDS, "block": BLOCK_KINDS, "field": FIELD_KINDS}[tag.split(":")[0]]
    at(data, path)["kind"] = draw.draw(st.text(max_size=12).filter(lambda k: k not in known))
    assert_refused(data, SurfaceCode.UNKNOWN_KIND)


@PROPERTY_SETTINGS
@given(valid_models(), st.data())
def test_a_duplicate_id_is_refused(data: Json, draw: st.DataObject) -> None:
    data.setdefault("fields", [])
    top = [("sections", i) for i in range(len(data["sections"]))] + [
        ("fields", i) for i in range(len(data["fields"]))
    ]
    # Lists of objects whose ids must be unique among themselves, with at least two members.
    groups: list[Sequence[Path]] = [top]
    for path, tag in objects(data):
        if tag == "block:table":
            groups.append([(*path, "columns", k) for k in range(len(at(data, path)["columns"]))])
        if tag.startswith("field:") and "options" in at(data, path):
            groups.append([(*path, "options", k) for k in range(len(at(data, path)["options"]))])
    groups = [g for g in groups if len(g) >= 2]
    if not groups:
        first = at(data, top[0])
        data["fields"].append({"kind": "toggle", "id": first["id"], "label": "copy"})
    else:
        group = draw.draw(st.sampled_from(groups))
        source, target = draw.draw(st.permutations(group))[:2]
        at(data, target)["id"] = at(data, source)["id"]
    assert_refused(data, SurfaceCode.DUPLICATE_ID)


WRONG_FOR = {
    "string": st.sampled_from([7, True, False, [], {}, 1.5, ["text"]]),
    "nullable": st.sampled_from([7, True, [], {}, 2.5]),
    "bool": st.sampled_from(["true", "false", 1, 0, [], {}, None]),
    "list": st.sampled_from(["x", 3, {}, True, None]),
}


@PROPERTY_SETTINGS
@given(valid_models(), st.data())
def test_a_wrong_typed_value_is_refused(data: Json, draw: st.DataObject) -> None:
    candidates: list[tuple[Path, str, str]] = []
    for path, tag in objects(data):
        obj = at(data, path)
        if tag == "row":
            candidates.extend((path, key, "cell") for key in obj)
            continue
        for key in obj:
            if key == "columns" and tag == "layout:grid":
                candidates.append((path, key, "nullable"))
            elif key in STRING_KEYS:
                candidates.append((path, key, "string"))
            elif key in NULLABLE_STRING_KEYS:
                candidates.append((path, key, "nullable"))
            elif key in BOOL_KEYS:
                candidates.append((path, key, "bool"))
            elif key in LIST_KEYS:
                candidates.append((path, key, "list"))
            elif key == "initial":
                kind = tag.split(":")[1]
                shape = {"text": "nullable", "choice": "nullable", "toggle": "bool"}.get(kind, "list")
                candidates.append((path, key, shape))
    path, key, shape = draw.draw(st.sampled_from(candidates))
    wrong: object
    if shape == "cell":
        wrong = draw.draw(st.sampled_from([[], {}, ["a"], {"a": 1}]))
    elif shape == "bool" and key == "initial":
        wrong = draw.draw(st.sampled_from(["true", 1, 0, [], {}]))  # a toggle's initial may be null
    elif shape == "list" and key == "initial":
        wrong = draw.draw(st.sampled_from(["x", 3, {}, True]))  # so may a list initial
    else:
        wrong = draw.draw(WRONG_FOR[shape])
    at(data, path)[key] = wrong
    assert_refused(data, SurfaceCode.SCHEMA)


@PROPERTY_SETTINGS
@given(valid_models(), st.data(), json_values)
def test_any_node_replaced_by_any_json_parses_or_is_refused(
    data: Json, draw: st.DataObject, replacement: Any
) -> None:
    path, _ = draw.draw(st.sampled_from(objects(data)))
    parent = at(data, path)
    if parent:
        key = draw.draw(st.sampled_from(sorted(parent)))
        parent[key] = replacement
    try:
        model = parse_model(data)
    except SurfaceRefused as refusal:
        # Refused with a typed code at a place inside the model, never with a crash.
        assert refusal.code in set(SurfaceCode), refusal
        assert refusal.problem.where.startswith("model") or refusal.code == SurfaceCode.EMPTY, refusal
        return
    assert parse_model(model.normalised()) == model  # what parses is a fixed point of parsing


@PROPERTY_SETTINGS
@given(json_values)
def test_arbitrary_json_as_a_model_is_refused_without_crashing(value: Any) -> None:
    try:
        parse_model(value)
    except SurfaceRefused:
        return
    raise AssertionError("arbitrary JSON made a model")


@PROPERTY_SETTINGS
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_arbitrary_argument_text_is_refused_without_crashing(raw: str | bytes) -> None:
    try:
        parse_arguments(raw)
    except SurfaceRefused:
        return
    raise AssertionError("arbitrary text made a model")


# --- submissions against valid models ---------------------------------------------------


def answered(data: Json) -> dict[str, Any]:
    model = parse_model(data)
    values = initial_values(model)
    for field in model.fields:
        if field.kind == "choice" and values[field.id] is None:
            values[field.id] = field.options[0].id
        if field.kind == "text" and field.required and not values[field.id].strip():
            values[field.id] = "answer"
    return values


@PROPERTY_SETTINGS
@given(valid_models())
def test_answered_initial_values_validate_and_format_deterministically(data: Json) -> None:
    model = parse_model(data)
    checked, note = validate_submission(model, answered(data), "a note")
    assert list(checked) == [f.id for f in model.fields]
    text = format_submission(model, checked, note)
    assert text == format_submission(parse_model(model.normalised()), checked, note)
    assert text.startswith(f"Task Surface: {model.title}")
    assert text.endswith("- Note: a note")


@PROPERTY_SETTINGS
@given(valid_models(), st.dictionaries(st.text(max_size=8), json_values, max_size=6), json_values)
def test_arbitrary_values_are_accepted_or_refused_without_crashing(
    data: Json, values: dict[str, Any], note: Any
) -> None:
    model = parse_model(data)
    try:
        checked, clean_note = validate_submission(model, values, note)
    except SubmissionRefused as refusal:
        assert refusal.problems
        return
    format_submission(model, checked, clean_note)
