"""Hypothesis strategies for valid Task Surface models (all well inside the default limits)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

Json = dict[str, Any]

ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"
model_ids = st.text(ID_ALPHABET, min_size=1, max_size=8)
short_text = st.text(max_size=16)
long_text = st.text(max_size=40)
cell_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53), max_value=2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    short_text,
)


def _with_optional(required: Json, optional: Json) -> st.SearchStrategy[Json]:
    return st.fixed_dictionaries(required, optional=optional)


layouts = st.one_of(
    st.fixed_dictionaries({"kind": st.just("stack")}),
    st.fixed_dictionaries({"kind": st.just("grid"), "columns": st.sampled_from([2, 3])}),
)

markdown_blocks = st.fixed_dictionaries({"kind": st.just("markdown"), "text": long_text})
notice_blocks = st.fixed_dictionaries(
    {"kind": st.just("notice"), "tone": st.sampled_from(["neutral", "info", "warning"]), "text": long_text}
)
metrics_blocks = st.fixed_dictionaries(
    {
        "kind": st.just("metrics"),
        "items": st.lists(
            _with_optional({"label": short_text, "value": short_text}, {"detail": st.none() | long_text}),
            min_size=1,
            max_size=3,
        ),
    }
)
diff_blocks = _with_optional(
    {"kind": st.just("diff"), "before": st.none() | long_text, "after": long_text},
    {"path": st.none() | short_text, "language": st.none() | short_text},
)


@st.composite
def table_blocks(draw: st.DrawFn) -> Json:
    ids = draw(st.lists(model_ids, min_size=1, max_size=3, unique=True))
    columns = [{"id": i, "label": draw(short_text)} for i in ids]
    rows = draw(
        st.lists(
            st.dictionaries(st.sampled_from(ids), cell_values, max_size=len(ids)),
            max_size=3,
        )
    )
    return {"kind": "table", "columns": columns, "rows": rows}


blocks = st.one_of(markdown_blocks, notice_blocks, metrics_blocks, diff_blocks, table_blocks())


@st.composite
def options(draw: st.DrawFn) -> list[Json]:
    ids = draw(st.lists(model_ids, min_size=1, max_size=4, unique=True))
    return [
        draw(_with_optional({"id": st.just(i), "label": short_text}, {"detail": st.none() | long_text}))
        for i in ids
    ]


@st.composite
def field_of_kind(draw: st.DrawFn, field_id: str) -> Json:
    kind = draw(st.sampled_from(["text", "choice", "multi-choice", "toggle", "order"]))
    field: Json = {"kind": kind, "id": field_id, "label": draw(short_text)}
    if kind == "text":
        extra = draw(
            st.fixed_dictionaries(
                {}, optional={"multiline": st.booleans(), "required": st.booleans(), "initial": long_text}
            )
        )
        field.update(extra)
    elif kind == "toggle":
        if draw(st.booleans()):
            field["initial"] = draw(st.booleans())
    else:
        opts = draw(options())
        ids = [o["id"] for o in opts]
        field["options"] = opts
        if draw(st.booleans()):
            if kind == "choice":
                field["initial"] = draw(st.sampled_from(ids))
            elif kind == "multi-choice":
                field["initial"] = draw(st.lists(st.sampled_from(ids), unique=True))
            else:
                field["initial"] = draw(st.permutations(ids))
    return field


@st.composite
def valid_models(draw: st.DrawFn) -> Json:
    n_sections = draw(st.integers(0, 3))
    n_fields = draw(st.integers(0 if n_sections else 1, 4))
    ids = draw(
        st.lists(model_ids, min_size=n_sections + n_fields, max_size=n_sections + n_fields, unique=True)
    )
    sections = []
    for section_id in ids[:n_sections]:
        section = draw(
            _with_optional(
                {"id": st.just(section_id), "blocks": st.lists(blocks, min_size=1, max_size=3)},
                {"title": st.none() | short_text, "layout": layouts},
            )
        )
        sections.append(section)
    model: Json = {"version": 1, "title": draw(short_text), "sections": sections}
    fields = [draw(field_of_kind(field_id)) for field_id in ids[n_sections:]]
    if bool(fields) or draw(st.booleans()):
        model["fields"] = fields
    if draw(st.booleans()):
        model["description"] = draw(long_text)
    model["submit"] = {"label": draw(short_text)}
    return model


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**60), max_value=2**60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=10),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


# --- version 2 ----------------------------------------------------------------------------

iso_dates = st.dates().map(lambda d: d.isoformat()).filter(lambda s: len(s) == 10)
numbers = st.one_of(
    st.integers(-1000, 1000), st.floats(-1000, 1000, allow_nan=False).map(lambda x: round(x, 2))
)


@st.composite
def field_v2_of_kind(draw: st.DrawFn, field_id: str, earlier: list[Json]) -> Json:
    kind = draw(
        st.sampled_from(["text", "number", "date", "choice", "multi-choice", "toggle", "order", "review"])
    )
    field: Json = {"kind": kind, "id": field_id, "label": draw(short_text)}
    if draw(st.booleans()):
        field["help"] = draw(long_text)
    if kind == "text":
        field.update(
            draw(st.fixed_dictionaries({}, optional={"placeholder": short_text, "multiline": st.booleans()}))
        )
        if draw(st.booleans()):
            low = draw(st.integers(0, 5))
            field["minLength"], field["maxLength"] = low, low + draw(st.integers(1, 20))
        if draw(st.booleans()):
            field["pattern"] = draw(st.sampled_from(["[a-z]*", "\\d{0,4}", ".*", "(ab|cd)*"]))
    elif kind == "number":
        integer = draw(st.booleans())
        low = draw(st.integers(-100, 100))
        field.update({"integer": integer, "minimum": low, "maximum": low + draw(st.integers(0, 100))})
        if draw(st.booleans()):
            field["initial"] = low
        if draw(st.booleans()):
            field["step"] = 1 if integer else draw(st.sampled_from([0.5, 0.25, 2]))
    elif kind == "date":
        earliest, latest = sorted([draw(iso_dates), draw(iso_dates)])
        field.update({"minimum": earliest, "maximum": latest})
        if draw(st.booleans()):
            field["initial"] = earliest
    elif kind == "toggle":
        field["required"] = draw(st.booleans())
    elif kind == "review":
        before = draw(st.lists(st.sampled_from(["a", "b", "c"]), max_size=4))
        after = draw(
            st.lists(st.sampled_from(["a", "b", "d"]), min_size=1, max_size=4).filter(lambda a: a != before)
        )
        field.update(
            {"before": "\n".join(before) + "\n" if before else None, "after": "\n".join(after) + "\n"}
        )
    else:
        opts = draw(options())
        field["options"] = opts
        if kind in ("choice", "multi-choice") and draw(st.booleans()):
            field["filterable"] = True
        if kind == "multi-choice" and draw(st.booleans()):
            field["maxItems"] = len(opts)
    controllers = [f for f in earlier if f["kind"] in ("choice", "toggle")]
    if bool(controllers) and draw(st.booleans()):
        controller = draw(st.sampled_from(controllers))
        value = (
            draw(st.sampled_from([o["id"] for o in controller["options"]]))
            if controller["kind"] == "choice"
            else draw(st.booleans())
        )
        field["visibleWhen"] = {"field": controller["id"], "equals": value}
    return field


@st.composite
def valid_models_v2(draw: st.DrawFn) -> Json:
    n_fields = draw(st.integers(1, 5))
    ids = draw(st.lists(model_ids, min_size=n_fields + 1, max_size=n_fields + 1, unique=True))
    fields: list[Json] = []
    for field_id in ids[1:]:
        fields.append(draw(field_v2_of_kind(field_id, fields)))
    model: Json = {
        "version": 2,
        "title": draw(short_text),
        "sections": [{"id": ids[0], "blocks": draw(st.lists(blocks, min_size=1, max_size=2))}],
        "fields": fields,
    }
    if draw(st.booleans()):
        model["submit"] = {"label": draw(short_text)}
    else:
        model["submit"] = {
            "actions": [
                {"id": "ok", "label": draw(short_text), "tone": "primary"},
                {"id": "no", "label": "No"},
            ]
        }
    if draw(st.booleans()):
        model["actions"] = [{"id": "act", "label": draw(short_text)}]
    return model
