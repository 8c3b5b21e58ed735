"""Plain builders for version 2 models: fresh JSON-shaped dicts, keyword arguments verbatim."""

from __future__ import annotations

import copy
from typing import Any

from tasksurface.backends.demos import COMPARE_CARDS, ITINERARY
from tasksurface.domain.limits import DEFAULT_LIMITS, Limits
from tasksurface.domain.model_v2 import TaskSurfaceModelV2
from tasksurface.domain.parser import parse_model

from .builders import option, section

Json = dict[str, Any]


def v2_model(*fields: Json, **overrides: Any) -> Json:
    model: Json = {
        "version": 2,
        "title": "Plan the offsite",
        "sections": [section()],
        "fields": list(fields),
        "submit": {"label": "Send"},
    }
    model.update(overrides)
    return model


def parsed_v2(data: Json, limits: Limits = DEFAULT_LIMITS) -> TaskSurfaceModelV2:
    model = parse_model(data, limits)
    assert isinstance(model, TaskSurfaceModelV2)
    return model


def number_field(id: str = "people", label: str = "People", **extra: Any) -> Json:
    return {"kind": "number", "id": id, "label": label, **extra}


def date_field(id: str = "start", label: str = "Start", **extra: Any) -> Json:
    return {"kind": "date", "id": id, "label": label, **extra}


def text2(id: str = "name", label: str = "Name", **extra: Any) -> Json:
    return {"kind": "text", "id": id, "label": label, **extra}


def choice2(id: str = "stay", label: str = "Stay", options: list[Json] | None = None, **extra: Any) -> Json:
    opts = options if options is not None else [option("hotel", "Hotel"), option("other", "Other")]
    return {"kind": "choice", "id": id, "label": label, "options": opts, **extra}


def multi2(id: str = "diet", label: str = "Diet", options: list[Json] | None = None, **extra: Any) -> Json:
    opts = options if options is not None else [option("veg"), option("vegan"), option("halal")]
    return {"kind": "multi-choice", "id": id, "label": label, "options": opts, **extra}


def toggle2(id: str = "terms", label: str = "Terms", **extra: Any) -> Json:
    return {"kind": "toggle", "id": id, "label": label, **extra}


def review_field(
    id: str = "cfg",
    label: str = "Config",
    before: str | None = "a\nb\nc\nd\ne\nf\ng\n",
    after: str = "a\nB\nc\nd\ne\nf\ng\nh\n",
    **extra: Any,
) -> Json:
    return {"kind": "review", "id": id, "label": label, "before": before, "after": after, **extra}


def choices(*pairs: tuple[str, str]) -> Json:
    return {"actions": [{"id": i, "label": label} for i, label in pairs]}


def comparison(**extra: Any) -> Json:
    """The demo's comparison field, with `extra` keys replaced."""
    field: Json = copy.deepcopy(COMPARE_CARDS["fields"][0])
    field.update(extra)
    return field


def itinerary(**extra: Any) -> Json:
    """The demo's itinerary field, with `extra` keys replaced."""
    field: Json = copy.deepcopy(ITINERARY["fields"][0])
    field.update(extra)
    return field
