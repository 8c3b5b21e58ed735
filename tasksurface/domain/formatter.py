"""The one readable text of a submission: the user sees it, the model reads it.

Deterministic and compact: the title, then one line per field in model order with
labels (never ids) and the submitted value, then the note. The display model itself
is never repeated.
"""

from __future__ import annotations

import re

from .model import (
    ChoiceField,
    MultiChoiceField,
    OrderField,
    TaskSurfaceModelV1,
    TextField,
    ToggleField,
)
from .submission import Values

HEADER = "Task Surface"
INDENT = "    "


def format_submission(model: TaskSurfaceModelV1, values: Values, note: str | None) -> str:
    lines = [f"{HEADER}: {model.title}"]
    for field in model.fields:
        if field.id in values:
            lines.extend(_field_lines(field, values[field.id]))
    if note:
        lines.extend(_labelled("Note", note))
    return "\n".join(lines)


def _field_lines(
    field: TextField | ChoiceField | MultiChoiceField | ToggleField | OrderField, value: object
) -> list[str]:
    match field:
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


LINE_BREAK = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
"""Every character a reader may see as a new line, so submitted text cannot forge a `- Field:` line."""


def _labelled(label: str, text: str) -> list[str]:
    """One line when the text is one line; otherwise an indented block that keeps every line."""
    lines = LINE_BREAK.split(text)
    if len(lines) == 1:
        return [f"- {label}: {text}"]
    return [f"- {label}:", *(INDENT + line for line in lines)]


def _label_of(field: ChoiceField | MultiChoiceField | OrderField, option_id: str) -> str:
    return next((o.label for o in field.options if o.id == option_id), option_id)
