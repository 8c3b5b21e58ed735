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
    if fields or draw(st.booleans()):
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
