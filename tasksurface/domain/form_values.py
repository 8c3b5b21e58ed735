"""Plain HTML form fields → submission values, so the dock submits without JavaScript.

Field `f.<id>` carries a field's value; a toggle is present only when on, a
multi-choice once per checked option, an order once per option in list order, a
review's decision per hunk as `f.<id>.<hunkId>`. A number or date left empty is not
answered; a number that does not read as one is kept as typed, so the validator can say so
beside the field. Fields that do not apply (their condition does not hold) are left out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from .hunks import review_hunks
from .model import ChoiceField, MultiChoiceField, OrderField, TextField, ToggleField
from .model_v2 import ComparisonField, DateField, ItineraryField, NumberField, ReviewField, TaskSurfaceModel
from .submission import Values, submittable

PREFIX = "f."
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def form_name(field_id: str) -> str:
    return PREFIX + field_id


def hunk_name(field_id: str, hunk_id: str) -> str:
    return f"{PREFIX}{field_id}.{hunk_id}"


def read_number(text: str) -> Any:
    """`"12"` → 12, `"2.5"` → 2.5, `""` → None; anything else stays text (and is refused)."""
    cleaned = text.strip()
    if not cleaned:
        return None
    match = _NUMBER.fullmatch(cleaned)
    if match is None or len(cleaned) > 100:
        return text
    if match.group(1) is None and match.group(2) is None:
        return int(cleaned)
    number = float(cleaned)
    return text if math.isinf(number) else number


def values_from_form(model: TaskSurfaceModel, getlist: Callable[[str], Sequence[str]]) -> Values:
    values: Values = {}
    for field in model.fields:
        posted = list(getlist(form_name(field.id)))
        match field:
            case NumberField():
                values[field.id] = read_number(posted[0]) if posted else None
            case DateField():
                values[field.id] = posted[0].strip() or None if posted else None
            case ComparisonField(select="one"):
                values[field.id] = posted[0] if posted else None
            case ComparisonField() | ItineraryField():
                values[field.id] = posted  # an itinerary's stops are posted in visit order
            case ReviewField():
                decisions = {h.id: list(getlist(hunk_name(field.id, h.id))) for h in review_hunks(field)}
                values[field.id] = {k: v[0] for k, v in decisions.items() if v and v[0]}
            case TextField():
                values[field.id] = posted[0].replace("\r\n", "\n") if posted else ""
            case ToggleField():
                values[field.id] = "true" in posted
            case ChoiceField():
                values[field.id] = posted[0] if posted else None
            case MultiChoiceField() | OrderField():
                values[field.id] = posted
    return submittable(model, values)
