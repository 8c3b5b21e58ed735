"""The one readable text of a submission: the user sees it, the model reads it.

Deterministic and compact: the title, then the chosen submit action (version 2), then one
line per field that applies, in model order, with labels (never ids) and the submitted value,
then the note (the reason, when an action was chosen). The display model itself is never
repeated.
"""

from __future__ import annotations

import re
from typing import Any

from .hunks import ACCEPT, REJECT, review_hunks
from .model import ChoiceField, MultiChoiceField, OrderField, TextField, ToggleField
from .model_v2 import (
    ComparisonField,
    DateField,
    ItineraryField,
    NumberField,
    PanelAction,
    ReviewField,
    TaskSurfaceModel,
    TaskSurfaceModelV2,
)
from .submission import Values

HEADER = "Task Surface"
INDENT = "    "
NOT_ANSWERED = "(not answered)"


def format_submission(
    model: TaskSurfaceModel, values: Values, note: str | None, action: str | None = None
) -> str:
    lines = [f"{HEADER}: {model.title}"]
    choice = model.submit_choice(action) if isinstance(model, TaskSurfaceModelV2) and action else None
    if choice is not None:
        lines.append(f"- Decision: {choice.label}")
    for field in model.fields:
        if field.id in values:
            lines.extend(_field_lines(field, values[field.id]))
    if note:
        lines.extend(_labelled("Reason" if choice is not None else "Note", note))
    return "\n".join(lines)


def format_action(model: TaskSurfaceModelV2, action: PanelAction, values: Values) -> str:
    """The visible message of a non-blocking action: which one, then the values as they stand."""
    lines = [f"{HEADER}: {model.title}", f"- Action: {action.label}"]
    for field in model.fields:
        if field.id in values:
            lines.extend(_field_lines(field, values[field.id]))
    return "\n".join(lines)


def format_number(value: int | float, unit: str | None = None) -> str:
    """As written in JSON (`2`, `2.5`, `1e+21`), with the unit after a space."""
    text = repr(value)
    return f"{text} {unit}" if unit else text


def _field_lines(field: Any, value: Any) -> list[str]:
    match field:
        case NumberField():
            shown = NOT_ANSWERED if value is None else format_number(value, field.unit)
            return [f"- {field.label}: {shown}"]
        case DateField():
            return [f"- {field.label}: {value or NOT_ANSWERED}"]
        case ReviewField():
            return _review_lines(field, value)
        case ComparisonField():
            labels = {c.id: c.label for c in field.candidates}
            picked = [value] if isinstance(value, str) else list(value or [])
            shown = ", ".join(labels.get(v, v) for v in picked)
            return [f"- {field.label}: {shown or (NOT_ANSWERED if field.select == 'one' else '(none)')}"]
        case ItineraryField():
            labels = {p.id: p.label for p in field.places}
            stops = ", ".join(f"{n}. {labels.get(v, v)}" for n, v in enumerate(value, 1))
            return [f"- {field.label}: {stops or '(no stops)'}"]
        case ChoiceField() if value is None:
            return [f"- {field.label}: {NOT_ANSWERED}"]
        case TextField():
            assert isinstance(value, str)
            return _labelled(field.label, value) if value else [f"- {field.label}: (empty)"]
        case ToggleField():
            return [f"- {field.label}: {'yes' if value else 'no'}"]
        case ChoiceField():
            return [f"- {field.label}: {_label_of(field, str(value))}"]
        case MultiChoiceField():
            assert isinstance(value, list)
            chosen = ", ".join(_label_of(field, v) for v in value)
            return [f"- {field.label}: {chosen or '(none)'}"]
        case OrderField():
            assert isinstance(value, list)
            ordered = ", ".join(f"{n}. {_label_of(field, v)}" for n, v in enumerate(value, 1))
            return [f"- {field.label}: {ordered}"]
    raise TypeError(f"no line format for a {type(field).__name__}")


LINE_BREAK = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
"""Every character a reader may see as a new line, so submitted text cannot forge a `- Field:` line."""


def _review_lines(field: ReviewField, decisions: dict[str, Any]) -> list[str]:
    """`accepted 2 of 3 changes`, then which, by number and the old lines they change."""
    hunks = review_hunks(field)
    groups: dict[str, list[str]] = {"accepted": [], "rejected": [], "undecided": []}
    for number, hunk in enumerate(hunks, 1):
        decision = decisions.get(hunk.id)
        key = "accepted" if decision == ACCEPT else "rejected" if decision == REJECT else "undecided"
        groups[key].append(f"{number} ({hunk.place})")
    lines = [f"- {field.label}: accepted {len(groups['accepted'])} of {len(hunks)} changes"]
    lines.extend(f"{INDENT}{key}: {', '.join(items)}" for key, items in groups.items() if items)
    return lines


def _labelled(label: str, text: str) -> list[str]:
    """One line when the text is one line; otherwise an indented block that keeps every line."""
    lines = LINE_BREAK.split(text)
    if len(lines) == 1:
        return [f"- {label}: {text}"]
    return [f"- {label}:", *(INDENT + line for line in lines)]


def _label_of(field: ChoiceField | MultiChoiceField | OrderField, option_id: str) -> str:
    return next((o.label for o in field.options if o.id == option_id), option_id)
