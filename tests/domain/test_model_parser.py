"""The parser: raw `show_task_surface` arguments → one normalised model or one typed refusal."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from tasksurface.domain import strict_json
from tasksurface.domain.limits import DEFAULT_LIMITS, Limits
from tasksurface.domain.model import MarkdownBlock, TableBlock, TaskSurfaceModelV1
from tasksurface.domain.parser import decode_arguments, parse_arguments, parse_model
from tasksurface.domain.refusals import Problem, SurfaceCode, SurfaceRefused

from .builders import (
    BLOCK_BUILDERS,
    FIELD_BUILDERS,
    OPTION_FIELD_BUILDERS,
    arguments,
    choice_field,
    column,
    diff_block,
    full_model,
    markdown_block,
    metric,
    metrics_block,
    minimal_model,
    model_with_blocks,
    model_with_fields,
    multi_choice_field,
    notice_block,
    option,
    order_field,
    section,
    table_block,
    text_field,
    toggle_field,
)

Json = dict[str, Any]


def refused(data: Any, limits: Limits = DEFAULT_LIMITS) -> SurfaceRefused:
    with pytest.raises(SurfaceRefused) as info:
        parse_model(data, limits)
    return info.value


def refused_args(raw: Any, limits: Limits = DEFAULT_LIMITS) -> SurfaceRefused:
    with pytest.raises(SurfaceRefused) as info:
        parse_arguments(raw, limits)
    return info.value


def assert_limit(refusal: SurfaceRefused, message: str, where: str) -> None:
    """A limit refusal names its limit and the place it applies to, both exactly."""
    assert refusal.problem == Problem(SurfaceCode.LIMIT, message, where)


# --- every kind parses ------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(BLOCK_BUILDERS))
def test_every_block_kind_parses(kind: str) -> None:
    block = BLOCK_BUILDERS[kind]()
    model = parse_model(model_with_blocks(block))
    assert model.normalised()["sections"][0]["blocks"] == [block]


@pytest.mark.parametrize("kind", sorted(FIELD_BUILDERS))
def test_every_field_kind_parses(kind: str) -> None:
    field = FIELD_BUILDERS[kind]()
    model = parse_model(model_with_fields(field))
    (normalised,) = model.normalised()["fields"]
    assert normalised["kind"] == kind
    assert normalised["id"] == field["id"]
    assert model.field(field["id"]) is model.fields[0]


def test_every_tone_parses() -> None:
    for tone in ("neutral", "info", "warning"):
        blocks = parse_model(model_with_blocks(notice_block(tone))).normalised()["sections"][0]["blocks"]
        assert blocks == [{"kind": "notice", "tone": tone, "text": "Heads up."}]


def test_full_model_normalises_to_the_exact_canonical_form() -> None:
    normalised = parse_model(full_model()).normalised()
    assert normalised == {
        "version": 1,
        "title": "Review the release",
        "description": "Everything needed to decide.",
        "sections": [
            {
                "id": "summary",
                "title": "Summary",
                "layout": {"kind": "grid", "columns": 2},
                "blocks": [
                    {"kind": "markdown", "text": "Read **this** first."},
                    {
                        "kind": "metrics",
                        "items": [
                            {"label": "Errors", "value": "3", "detail": "in the last hour"},
                            {"label": "Latency", "value": "120 ms"},
                        ],
                    },
                ],
            },
            {
                "id": "details",
                "title": "Details",
                "layout": {"kind": "stack"},
                "blocks": [
                    {
                        "kind": "table",
                        "columns": [{"id": "name", "label": "Name"}, {"id": "size", "label": "Size"}],
                        "rows": [{"name": "core", "size": 12}, {"name": "web", "size": None}],
                    },
                    {
                        "kind": "diff",
                        "path": "src/app.py",
                        "before": "old\n",
                        "after": "new\n",
                        "language": "python",
                    },
                    {"kind": "diff", "before": None, "after": "brand new\n"},
                    {"kind": "notice", "tone": "warning", "text": "This cannot be undone."},
                ],
            },
        ],
        "fields": [
            {
                "kind": "text",
                "id": "summary_text",
                "label": "Summary",
                "multiline": True,
                "required": True,
                "initial": "Looks good",
            },
            {
                "kind": "choice",
                "id": "target",
                "label": "Target",
                "options": [
                    {"id": "stable", "label": "Stable", "detail": "Everyone"},
                    {"id": "beta", "label": "Beta"},
                ],
                "initial": "beta",
            },
            {
                "kind": "multi-choice",
                "id": "extras",
                "label": "Extras",
                "options": [
                    {"id": "alpha", "label": "Alpha"},
                    {"id": "beta", "label": "Beta"},
                    {"id": "gamma", "label": "Gamma"},
                ],
                "initial": ["alpha", "gamma"],
            },
            {"kind": "toggle", "id": "notify", "label": "Notify users", "initial": True},
            {
                "kind": "order",
                "id": "steps",
                "label": "Steps",
                "options": [
                    {"id": "alpha", "label": "Alpha"},
                    {"id": "beta", "label": "Beta"},
                    {"id": "gamma", "label": "Gamma"},
                ],
                "initial": ["gamma", "alpha", "beta"],
            },
        ],
        "submit": {"label": "Ship it"},
    }


def test_parse_returns_the_model_type_and_is_json_serialisable() -> None:
    model = parse_model(full_model())
    assert isinstance(model, TaskSurfaceModelV1)
    assert json.loads(json.dumps(model.normalised())) == model.normalised()


def test_parse_does_not_mutate_its_input() -> None:
    data = full_model()
    before = copy.deepcopy(data)
    parse_model(data)
    assert data == before


# --- normalisation ----------------------------------------------------------------------


def test_absent_layout_is_normalised_to_stack() -> None:
    normalised = parse_model(minimal_model()).normalised()
    assert normalised["sections"][0]["layout"] == {"kind": "stack"}


def test_explicit_stack_layout_is_kept() -> None:
    model = minimal_model(sections=[section(layout={"kind": "stack"})])
    assert parse_model(model).normalised()["sections"][0]["layout"] == {"kind": "stack"}


@pytest.mark.parametrize("columns", [2, 3])
def test_grid_accepts_two_or_three_columns(columns: int) -> None:
    layout = {"kind": "grid", "columns": columns}
    model = minimal_model(sections=[section(layout=layout)])
    assert parse_model(model).normalised()["sections"][0]["layout"] == layout


@pytest.mark.parametrize("columns", [0, 1, 4, 12, -2, "2", True, None, 2.5, [2]])
def test_grid_refuses_any_other_column_count(columns: Any) -> None:
    model = minimal_model(sections=[section(layout={"kind": "grid", "columns": columns})])
    refusal = refused(model)
    assert refusal.code == SurfaceCode.SCHEMA
    assert refusal.problem.where.startswith("model.sections.0.layout")


def test_grid_without_columns_is_refused() -> None:
    model = minimal_model(sections=[section(layout={"kind": "grid"})])
    assert refused(model).code == SurfaceCode.SCHEMA


def test_absent_fields_normalise_to_an_empty_list() -> None:
    assert parse_model(minimal_model()).normalised()["fields"] == []


def test_absent_optional_keys_stay_absent() -> None:
    normalised = parse_model(model_with_fields(choice_field(), toggle_field())).normalised()
    assert "description" not in normalised
    assert "title" not in normalised["sections"][0]
    choice, toggle = normalised["fields"]
    assert "initial" not in choice and "initial" not in toggle
    assert all("detail" not in o for o in choice["options"])


def test_explicit_null_optional_keys_are_dropped() -> None:
    model = minimal_model(description=None, sections=[section(title=None)])
    normalised = parse_model(model).normalised()
    assert "description" not in normalised
    assert "title" not in normalised["sections"][0]


def test_text_field_defaults_are_written_out() -> None:
    (field,) = parse_model(model_with_fields(text_field())).normalised()["fields"]
    assert field == {
        "kind": "text",
        "id": "summary",
        "label": "Summary",
        "multiline": False,
        "required": False,
    }


def test_diff_before_null_means_new_file_and_survives_normalisation() -> None:
    (block,) = parse_model(model_with_blocks(diff_block(before=None))).normalised()["sections"][0]["blocks"]
    assert "before" in block and block["before"] is None


def test_diff_before_is_required_even_though_it_may_be_null() -> None:
    block = diff_block()
    del block["before"]
    refusal = refused(model_with_blocks(block))
    assert refusal.code == SurfaceCode.SCHEMA
    assert refusal.problem.where.endswith("before")


def test_table_cells_keep_their_json_type() -> None:
    cols = [column(c, c.upper()) for c in ("s", "i", "f", "b", "n", "digits")]
    row = {"s": "text", "i": 7, "f": 1.5, "b": False, "n": None, "digits": "1"}
    block = parse_model(model_with_blocks(table_block(cols, [row]))).normalised()["sections"][0]["blocks"][0]
    (cells,) = block["rows"]
    assert cells == row
    assert [type(cells[k]) for k in ("s", "i", "f", "b", "n", "digits")] == [
        str,
        int,
        float,
        bool,
        type(None),
        str,
    ]


def test_table_rows_may_leave_columns_out_and_may_be_empty() -> None:
    def rows(data: Json) -> Any:
        return parse_model(data).normalised()["sections"][0]["blocks"][0]["rows"]

    assert rows(model_with_blocks(table_block(rows=[{"name": "only a name"}, {}]))) == [
        {"name": "only a name"},
        {},
    ]
    assert rows(model_with_blocks(table_block(rows=[]))) == []


def test_fields_only_model_is_accepted() -> None:
    model = parse_model(minimal_model(sections=[], fields=[toggle_field()]))
    assert (model.sections, [f.id for f in model.fields]) == ([], ["notify"])


# --- unknown properties -----------------------------------------------------------------

UNKNOWN_PROPERTY_CASES: list[tuple[str, Callable[[], Json], str]] = [
    ("top level", lambda: minimal_model(html="<b>"), "model.html"),
    ("section", lambda: minimal_model(sections=[section(style="x")]), "model.sections.0.style"),
    (
        "stack layout",
        lambda: minimal_model(sections=[section(layout={"kind": "stack", "columns": 2})]),
        "columns",
    ),
    (
        "grid layout",
        lambda: minimal_model(sections=[section(layout={"kind": "grid", "columns": 2, "gap": 4})]),
        "gap",
    ),
    ("markdown", lambda: model_with_blocks(markdown_block(html="<i>")), "html"),
    ("metrics", lambda: model_with_blocks(metrics_block(chart=True)), "chart"),
    ("metric item", lambda: model_with_blocks(metrics_block([metric(trend="up")])), "trend"),
    ("table", lambda: model_with_blocks(table_block(sortable=True)), "sortable"),
    ("table column", lambda: model_with_blocks(table_block([column(width=3)], [])), "width"),
    ("diff", lambda: model_with_blocks(diff_block(url="https://x")), "url"),
    ("notice", lambda: model_with_blocks(notice_block(icon="bell")), "icon"),
    ("text field", lambda: model_with_fields(text_field(placeholder="…")), "placeholder"),
    ("choice field", lambda: model_with_fields(choice_field(onChange="f()")), "onChange"),
    ("multi-choice field", lambda: model_with_fields(multi_choice_field(max=2)), "max"),
    ("toggle field", lambda: model_with_fields(toggle_field(visibleIf="x")), "visibleIf"),
    ("order field", lambda: model_with_fields(order_field(handle=True)), "handle"),
    (
        "option",
        lambda: model_with_fields(choice_field(options=[option("a", "A", image="https://x")])),
        "image",
    ),
    ("submit", lambda: minimal_model(submit={"label": "Go", "action": "/post"}), "action"),
]


@pytest.mark.parametrize(
    ("build", "where_suffix"),
    [(b, w) for _, b, w in UNKNOWN_PROPERTY_CASES],
    ids=[name for name, _, _ in UNKNOWN_PROPERTY_CASES],
)
def test_unknown_properties_are_refused(build: Callable[[], Json], where_suffix: str) -> None:
    refusal = refused(build())
    assert refusal.code == SurfaceCode.UNKNOWN_PROPERTY
    assert refusal.problem.where.endswith(where_suffix)


# --- unknown kinds ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["chart", "html", "Markdown", "iframe", "", 5, None, ["markdown"]])
def test_unknown_block_kind_is_refused(kind: Any) -> None:
    refusal = refused(model_with_blocks({"kind": kind, "text": "x"}))
    assert refusal.code == SurfaceCode.UNKNOWN_KIND
    assert refusal.problem.where == "model.sections.0.blocks.0"


@pytest.mark.parametrize("kind", ["file", "date", "slider", "Text", "multichoice", 0])
def test_unknown_field_kind_is_refused(kind: Any) -> None:
    refusal = refused(model_with_fields({"kind": kind, "id": "x", "label": "X"}))
    assert refusal.code == SurfaceCode.UNKNOWN_KIND
    assert refusal.problem.where == "model.fields.0"


@pytest.mark.parametrize("kind", ["flex", "columns", "Grid", 2])
def test_unknown_layout_kind_is_refused(kind: Any) -> None:
    refusal = refused(minimal_model(sections=[section(layout={"kind": kind})]))
    assert refusal.code == SurfaceCode.UNKNOWN_KIND
    assert refusal.problem.where == "model.sections.0.layout"


def test_missing_kind_is_refused_as_unknown_kind() -> None:
    assert refused(model_with_blocks({"text": "x"})).code == SurfaceCode.UNKNOWN_KIND
    assert refused(model_with_fields({"id": "x", "label": "X"})).code == SurfaceCode.UNKNOWN_KIND


# --- version ----------------------------------------------------------------------------


@pytest.mark.parametrize("version", [True, False, "1", "2", 3, 0, -1, 1.5, 2.5, None, [1], {"v": 1}])
def test_any_version_other_than_one_or_two_is_unsupported(version: Any) -> None:
    refusal = refused(minimal_model(version=version))
    assert refusal.code == SurfaceCode.UNSUPPORTED_VERSION
    assert refusal.problem.where == "model.version"


def test_missing_version_is_unsupported() -> None:
    data = minimal_model()
    del data["version"]
    assert refused(data).code == SurfaceCode.UNSUPPORTED_VERSION


def test_version_check_comes_before_the_schema() -> None:
    # A future version may have another shape; it is refused for its version, not its shape.
    assert refused({"version": 3, "panels": []}).code == SurfaceCode.UNSUPPORTED_VERSION


def test_version_written_as_json_one_point_zero_normalises_to_one() -> None:
    # JSON has one number type: 1.0 is the number 1, and the canonical form writes 1.
    normalised = parse_model(minimal_model(version=1.0)).normalised()
    assert normalised["version"] == 1 and type(normalised["version"]) is int


# --- wrong types ------------------------------------------------------------------------

WRONG_TYPE_CASES: list[tuple[str, Callable[[], Any]]] = [
    ("model is a list", lambda: [minimal_model()]),
    ("model is a string", lambda: "model"),
    ("model is null", lambda: None),
    ("title bool", lambda: minimal_model(title=True)),
    ("title null", lambda: minimal_model(title=None)),
    ("title number", lambda: minimal_model(title=5)),
    ("description number", lambda: minimal_model(description=3)),
    ("sections object", lambda: minimal_model(sections={"a": section()})),
    ("sections null", lambda: minimal_model(sections=None)),
    ("fields object", lambda: minimal_model(fields={})),
    ("submit missing label", lambda: minimal_model(submit={})),
    ("submit label bool", lambda: minimal_model(submit={"label": False})),
    ("submit string", lambda: minimal_model(submit="Send")),
    ("section id number", lambda: minimal_model(sections=[section(id=12345)])),
    ("section id with space", lambda: minimal_model(sections=[section(id="two words")])),
    ("section id empty", lambda: minimal_model(sections=[section(id="")])),
    ("section id too long", lambda: minimal_model(sections=[section(id="x" * 65)])),
    ("section title list", lambda: minimal_model(sections=[section(title=["a"])])),
    ("blocks string", lambda: minimal_model(sections=[section(blocks="text")])),
    ("block string", lambda: minimal_model(sections=[section(blocks=["text"])])),
    ("markdown text number", lambda: model_with_blocks(markdown_block(text=1))),
    ("metrics items object", lambda: model_with_blocks(metrics_block(items={"a": metric()}))),
    ("metric value number", lambda: model_with_blocks(metrics_block([metric(value=42)]))),
    ("metric detail bool", lambda: model_with_blocks(metrics_block([metric(detail=True)]))),
    ("table rows object", lambda: model_with_blocks(table_block(rows={"name": "x"}))),
    ("table row list", lambda: model_with_blocks(table_block(rows=[["x", 1]]))),
    ("table cell list", lambda: model_with_blocks(table_block(rows=[{"name": ["x"]}]))),
    ("table cell object", lambda: model_with_blocks(table_block(rows=[{"name": {"x": 1}}]))),
    ("column label null", lambda: model_with_blocks(table_block([column(label=None)], []))),
    ("diff after null", lambda: model_with_blocks(diff_block(after=None))),
    ("diff before number", lambda: model_with_blocks(diff_block(before=0))),
    ("diff path bool", lambda: model_with_blocks(diff_block(path=True))),
    ("notice tone error", lambda: model_with_blocks(notice_block(tone="error"))),
    ("notice tone number", lambda: model_with_blocks(notice_block(tone=1))),
    ("text multiline string", lambda: model_with_fields(text_field(multiline="yes"))),
    ("text required int", lambda: model_with_fields(text_field(required=1))),
    ("text initial number", lambda: model_with_fields(text_field(initial=3))),
    ("toggle initial string", lambda: model_with_fields(toggle_field(initial="true"))),
    ("toggle initial int", lambda: model_with_fields(toggle_field(initial=1))),
    ("choice initial number", lambda: model_with_fields(choice_field(initial=1))),
    ("choice initial list", lambda: model_with_fields(choice_field(initial=["alpha"]))),
    ("multi initial string", lambda: model_with_fields(multi_choice_field(initial="alpha"))),
    ("order initial string", lambda: model_with_fields(order_field(initial="alpha"))),
    ("options object", lambda: model_with_fields(choice_field(options={"a": "A"}))),
    ("option label number", lambda: model_with_fields(choice_field(options=[option("a", 1)]))),
    ("field label missing", lambda: model_with_fields({"kind": "toggle", "id": "t"})),
    ("field id number", lambda: model_with_fields(toggle_field(id=12345678))),
]


@pytest.mark.parametrize("build", [b for _, b in WRONG_TYPE_CASES], ids=[n for n, _ in WRONG_TYPE_CASES])
def test_wrong_types_are_refused_as_schema(build: Callable[[], Any]) -> None:
    refusal = refused(build())
    assert refusal.code == SurfaceCode.SCHEMA
    assert refusal.problem.where.startswith("model")


def test_numeric_strings_stay_strings_in_table_cells_but_not_elsewhere() -> None:
    parse_model(model_with_blocks(table_block(rows=[{"name": "1", "size": "2"}])))
    assert refused(model_with_blocks(metrics_block([metric(value=1)]))).code == SurfaceCode.SCHEMA


def test_schema_refusal_names_the_place() -> None:
    refusal = refused(model_with_fields(toggle_field(), text_field(label=False)))
    assert refusal.problem.where == "model.fields.1.text.label"


# --- duplicate ids ----------------------------------------------------------------------


def test_duplicate_section_ids_are_refused() -> None:
    refusal = refused(minimal_model(sections=[section("same"), section("same")]))
    assert refusal.code == SurfaceCode.DUPLICATE_ID
    assert refusal.problem.where == "model.sections.1.id"


def test_duplicate_field_ids_are_refused() -> None:
    refusal = refused(model_with_fields(text_field("same"), toggle_field("same")))
    assert refusal.code == SurfaceCode.DUPLICATE_ID
    assert refusal.problem.where == "model.fields.1.id"


def test_a_field_may_not_reuse_a_section_id() -> None:
    refusal = refused(model_with_fields(toggle_field("overview")))
    assert refusal.code == SurfaceCode.DUPLICATE_ID
    assert refusal.problem.where == "model.fields.0.id"
    assert "overview" in refusal.problem.message


@pytest.mark.parametrize("kind", sorted(OPTION_FIELD_BUILDERS))
def test_duplicate_option_ids_within_a_field_are_refused(kind: str) -> None:
    build = OPTION_FIELD_BUILDERS[kind]
    refusal = refused(
        model_with_fields(build(options=[option("a", "A"), option("b", "B"), option("a", "C")]))
    )
    assert refusal.code == SurfaceCode.DUPLICATE_ID
    assert refusal.problem.where == "model.fields.0.options.2.id"


def test_duplicate_table_column_ids_are_refused() -> None:
    block = table_block([column("a", "A"), column("a", "Again")], [])
    refusal = refused(model_with_blocks(markdown_block(), block))
    assert refusal.code == SurfaceCode.DUPLICATE_ID
    assert refusal.problem.where == "model.sections.0.blocks.1.columns.1.id"


def test_option_ids_are_scoped_to_their_field_and_column_ids_to_their_table() -> None:
    # Two yes/no questions may both use "yes"; two tables may both have a "name" column.
    model = parse_model(
        minimal_model(
            sections=[section(blocks=[table_block(), table_block()])],
            fields=[choice_field("first"), multi_choice_field("second"), order_field("third")],
        )
    )
    normalised = model.normalised()
    assert [[c["id"] for c in b["columns"]] for b in normalised["sections"][0]["blocks"]] == [
        ["name", "size"],
        ["name", "size"],
    ]
    assert [[o["id"] for o in f["options"]] for f in normalised["fields"]] == [["alpha", "beta", "gamma"]] * 3


def test_ids_are_case_sensitive() -> None:
    # The section is "overview"; a field "Overview" is another id, not a duplicate.
    model = parse_model(model_with_fields(toggle_field("Overview")))
    assert ([s.id for s in model.sections], [f.id for f in model.fields]) == (["overview"], ["Overview"])
    assert refused(model_with_fields(toggle_field("overview"))).problem == Problem(
        SurfaceCode.DUPLICATE_ID, "id 'overview' is used twice", "model.fields.0.id"
    )


# --- table columns ----------------------------------------------------------------------


def test_row_with_an_undeclared_column_is_refused() -> None:
    block = table_block(rows=[{"name": "core"}, {"name": "web", "owner": "me"}])
    refusal = refused(model_with_blocks(block))
    assert refusal.code == SurfaceCode.UNKNOWN_COLUMN
    assert refusal.problem.where == "model.sections.0.blocks.0.rows.1.owner"


def test_column_labels_are_not_column_ids() -> None:
    refusal = refused(model_with_blocks(table_block(rows=[{"Name": "core"}])))
    assert refusal.code == SurfaceCode.UNKNOWN_COLUMN


# --- initial values ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "field",
    [
        choice_field(initial="delta"),
        choice_field(initial="Alpha"),
        choice_field(initial=""),
        multi_choice_field(initial=["alpha", "delta"]),
        multi_choice_field(initial=["alpha", "alpha"]),
        order_field(initial=["alpha", "beta"]),
        order_field(initial=["alpha", "beta", "gamma", "delta"]),
        order_field(initial=["alpha", "alpha", "beta"]),
        order_field(initial=["alpha", "beta", "beta", "gamma"]),
        order_field(initial=[]),
    ],
    ids=[
        "choice unknown",
        "choice label instead of id",
        "choice empty",
        "multi unknown",
        "multi duplicate",
        "order missing",
        "order extra",
        "order duplicate same length",
        "order duplicate longer",
        "order empty",
    ],
)
def test_initial_values_that_do_not_fit_are_refused(field: Json) -> None:
    refusal = refused(model_with_fields(field))
    assert refusal.code == SurfaceCode.INVALID_INITIAL
    assert refusal.problem.where == "model.fields.0.initial"


@pytest.mark.parametrize(
    "field",
    [
        choice_field(initial="gamma"),
        multi_choice_field(initial=[]),
        multi_choice_field(initial=["gamma", "alpha"]),
        order_field(initial=["beta", "gamma", "alpha"]),
        toggle_field(initial=False),
        text_field(initial=""),
    ],
)
def test_initial_values_that_fit_are_kept(field: Json) -> None:
    (normalised,) = parse_model(model_with_fields(field)).normalised()["fields"]
    assert normalised["initial"] == field["initial"]


# --- empty ------------------------------------------------------------------------------


def test_model_without_sections_or_fields_is_empty() -> None:
    assert refused(minimal_model(sections=[])).code == SurfaceCode.EMPTY
    assert refused(minimal_model(sections=[], fields=[])).code == SurfaceCode.EMPTY


@pytest.mark.parametrize(
    "data",
    [
        minimal_model(sections=[section(blocks=[])]),
        model_with_blocks(metrics_block(items=[])),
        model_with_blocks(table_block(columns=[], rows=[])),
        model_with_fields(choice_field(options=[])),
        model_with_fields(multi_choice_field(options=[])),
        model_with_fields(order_field(options=[])),
    ],
    ids=["section without blocks", "metrics without items", "table without columns"]
    + [f"{k} without options" for k in ("choice", "multi-choice", "order")],
)
def test_empty_containers_are_refused(data: Json) -> None:
    assert refused(data).code == SurfaceCode.EMPTY


# --- limits (small, custom) -------------------------------------------------------------


def test_model_bytes_limit_is_exact() -> None:
    data = full_model()
    size = strict_json.utf8_size(parse_model(data).normalised())
    assert parse_model(data, Limits(model_bytes=size)).normalised() == parse_model(data).normalised()
    assert_limit(
        refused(data, Limits(model_bytes=size - 1)),
        f"the normalised model is {size} bytes; the limit model_bytes is {size - 1}",
        "model_bytes",
    )


def test_model_bytes_counts_the_normalised_model_not_the_input() -> None:
    # Normalisation writes out the stack layout and the empty fields; a limit that only fits the
    # raw input refuses.
    data = minimal_model()
    raw_size = strict_json.utf8_size(data)
    normalised_size = strict_json.utf8_size(parse_model(data).normalised())
    assert normalised_size == raw_size + len(',"layout":{"kind":"stack"}') + len(',"fields":[]')
    assert_limit(
        refused(data, Limits(model_bytes=raw_size)),
        f"the normalised model is {normalised_size} bytes; the limit model_bytes is {raw_size}",
        "model_bytes",
    )


def test_model_bytes_counts_utf8_bytes_not_characters() -> None:
    ascii_model = model_with_blocks(markdown_block("a" * 100))
    limit = strict_json.utf8_size(parse_model(ascii_model).normalised())
    assert parse_model(ascii_model, Limits(model_bytes=limit)).sections[0].blocks[0] == MarkdownBlock(
        kind="markdown", text="a" * 100
    )
    assert_limit(
        refused(model_with_blocks(markdown_block("é" * 100)), Limits(model_bytes=limit)),
        f"the normalised model is {limit + 100} bytes; the limit model_bytes is {limit}",
        "model_bytes",
    )


def test_blocks_limit_counts_across_sections() -> None:
    limits = Limits(blocks=3)
    fits = parse_model(minimal_model(sections=[section("a", [markdown_block()] * 2), section("b")]), limits)
    assert [len(s.blocks) for s in fits.sections] == [2, 1]
    data = minimal_model(
        sections=[section("a", [markdown_block()] * 2), section("b", [markdown_block()] * 2)]
    )
    assert_limit(refused(data, limits), "4 blocks; the limit blocks is 3", "model.sections")


def test_fields_limit() -> None:
    limits = Limits(fields=2)
    fits = parse_model(model_with_fields(toggle_field("a"), toggle_field("b")), limits)
    assert [f.id for f in fits.fields] == ["a", "b"]
    assert_limit(
        refused(model_with_fields(*(toggle_field(i) for i in "abc")), limits),
        "3 fields; the limit fields is 2",
        "model.fields",
    )


def test_table_rows_limit_is_per_table() -> None:
    limits = Limits(table_rows=2)
    rows = [{"name": str(i)} for i in range(2)]
    fits = parse_model(model_with_blocks(table_block(rows=rows), table_block(rows=rows)), limits)
    assert [len(b.rows) for b in fits.sections[0].blocks if isinstance(b, TableBlock)] == [2, 2]
    refusal = refused(
        model_with_blocks(table_block(rows=rows), table_block(rows=[*rows, {"name": "x"}])), limits
    )
    assert_limit(refusal, "3 table_rows; the limit table_rows is 2", "model.sections.0.blocks.1.rows")


def test_sections_limit() -> None:
    limits = Limits(sections=2)
    fits = parse_model(minimal_model(sections=[section("a"), section("b")]), limits)
    assert [s.id for s in fits.sections] == ["a", "b"]
    assert_limit(
        refused(minimal_model(sections=[section(i) for i in "abc"]), limits),
        "3 sections; the limit sections is 2",
        "model.sections",
    )


@pytest.mark.parametrize("kind", sorted(OPTION_FIELD_BUILDERS))
def test_options_limit(kind: str) -> None:
    limits = Limits(options=2)
    build = OPTION_FIELD_BUILDERS[kind]
    fits = parse_model(model_with_fields(build(options=[option("a"), option("b")])), limits)
    assert [o["id"] for o in fits.normalised()["fields"][0]["options"]] == ["a", "b"]
    refusal = refused(
        model_with_fields(toggle_field("t"), build(options=[option("a"), option("b"), option("c")])), limits
    )
    assert_limit(refusal, "3 options; the limit options is 2", "model.fields.1.options")


def test_table_columns_limit() -> None:
    limits = Limits(table_columns=2)
    fits = parse_model(model_with_blocks(table_block([column("a"), column("b")], [])), limits)
    assert fits.normalised()["sections"][0]["blocks"][0]["columns"] == [
        {"id": "a", "label": "Name"},
        {"id": "b", "label": "Name"},
    ]
    refusal = refused(model_with_blocks(table_block([column(c) for c in "abc"], [])), limits)
    assert_limit(
        refusal, "3 table_columns; the limit table_columns is 2", "model.sections.0.blocks.0.columns"
    )


def test_metric_items_limit() -> None:
    limits = Limits(metric_items=2)
    fits = parse_model(model_with_blocks(metrics_block([metric()] * 2)), limits)
    assert len(fits.normalised()["sections"][0]["blocks"][0]["items"]) == 2
    assert_limit(
        refused(model_with_blocks(markdown_block(), metrics_block([metric()] * 3)), limits),
        "3 metric_items; the limit metric_items is 2",
        "model.sections.0.blocks.1.items",
    )


SHORT_TEXT_PLACES: list[tuple[str, Callable[[str], Json], str]] = [
    ("title", lambda s: minimal_model(title=s), "model.title"),
    ("submit label", lambda s: minimal_model(title="T", submit={"label": s}), "model.submit.label"),
    (
        "section title",
        lambda s: minimal_model(title="T", sections=[section(title=s)]),
        "model.sections.0.title",
    ),
    (
        "metric label",
        lambda s: model_with_blocks(metrics_block([metric(), metric(label=s)]), title="T"),
        "model.sections.0.blocks.0.items.1.label",
    ),
    (
        "metric value",
        lambda s: model_with_blocks(metrics_block([metric(value=s)]), title="T"),
        "model.sections.0.blocks.0.items.0.value",
    ),
    (
        "column label",
        lambda s: model_with_blocks(table_block([column("b"), column("a", s)], []), title="T"),
        "model.sections.0.blocks.0.columns.1.label",
    ),
    (
        "diff path",
        lambda s: model_with_blocks(diff_block(path=s), title="T"),
        "model.sections.0.blocks.0.path",
    ),
    (
        "diff language",
        lambda s: model_with_blocks(markdown_block(), diff_block(language=s), title="T"),
        "model.sections.0.blocks.1.language",
    ),
    (
        "field label",
        lambda s: model_with_fields(toggle_field("a"), toggle_field(label=s), title="T"),
        "model.fields.1.label",
    ),
    (
        "option label",
        lambda s: model_with_fields(choice_field(options=[option("b"), option("a", s)]), title="T"),
        "model.fields.0.options.1.label",
    ),
]


@pytest.mark.parametrize(
    ("build", "where"), [(b, w) for _, b, w in SHORT_TEXT_PLACES], ids=[n for n, _, _ in SHORT_TEXT_PLACES]
)
def test_short_text_chars_limit(build: Callable[[str], Json], where: str) -> None:
    limits = Limits(short_text_chars=10)
    assert parse_model(build("x" * 10), limits) == parse_model(build("x" * 10))
    assert parse_model(build("é" * 10), limits) == parse_model(build("é" * 10))  # characters, not bytes
    assert_limit(
        refused(build("x" * 11), limits), "text is 11 characters; the limit short_text_chars is 10", where
    )


DETAIL_PLACES: list[tuple[str, Callable[[str], Json], str]] = [
    ("description", lambda s: minimal_model(description=s), "model.description"),
    (
        "metric detail",
        lambda s: model_with_blocks(metrics_block([metric(), metric(detail=s)])),
        "model.sections.0.blocks.0.items.1.detail",
    ),
    (
        "option detail",
        lambda s: model_with_fields(
            toggle_field("t"), order_field(options=[option("b"), option("a", "A", detail=s)])
        ),
        "model.fields.1.options.1.detail",
    ),
    (
        "table cell",
        lambda s: model_with_blocks(table_block(rows=[{"name": "fine"}, {"name": s}])),
        "model.sections.0.blocks.0.rows.1.name",
    ),
]


@pytest.mark.parametrize(
    ("build", "where"), [(b, w) for _, b, w in DETAIL_PLACES], ids=[n for n, _, _ in DETAIL_PLACES]
)
def test_detail_chars_limit(build: Callable[[str], Json], where: str) -> None:
    limits = Limits(detail_chars=20)
    assert parse_model(build("x" * 20), limits) == parse_model(build("x" * 20))
    assert_limit(
        refused(build("x" * 21), limits), "text is 21 characters; the limit detail_chars is 20", where
    )


def test_non_text_table_cells_are_not_detail_text() -> None:
    model = parse_model(model_with_blocks(table_block(rows=[{"name": 10**30}])), Limits(detail_chars=5))
    assert model.normalised()["sections"][0]["blocks"][0]["rows"] == [{"name": 10**30}]


def test_text_field_initial_is_bounded_by_note_chars() -> None:
    limits = Limits(note_chars=5)
    fits = parse_model(model_with_fields(text_field(initial="12345")), limits)
    assert fits.normalised()["fields"][0]["initial"] == "12345"
    assert_limit(
        refused(model_with_fields(toggle_field("t"), text_field(initial="123456")), limits),
        "initial text is 6 characters; the limit note_chars is 5",
        "model.fields.1.initial",
    )


def test_raw_arguments_bytes_limit_is_exact_and_counts_utf8_bytes() -> None:
    raw = json.dumps({"model": minimal_model(title="é" * 20)}, ensure_ascii=False)
    size = len(raw.encode("utf-8"))
    assert size == len(raw) + 20
    assert parse_arguments(raw, Limits(raw_arguments_bytes=size)).title == "é" * 20
    assert parse_arguments(raw.encode("utf-8"), Limits(raw_arguments_bytes=size)).title == "é" * 20
    assert_limit(
        refused_args(raw, Limits(raw_arguments_bytes=len(raw))),
        f"arguments are {size} bytes; the limit is {len(raw)}",
        "raw_arguments_bytes",
    )
    assert_limit(
        refused_args(raw.encode("utf-8"), Limits(raw_arguments_bytes=size - 1)),
        f"arguments are {size} bytes; the limit is {size - 1}",
        "raw_arguments_bytes",
    )


def test_raw_arguments_limit_applies_before_decoding() -> None:
    # Not even JSON: the size refusal comes first.
    assert_limit(
        refused_args("x" * 101, Limits(raw_arguments_bytes=100)),
        "arguments are 101 bytes; the limit is 100",
        "raw_arguments_bytes",
    )
    assert refused_args("x" * 100, Limits(raw_arguments_bytes=100)).code == SurfaceCode.INVALID_JSON


# --- limits (defaults) ------------------------------------------------------------------


def test_default_limits_are_the_documented_defaults() -> None:
    """Written out, not read from the module: a changed default must change this test and the README."""
    assert Limits().model_dump() == {
        "model_bytes": 65536,
        "blocks": 64,
        "fields": 32,
        "table_rows": 200,
        "submission_bytes": 32768,
        "sections": 32,
        "options": 50,
        "table_columns": 24,
        "metric_items": 24,
        "short_text_chars": 200,
        "detail_chars": 1000,
        "note_chars": 4000,
        "raw_arguments_bytes": 262144,
        "filterable_options": 500,
        "actions": 8,
        "pattern_chars": 500,
        "review_hunks": 200,
        "candidates": 50,
        "properties": 24,
        "places": 50,
        "chart_categories": 200,
        "chart_series": 8,
    }
    assert Limits() == DEFAULT_LIMITS


@pytest.mark.parametrize("name", sorted(Limits.model_fields))
def test_every_limit_is_a_positive_integer(name: str) -> None:
    assert getattr(Limits(**{name: 1}), name) == 1
    for wrong in (0, -1):
        with pytest.raises(ValidationError) as info:
            Limits(**{name: wrong})
        [error] = info.value.errors()
        assert (error["type"], error["loc"]) == ("greater_than", (name,))


def test_limits_refuse_unknown_names_and_are_frozen() -> None:
    with pytest.raises(ValidationError) as info:
        Limits(field=3)  # type: ignore[call-arg]
    assert [(e["type"], e["loc"]) for e in info.value.errors()] == [("extra_forbidden", ("field",))]
    with pytest.raises(ValidationError):
        DEFAULT_LIMITS.fields = 1  # type: ignore[misc]


def test_default_limits_accept_64_blocks_and_refuse_65() -> None:
    assert len(parse_model(model_with_blocks(*[markdown_block("b")] * 64)).sections[0].blocks) == 64
    spread = [section(f"s{i}", [markdown_block("b")] * 2) for i in range(32)]
    assert len(parse_model(minimal_model(sections=spread)).sections) == 32
    assert_limit(
        refused(model_with_blocks(*[markdown_block("b")] * 65)),
        "65 blocks; the limit blocks is 64",
        "model.sections",
    )
    spread[0]["blocks"].append(markdown_block("one too many"))
    assert_limit(
        refused(minimal_model(sections=spread)), "65 blocks; the limit blocks is 64", "model.sections"
    )
    assert_limit(
        refused(minimal_model(sections=[section(f"s{i}") for i in range(33)])),
        "33 sections; the limit sections is 32",
        "model.sections",
    )


def test_default_limits_accept_32_fields_and_refuse_33() -> None:
    assert len(parse_model(model_with_fields(*(toggle_field(f"f{i}") for i in range(32)))).fields) == 32
    assert_limit(
        refused(model_with_fields(*(toggle_field(f"f{i}") for i in range(33)))),
        "33 fields; the limit fields is 32",
        "model.fields",
    )


def test_default_limits_accept_200_rows_and_refuse_201() -> None:
    rows = [{"name": f"row {i}", "size": i} for i in range(201)]
    assert (
        len(
            parse_model(model_with_blocks(table_block(rows=rows[:200]))).normalised()["sections"][0][
                "blocks"
            ][0]["rows"]
        )
        == 200
    )
    assert_limit(
        refused(model_with_blocks(table_block(rows=rows))),
        "201 table_rows; the limit table_rows is 200",
        "model.sections.0.blocks.0.rows",
    )


def test_default_limits_accept_64_kib_and_refuse_one_byte_more() -> None:
    base = strict_json.utf8_size(parse_model(model_with_blocks(markdown_block(""))).normalised())
    exact = model_with_blocks(markdown_block("m" * (65536 - base)))
    assert strict_json.utf8_size(parse_model(exact).normalised()) == 65536
    over = model_with_blocks(markdown_block("m" * (65536 - base + 1)))
    message = "the normalised model is 65537 bytes; the limit model_bytes is 65536"
    assert_limit(refused(over), message, "model_bytes")
    assert_limit(refused_args(arguments(over)), message, "model_bytes")


def test_default_limits_bound_every_text_and_list() -> None:
    assert_limit(
        refused(minimal_model(title="t" * 201)),
        "text is 201 characters; the limit short_text_chars is 200",
        "model.title",
    )
    assert_limit(
        refused(minimal_model(description="d" * 1001)),
        "text is 1001 characters; the limit detail_chars is 1000",
        "model.description",
    )
    assert_limit(
        refused(model_with_fields(text_field(initial="n" * 4001))),
        "initial text is 4001 characters; the limit note_chars is 4000",
        "model.fields.0.initial",
    )
    assert_limit(
        refused(model_with_fields(order_field(options=[option(f"o{i}") for i in range(51)]))),
        "51 options; the limit options is 50",
        "model.fields.0.options",
    )
    assert_limit(
        refused(model_with_blocks(table_block([column(f"c{i}") for i in range(25)], []))),
        "25 table_columns; the limit table_columns is 24",
        "model.sections.0.blocks.0.columns",
    )
    assert_limit(
        refused(model_with_blocks(metrics_block([metric()] * 25))),
        "25 metric_items; the limit metric_items is 24",
        "model.sections.0.blocks.0.items",
    )
    raw = " " * 262145
    assert_limit(refused_args(raw), "arguments are 262145 bytes; the limit is 262144", "raw_arguments_bytes")


# --- raw argument text ------------------------------------------------------------------


def test_arguments_as_text_bytes_and_mapping_give_the_same_model() -> None:
    data = full_model()
    expected = parse_model(data).normalised()
    assert parse_arguments(arguments(data)).normalised() == expected
    assert parse_arguments(arguments(data).encode("utf-8")).normalised() == expected
    assert parse_arguments({"model": data}).normalised() == expected


def test_decode_arguments_returns_plain_data() -> None:
    assert decode_arguments('{"model": {"a": [1, 2.5, null]}}') == {"model": {"a": [1, 2.5, None]}}


DUPLICATE_KEY_TEXTS = {
    "top level": '{"model": {}, "model": {}}',
    "model level": '{"model": {"version": 1, "title": "a", "title": "b"}}',
    "in a section": '{"model": {"sections": [{"id": "a", "id": "b"}]}}',
    "in a layout": '{"model": {"sections": [{"layout": {"kind": "stack", "kind": "grid"}}]}}',
    "in a table row": '{"model": {"sections": [{"blocks": [{"rows": [{"c": 1, "c": 2}]}]}]}}',
    "in an option": '{"model": {"fields": [{"options": [{"label": "A", "label": "B"}]}]}}',
}


@pytest.mark.parametrize("raw", DUPLICATE_KEY_TEXTS.values(), ids=DUPLICATE_KEY_TEXTS.keys())
def test_duplicate_keys_anywhere_are_refused(raw: str) -> None:
    assert refused_args(raw).code == SurfaceCode.DUPLICATE_KEY


def test_duplicate_key_in_an_otherwise_valid_model_is_refused() -> None:
    raw = arguments(minimal_model())
    tampered = raw.replace('"title": "Choose a release"', '"title": "Shown", "title": "Persisted"')
    assert tampered != raw
    assert refused_args(tampered).code == SurfaceCode.DUPLICATE_KEY


@pytest.mark.parametrize(
    "raw",
    ["", "   ", "{", '{"model": }', "{'model': {}}", '{"model": {},}', "model", '{"model": {}} x'],
)
def test_invalid_json_is_refused(raw: str) -> None:
    assert refused_args(raw).code == SurfaceCode.INVALID_JSON


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
def test_non_finite_numbers_are_refused(number: str) -> None:
    data = model_with_blocks(table_block(rows=[{"size": 0}]))
    raw = arguments(data).replace('"size": 0', f'"size": {number}')
    assert number in raw
    assert refused_args(raw).code == SurfaceCode.INVALID_JSON


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_numbers_in_decoded_data_are_refused(number: float) -> None:
    refusal = refused(model_with_blocks(table_block(rows=[{"size": number}])))
    assert refusal.code == SurfaceCode.SCHEMA


def test_invalid_utf8_is_refused() -> None:
    raw = arguments(minimal_model()).encode("utf-8").replace(b"Choose", b"Ch\xffose")
    assert refused_args(raw).code == SurfaceCode.INVALID_JSON


def test_absurdly_deep_nesting_is_refused_not_crashed() -> None:
    assert refused_args("[" * 100_000 + "]" * 100_000).code == SurfaceCode.INVALID_JSON


def test_lone_surrogates_are_refused_not_crashed() -> None:
    raw = arguments(minimal_model(title="\ud800"))
    assert "\\ud800" in raw
    assert refused_args(raw).code == SurfaceCode.SCHEMA
    assert refused(minimal_model(title="ok \udfff")).code == SurfaceCode.SCHEMA
    assert refused_args('{"model": "\ud800"}').code == SurfaceCode.SCHEMA


@pytest.mark.parametrize(
    "raw",
    [
        "null",
        "[]",
        '"model"',
        "1",
        "{}",
        '{"Model": {}}',
        '{"model": {}, "extra": 1}',
        '{"models": {}}',
        '[{"model": {}}]',
    ],
)
def test_arguments_must_be_exactly_a_model_object(raw: str) -> None:
    assert refused_args(raw).code == SurfaceCode.ARGUMENTS


def test_mapping_arguments_must_also_be_exactly_a_model_object() -> None:
    assert refused_args({"model": minimal_model(), "x": 1}).code == SurfaceCode.ARGUMENTS
    assert refused_args({}).code == SurfaceCode.ARGUMENTS


def test_model_inside_arguments_is_checked_like_parse_model() -> None:
    assert refused_args('{"model": []}').code == SurfaceCode.SCHEMA
    assert refused_args('{"model": {"version": 3}}').code == SurfaceCode.UNSUPPORTED_VERSION


def test_refusal_carries_one_problem_with_a_wire_form() -> None:
    refusal = refused(minimal_model(html="x"))
    wire = refusal.problem.to_wire()
    assert wire["code"] == "surface.unknown-property"
    assert wire["where"] == "model.html"
    assert str(refusal).startswith("surface.unknown-property: ")


# --- every refusal, written out -------------------------------------------------------------

REFUSALS: list[tuple[str, Any, Problem]] = [
    ("not an object", ["model"], Problem(SurfaceCode.SCHEMA, "the model must be a JSON object", "model")),
    (
        "version 3",
        minimal_model(version=3),
        Problem(SurfaceCode.UNSUPPORTED_VERSION, "version 3 is not supported; use 1 or 2", "model.version"),
    ),
    (
        "no version",
        {k: v for k, v in minimal_model().items() if k != "version"},
        Problem(
            SurfaceCode.UNSUPPORTED_VERSION, "version None is not supported; use 1 or 2", "model.version"
        ),
    ),
    (
        "version true",
        minimal_model(version=True),
        Problem(
            SurfaceCode.UNSUPPORTED_VERSION, "version True is not supported; use 1 or 2", "model.version"
        ),
    ),
    (
        "nothing to show",
        minimal_model(sections=[]),
        Problem(SurfaceCode.EMPTY, "a surface needs at least one section or field"),
    ),
    (
        "a section without blocks",
        minimal_model(sections=[section("a"), section("b", [])]),
        Problem(SurfaceCode.EMPTY, "a section needs at least one block", "model.sections.1"),
    ),
    (
        "metrics without items",
        model_with_blocks(markdown_block(), metrics_block([])),
        Problem(SurfaceCode.EMPTY, "metrics need at least one item", "model.sections.0.blocks.1"),
    ),
    (
        "a table without columns",
        model_with_blocks(markdown_block(), table_block([], [])),
        Problem(SurfaceCode.EMPTY, "a table needs at least one column", "model.sections.0.blocks.1"),
    ),
    (
        "a choice without options",
        model_with_fields(toggle_field("t"), choice_field(options=[])),
        Problem(SurfaceCode.EMPTY, "a field with options needs at least one", "model.fields.1"),
    ),
    (
        "an initial choice that is no option",
        model_with_fields(toggle_field("t"), choice_field(initial="zeta")),
        Problem(SurfaceCode.INVALID_INITIAL, "initial 'zeta' is not an option id", "model.fields.1.initial"),
    ),
    (
        "an initial multi-choice listing an option twice",
        model_with_fields(multi_choice_field(initial=["beta", "beta"])),
        Problem(
            SurfaceCode.INVALID_INITIAL, "initial must list distinct option ids", "model.fields.0.initial"
        ),
    ),
    (
        "an initial multi-choice listing no option",
        model_with_fields(multi_choice_field(initial=["zeta"])),
        Problem(
            SurfaceCode.INVALID_INITIAL, "initial must list distinct option ids", "model.fields.0.initial"
        ),
    ),
    (
        "an initial order missing an option",
        model_with_fields(order_field(initial=["alpha", "beta"])),
        Problem(
            SurfaceCode.INVALID_INITIAL,
            "initial must order every option id exactly once",
            "model.fields.0.initial",
        ),
    ),
    (
        "a lone surrogate",
        minimal_model(title="bad \ud800"),
        Problem(SurfaceCode.SCHEMA, "text must be valid Unicode (no lone surrogates)", "model"),
    ),
    (
        "an unknown property",
        minimal_model(sections=[section(style="x")]),
        Problem(
            SurfaceCode.UNKNOWN_PROPERTY, "unknown property model.sections.0.style", "model.sections.0.style"
        ),
    ),
    (
        "a duplicate id",
        model_with_fields(toggle_field("a"), text_field("a")),
        Problem(SurfaceCode.DUPLICATE_ID, "id 'a' is used twice", "model.fields.1.id"),
    ),
    (
        "an undeclared column",
        model_with_blocks(table_block(rows=[{"owner": "me"}])),
        Problem(
            SurfaceCode.UNKNOWN_COLUMN,
            "row 0 has a cell for undeclared column 'owner'",
            "model.sections.0.blocks.0.rows.0.owner",
        ),
    ),
]


@pytest.mark.parametrize(
    ("data", "problem"), [(d, p) for _, d, p in REFUSALS], ids=[n for n, _, _ in REFUSALS]
)
def test_every_refusal_has_its_code_message_and_place(data: Any, problem: Problem) -> None:
    assert refused(data).problem == problem


def test_schema_refusals_carry_pydantic_s_reason_at_the_place() -> None:
    unknown = refused(model_with_blocks(markdown_block(kind="video"))).problem
    assert (unknown.code, unknown.where) == (SurfaceCode.UNKNOWN_KIND, "model.sections.0.blocks.0")
    assert "'video'" in unknown.message
    wrong = refused(minimal_model(title=3)).problem
    assert (wrong.code, wrong.where, wrong.message) == (
        SurfaceCode.SCHEMA,
        "model.title",
        "Input should be a valid string",
    )


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("[]", Problem(SurfaceCode.ARGUMENTS, 'arguments must be exactly {"model": {...}}')),
        (
            '{"model": {}, "extra": 1}',
            Problem(SurfaceCode.ARGUMENTS, 'arguments must be exactly {"model": {...}}'),
        ),
        ('{"model": 1, "model": 2}', Problem(SurfaceCode.DUPLICATE_KEY, "duplicate key 'model'")),
        (
            "",
            Problem(
                SurfaceCode.INVALID_JSON, "arguments are not JSON: Expecting value: line 1 column 1 (char 0)"
            ),
        ),
    ],
    ids=["a list", "an extra argument", "a duplicate key", "no JSON"],
)
def test_every_argument_refusal_has_its_code_and_message(raw: str, problem: Problem) -> None:
    assert refused_args(raw).problem == problem


def test_the_arguments_are_held_to_the_given_limits() -> None:
    raw = arguments(model_with_fields(toggle_field("a"), toggle_field("b")))
    assert [f.id for f in parse_arguments(raw).fields] == ["a", "b"]
    assert_limit(refused_args(raw, Limits(fields=1)), "2 fields; the limit fields is 1", "model.fields")


def test_a_field_is_found_by_its_id_or_not_at_all() -> None:
    model = parse_model(model_with_fields(toggle_field("a"), text_field("b")))
    assert model.field("b") is model.fields[1]
    assert model.field("c") is None


def test_model_ids_are_1_to_64_characters() -> None:
    assert parse_model(model_with_fields(toggle_field("i" * 64))).fields[0].id == "i" * 64
    assert refused(model_with_fields(toggle_field("i" * 65))).problem.where == "model.fields.0.toggle.id"


def test_a_parsed_model_is_frozen() -> None:
    model = parse_model(minimal_model())
    with pytest.raises(ValidationError):
        model.title = "changed"  # type: ignore[misc]
