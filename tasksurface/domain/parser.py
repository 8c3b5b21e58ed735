"""Raw `show_task_surface` arguments → one normalised model, or one typed refusal.

Everything is checked before a surface can open: JSON syntax and duplicate keys, the
closed schema, unique ids, initial values that fit their fields, and every limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from . import parser_v2, strict_json
from .checks import check_count as _check_count
from .checks import check_detail as _check_detail
from .checks import check_short as _check_short
from .checks import check_unique as _check_unique
from .checks import refuse as _refuse
from .limits import DEFAULT_LIMITS, Limits
from .model import (
    ChoiceField,
    DiffBlock,
    MarkdownBlock,
    MetricsBlock,
    MultiChoiceField,
    NoticeBlock,
    OrderField,
    SubmitAction,
    TableBlock,
    TaskSurfaceModelV1,
    TextField,
    ToggleField,
)
from .model_v2 import TaskSurfaceModel, TaskSurfaceModelV2
from .refusals import SurfaceCode, SurfaceRefused


def decode_arguments(raw: str | bytes | Mapping[str, Any], limits: Limits = DEFAULT_LIMITS) -> Any:
    """Decode raw arguments as a model produced them, refusing duplicate keys."""
    if isinstance(raw, Mapping):
        return dict(raw)
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > limits.raw_arguments_bytes:
        raise _refuse(
            SurfaceCode.LIMIT,
            f"arguments are {size} bytes; the limit is {limits.raw_arguments_bytes}",
            "raw_arguments_bytes",
        )
    try:
        return strict_json.loads(raw)
    except strict_json.DuplicateKey as exc:
        raise _refuse(SurfaceCode.DUPLICATE_KEY, str(exc)) from exc
    except ValueError as exc:
        raise _refuse(SurfaceCode.INVALID_JSON, f"arguments are not JSON: {exc}") from exc


def parse_arguments(
    raw: str | bytes | Mapping[str, Any], limits: Limits = DEFAULT_LIMITS
) -> TaskSurfaceModel:
    """Parse the tool's `{"model": …}` arguments."""
    args = decode_arguments(raw, limits)
    if not isinstance(args, dict) or set(args) != {"model"}:
        raise _refuse(SurfaceCode.ARGUMENTS, 'arguments must be exactly {"model": {...}}')
    return parse_model(args["model"], limits)


VERSIONS: dict[int, type[TaskSurfaceModelV1] | type[TaskSurfaceModelV2]] = {
    1: TaskSurfaceModelV1,
    2: TaskSurfaceModelV2,
}


def parse_model(data: Any, limits: Limits = DEFAULT_LIMITS) -> TaskSurfaceModel:
    """Parse and normalise a decoded model; the result passes this function unchanged."""
    if not isinstance(data, dict):
        raise _refuse(SurfaceCode.SCHEMA, "the model must be a JSON object", "model")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int | float) or version not in VERSIONS:
        raise _refuse(
            SurfaceCode.UNSUPPORTED_VERSION,
            f"version {version!r} is not supported; use 1 or 2",
            "model.version",
        )
    try:
        model = VERSIONS[int(version)].model_validate(data)
    except ValidationError as exc:
        raise _schema_refusal(exc.errors()[0]) from exc
    _check_structure(model, limits)
    return model


def _schema_refusal(error: ErrorDetails) -> SurfaceRefused:
    where = ".".join(str(part) for part in ("model", *error["loc"]))
    kind = error["type"]
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return _refuse(SurfaceCode.UNKNOWN_KIND, error["msg"], where)
    if kind == "extra_forbidden":
        return _refuse(SurfaceCode.UNKNOWN_PROPERTY, f"unknown property {where}", where)
    return _refuse(SurfaceCode.SCHEMA, error["msg"], where)


def _check_structure(model: TaskSurfaceModel, limits: Limits) -> None:
    if not model.sections and not model.fields:
        raise _refuse(SurfaceCode.EMPTY, "a surface needs at least one section or field")
    _check_count("sections", len(model.sections), limits.sections, "model.sections")
    _check_count("blocks", sum(len(s.blocks) for s in model.sections), limits.blocks, "model.sections")
    _check_count("fields", len(model.fields), limits.fields, "model.fields")
    _check_unique(
        [(s.id, f"model.sections.{i}.id") for i, s in enumerate(model.sections)]
        + [(f.id, f"model.fields.{i}.id") for i, f in enumerate(model.fields)]
    )
    _check_short(limits, model.title, "model.title")
    if isinstance(model.submit, SubmitAction):
        _check_short(limits, model.submit.label, "model.submit.label")
    _check_detail(limits, model.description, "model.description")
    for i, section in enumerate(model.sections):
        where = f"model.sections.{i}"
        if not section.blocks:
            raise _refuse(SurfaceCode.EMPTY, "a section needs at least one block", where)
        _check_short(limits, section.title, f"{where}.title")
        for j, block in enumerate(section.blocks):
            if isinstance(block, MarkdownBlock | MetricsBlock | TableBlock | DiffBlock | NoticeBlock):
                _check_block(block, limits, f"{where}.blocks.{j}")
    for i, field in enumerate(model.fields):
        if isinstance(field, TextField | ChoiceField | MultiChoiceField | ToggleField | OrderField):
            _check_field(field, limits, f"model.fields.{i}")
    if isinstance(model, TaskSurfaceModelV2):
        parser_v2.check_v2(model, limits)
    try:
        size = strict_json.utf8_size(model.normalised())
    except UnicodeEncodeError as exc:
        raise _refuse(SurfaceCode.SCHEMA, "text must be valid Unicode (no lone surrogates)", "model") from exc
    if size > limits.model_bytes:
        raise _refuse(
            SurfaceCode.LIMIT,
            f"the normalised model is {size} bytes; the limit model_bytes is {limits.model_bytes}",
            "model_bytes",
        )


def _check_block(
    block: MarkdownBlock | MetricsBlock | TableBlock | DiffBlock | NoticeBlock,
    limits: Limits,
    where: str,
) -> None:
    match block:
        case MetricsBlock(items=items):
            _check_count("metric_items", len(items), limits.metric_items, f"{where}.items")
            if not items:
                raise _refuse(SurfaceCode.EMPTY, "metrics need at least one item", where)
            for k, item in enumerate(items):
                _check_short(limits, item.label, f"{where}.items.{k}.label")
                _check_short(limits, item.value, f"{where}.items.{k}.value")
                _check_detail(limits, item.detail, f"{where}.items.{k}.detail")
        case TableBlock(columns=columns, rows=rows):
            if not columns:
                raise _refuse(SurfaceCode.EMPTY, "a table needs at least one column", where)
            _check_count("table_columns", len(columns), limits.table_columns, f"{where}.columns")
            _check_count("table_rows", len(rows), limits.table_rows, f"{where}.rows")
            _check_unique([(c.id, f"{where}.columns.{k}.id") for k, c in enumerate(columns)])
            declared = {c.id for c in columns}
            for k, column in enumerate(columns):
                _check_short(limits, column.label, f"{where}.columns.{k}.label")
            for r, row in enumerate(rows):
                for key, cell in row.items():
                    if key not in declared:
                        raise _refuse(
                            SurfaceCode.UNKNOWN_COLUMN,
                            f"row {r} has a cell for undeclared column {key!r}",
                            f"{where}.rows.{r}.{key}",
                        )
                    if isinstance(cell, str):
                        _check_detail(limits, cell, f"{where}.rows.{r}.{key}")
        case DiffBlock(path=path, language=language):
            _check_short(limits, path, f"{where}.path")
            _check_short(limits, language, f"{where}.language")
        case MarkdownBlock() | NoticeBlock():
            pass


def _check_field(
    field: TextField | ChoiceField | MultiChoiceField | ToggleField | OrderField,
    limits: Limits,
    where: str,
) -> None:
    _check_short(limits, field.label, f"{where}.label")
    match field:
        case TextField(initial=initial):
            if initial is not None and len(initial) > limits.note_chars:
                raise _refuse(
                    SurfaceCode.LIMIT,
                    f"initial text is {len(initial)} characters; the limit note_chars is {limits.note_chars}",
                    f"{where}.initial",
                )
        case ToggleField():
            pass
        case ChoiceField() | MultiChoiceField() | OrderField():
            _check_options(field, limits, where)


def _check_options(field: ChoiceField | MultiChoiceField | OrderField, limits: Limits, where: str) -> None:
    if not field.options:
        raise _refuse(SurfaceCode.EMPTY, "a field with options needs at least one", where)
    name, limit = (
        ("filterable_options", limits.filterable_options)
        if getattr(field, "filterable", False)
        else ("options", limits.options)
    )
    _check_count(name, len(field.options), limit, f"{where}.options")
    _check_unique([(o.id, f"{where}.options.{k}.id") for k, o in enumerate(field.options)])
    for k, option in enumerate(field.options):
        _check_short(limits, option.label, f"{where}.options.{k}.label")
        _check_detail(limits, option.detail, f"{where}.options.{k}.detail")
    ids = [o.id for o in field.options]
    initial = field.initial
    if initial is None:
        return
    bad = SurfaceCode.INVALID_INITIAL
    if isinstance(field, ChoiceField):
        if initial not in ids:
            raise _refuse(bad, f"initial {initial!r} is not an option id", f"{where}.initial")
    elif isinstance(field, MultiChoiceField):
        assert isinstance(initial, list)
        if len(set(initial)) != len(initial) or not set(initial) <= set(ids):
            raise _refuse(bad, "initial must list distinct option ids", f"{where}.initial")
    elif sorted(initial) != sorted(ids):
        raise _refuse(bad, "initial must order every option id exactly once", f"{where}.initial")
