"""Plain HTML form fields → submission values, so the dock submits without JavaScript.

Field `f.<id>` carries a field's value; a toggle is present only when on, a
multi-choice once per checked option, an order once per option in list order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .model import (
    ChoiceField,
    MultiChoiceField,
    OrderField,
    TaskSurfaceModelV1,
    TextField,
    ToggleField,
)
from .submission import Values

PREFIX = "f."


def form_name(field_id: str) -> str:
    return PREFIX + field_id


def values_from_form(model: TaskSurfaceModelV1, getlist: Callable[[str], Sequence[str]]) -> Values:
    values: Values = {}
    for field in model.fields:
        posted = list(getlist(form_name(field.id)))
        match field:
            case TextField():
                values[field.id] = posted[0].replace("\r\n", "\n") if posted else ""
            case ToggleField():
                values[field.id] = "true" in posted
            case ChoiceField():
                values[field.id] = posted[0] if posted else None
            case MultiChoiceField() | OrderField():
                values[field.id] = posted
    return values
