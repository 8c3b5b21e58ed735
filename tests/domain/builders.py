"""Plain builders for Task Surface models, arguments and session events.

Every builder returns fresh JSON-shaped dicts, so a test can change one key without
touching another test's data. Keyword arguments replace or add keys verbatim. Event
payloads are written out as the log stores them, never made by the production builders:
logs already written must keep folding the same way, whatever those builders become.

The model builders take any value for a key, not only a valid one, so a test can build a model
of the wrong shape (a number for a title, an object for a list) as plainly as a right one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from tasksurface.domain.events import SessionEvent
from tasksurface.domain.ids import CallId, RpcId, TaskSurfaceId
from tasksurface.domain.limits import DEFAULT_LIMITS, Limits
from tasksurface.domain.model import TaskSurfaceModelV1
from tasksurface.domain.parser import parse_model

Json = dict[str, Any]

# --- blocks -----------------------------------------------------------------------------


def markdown_block(text: object = "Pick the **release** you want.", **extra: Any) -> Json:
    return {"kind": "markdown", "text": text, **extra}


def metric(label: object = "Latency", value: object = "120 ms", **extra: Any) -> Json:
    return {"label": label, "value": value, **extra}


def metrics_block(items: object = None, **extra: Any) -> Json:
    return {"kind": "metrics", "items": [metric()] if items is None else items, **extra}


def column(id: object = "name", label: object = "Name", **extra: Any) -> Json:
    return {"id": id, "label": label, **extra}


def table_block(columns: object = None, rows: object = None, **extra: Any) -> Json:
    if columns is None:
        columns = [column("name", "Name"), column("size", "Size")]
    if rows is None:
        rows = [{"name": "core", "size": 12}, {"name": "web", "size": None}]
    return {"kind": "table", "columns": columns, "rows": rows, **extra}


def diff_block(before: object = "old\n", after: object = "new\n", **extra: Any) -> Json:
    return {"kind": "diff", "before": before, "after": after, **extra}


def notice_block(tone: object = "info", text: object = "Heads up.", **extra: Any) -> Json:
    return {"kind": "notice", "tone": tone, "text": text, **extra}


BLOCK_BUILDERS: dict[str, Callable[[], Json]] = {
    "markdown": markdown_block,
    "metrics": metrics_block,
    "table": table_block,
    "diff": diff_block,
    "notice": notice_block,
}


def section(id: object = "overview", blocks: object = None, **extra: Any) -> Json:
    return {"id": id, "blocks": [markdown_block()] if blocks is None else blocks, **extra}


# --- fields -----------------------------------------------------------------------------


def option(id: str, label: object = None, **extra: Any) -> Json:
    return {"id": id, "label": label if label is not None else id.title(), **extra}


def default_options() -> list[Json]:
    return [option("alpha", "Alpha"), option("beta", "Beta"), option("gamma", "Gamma")]


def text_field(id: object = "summary", label: object = "Summary", **extra: Any) -> Json:
    return {"kind": "text", "id": id, "label": label, **extra}


def choice_field(
    id: object = "target", label: object = "Target", options: object = None, **extra: Any
) -> Json:
    return {
        "kind": "choice",
        "id": id,
        "label": label,
        "options": default_options() if options is None else options,
        **extra,
    }


def multi_choice_field(
    id: object = "extras", label: object = "Extras", options: object = None, **extra: Any
) -> Json:
    return {
        "kind": "multi-choice",
        "id": id,
        "label": label,
        "options": default_options() if options is None else options,
        **extra,
    }


def toggle_field(id: object = "notify", label: object = "Notify", **extra: Any) -> Json:
    return {"kind": "toggle", "id": id, "label": label, **extra}


def order_field(id: object = "steps", label: object = "Steps", options: object = None, **extra: Any) -> Json:
    return {
        "kind": "order",
        "id": id,
        "label": label,
        "options": default_options() if options is None else options,
        **extra,
    }


FIELD_BUILDERS = {
    "text": text_field,
    "choice": choice_field,
    "multi-choice": multi_choice_field,
    "toggle": toggle_field,
    "order": order_field,
}
OPTION_FIELD_BUILDERS = {
    "choice": choice_field,
    "multi-choice": multi_choice_field,
    "order": order_field,
}

# --- models -----------------------------------------------------------------------------


def minimal_model(**overrides: Any) -> Json:
    """The smallest valid model: one section with one markdown block, no fields."""
    model: Json = {
        "version": 1,
        "title": "Choose a release",
        "sections": [section()],
        "submit": {"label": "Send"},
    }
    model.update(overrides)
    return model


def model_with_fields(*fields: Json, **overrides: Any) -> Json:
    return minimal_model(fields=list(fields), **overrides)


def model_with_blocks(*blocks: Json, **overrides: Any) -> Json:
    return minimal_model(sections=[section(blocks=list(blocks))], **overrides)


def full_model(**overrides: Any) -> Json:
    """Every block kind, every field kind, every optional key."""
    model: Json = {
        "version": 1,
        "title": "Review the release",
        "description": "Everything needed to decide.",
        "sections": [
            section(
                "summary",
                title="Summary",
                layout={"kind": "grid", "columns": 2},
                blocks=[
                    markdown_block("Read **this** first."),
                    metrics_block([metric("Errors", "3", detail="in the last hour"), metric()]),
                ],
            ),
            section(
                "details",
                title="Details",
                layout={"kind": "stack"},
                blocks=[
                    table_block(),
                    diff_block(path="src/app.py", language="python"),
                    diff_block(before=None, after="brand new\n"),
                    notice_block("warning", "This cannot be undone."),
                ],
            ),
        ],
        "fields": [
            text_field("summary_text", "Summary", multiline=True, required=True, initial="Looks good"),
            choice_field(
                "target",
                "Target",
                options=[option("stable", "Stable", detail="Everyone"), option("beta", "Beta")],
                initial="beta",
            ),
            multi_choice_field("extras", "Extras", initial=["alpha", "gamma"]),
            toggle_field("notify", "Notify users", initial=True),
            order_field("steps", "Steps", initial=["gamma", "alpha", "beta"]),
        ],
        "submit": {"label": "Ship it"},
    }
    model.update(overrides)
    return model


def parsed(data: Json | None = None, limits: Limits = DEFAULT_LIMITS) -> TaskSurfaceModelV1:
    model = parse_model(minimal_model() if data is None else data, limits)
    assert isinstance(model, TaskSurfaceModelV1)
    return model


def arguments(model: Json) -> str:
    return json.dumps({"model": model})


# --- events -----------------------------------------------------------------------------

AT = datetime(2026, 8, 4, 12, 0, tzinfo=UTC)
CALL = CallId("call_00000001")
SURFACE = TaskSurfaceId("surf_00000001")
OTHER_SURFACE = TaskSurfaceId("surf_00000002")
RPC = RpcId("rpc_00000001")


def event(seq: int, kind: Any, payload: Json) -> SessionEvent:
    return SessionEvent(seq=seq, kind=kind, at=AT, payload=payload)


def surface_meta(surface_id: str = SURFACE, model: Json | None = None) -> Json:
    """`tool/result.meta` of a shown surface, written out as the log stores it."""
    return {
        "kind": "dsh/task-surface",
        "version": 1,
        "surfaceId": surface_id,
        "model": parsed(model).normalised(),
    }


def surface_result(
    seq: int = 2,
    *,
    call_id: str = CALL,
    surface_id: str = SURFACE,
    name: str = "show_task_surface",
    ok: bool = True,
    meta: Json | None = None,
) -> SessionEvent:
    payload = {
        "callId": call_id,
        "name": name,
        "ok": ok,
        "content": [{"type": "text", "text": "shown"}],
        "meta": surface_meta(surface_id) if meta is None else meta,
        "endsTurn": True,
    }
    return event(seq, "tool/result", payload)


def surface_call(seq: int = 1, call_id: str = CALL) -> SessionEvent:
    payload = {"callId": call_id, "name": "show_task_surface", "args": {"model": minimal_model()}}
    return event(seq, "tool/call", payload)


def ordinary_message(seq: int, text: str = "never mind") -> SessionEvent:
    payload = {
        "messageId": f"msg_{seq:08d}",
        "source": {"kind": "user", "rpcId": RPC},
        "content": [{"type": "text", "text": text}],
    }
    return event(seq, "user/message", payload)


def submission_message(seq: int, surface_id: str = SURFACE, call_id: str = CALL) -> SessionEvent:
    payload = {
        "messageId": f"msg_{seq:08d}",
        "source": {
            "kind": "user",
            "rpcId": RPC,
            "taskSurface": {
                "version": 1,
                "submissionId": f"sub_{seq:08d}",
                "callId": call_id,
                "surfaceId": surface_id,
                "values": {},
            },
        },
        "content": [{"type": "text", "text": "Task Surface: done"}],
    }
    return event(seq, "user/message", payload)


def dismissal(seq: int, surface_id: str = SURFACE, call_id: str = CALL) -> SessionEvent:
    payload = {"surfaceId": surface_id, "callId": call_id, "dismissalId": f"dis_{seq:08d}"}
    return event(seq, "task-surface/dismissed", payload)
