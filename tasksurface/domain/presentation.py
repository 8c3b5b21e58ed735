"""The tagged `tool/result.meta` that carries a surface's normalised model for replay."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .ids import TaskSurfaceId, is_wire_id
from .limits import DEFAULT_LIMITS, Limits
from .model_v2 import TaskSurfaceModel
from .parser import VERSIONS, parse_model
from .refusals import Problem, RecoveryCode, SurfaceRefused

META_KIND = "dsh/task-surface"
META_VERSION = 1
TOOL_NAME = "show_task_surface"


@dataclass(frozen=True)
class SurfacePresentation:
    surface_id: TaskSurfaceId
    model: TaskSurfaceModel


def presentation_meta(surface_id: TaskSurfaceId, model: TaskSurfaceModel) -> dict[str, Any]:
    """`version` is the envelope's; the model carries its own (1 or 2)."""
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


def expiry(meta: object, limits: Limits = DEFAULT_LIMITS) -> Problem:
    """Why a stored panel cannot be shown any more, for the `surface.expired` notice; `where`
    names the reason (`no-description`, `newer-version`, `invalid`, `damaged`)."""
    if not isinstance(meta, dict):
        return Problem(
            RecoveryCode.EXPIRED,
            "the host that showed this panel kept no description of it",
            "no-description",
        )
    model = meta.get("model")
    version = model.get("version") if isinstance(model, dict) else None
    newer = meta.get("version") != META_VERSION or (
        isinstance(version, int) and not isinstance(version, bool) and version > max(VERSIONS)
    )
    if newer:
        return Problem(
            RecoveryCode.EXPIRED, "a newer version of Task Surface wrote this panel", "newer-version"
        )
    try:
        parse_model(model, limits)
    except SurfaceRefused as refusal:
        return Problem(
            RecoveryCode.EXPIRED, f"its stored description no longer validates ({refusal.code})", "invalid"
        )
    return Problem(RecoveryCode.EXPIRED, "its stored description is damaged", "damaged")
