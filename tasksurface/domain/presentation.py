"""The tagged `tool/result.meta` that carries a surface's normalised model for replay."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .ids import TaskSurfaceId, is_wire_id
from .limits import DEFAULT_LIMITS, Limits
from .model import TaskSurfaceModelV1
from .parser import parse_model
from .refusals import SurfaceRefused

META_KIND = "dsh/task-surface"
META_VERSION = 1
TOOL_NAME = "show_task_surface"


@dataclass(frozen=True)
class SurfacePresentation:
    surface_id: TaskSurfaceId
    model: TaskSurfaceModelV1


def presentation_meta(surface_id: TaskSurfaceId, model: TaskSurfaceModelV1) -> dict[str, Any]:
    return {
        "kind": META_KIND,
        "version": META_VERSION,
        "surfaceId": surface_id,
        "model": model.normalised(),
    }


def read_presentation(meta: object, limits: Limits = DEFAULT_LIMITS) -> SurfacePresentation | None:
    """Re-validate persisted meta; `None` means replay falls back to the plain result text."""
    if not isinstance(meta, dict) or set(meta) != {"kind", "version", "surfaceId", "model"}:
        return None
    if meta["kind"] != META_KIND or meta["version"] != META_VERSION:
        return None
    if isinstance(meta["version"], bool) or not is_wire_id(meta["surfaceId"]):
        return None
    try:
        model = parse_model(meta["model"], limits)
    except SurfaceRefused:
        return None
    return SurfacePresentation(TaskSurfaceId(meta["surfaceId"]), model)
