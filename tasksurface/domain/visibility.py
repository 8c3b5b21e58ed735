"""Which fields apply, given the values so far: the one rule behind `visibleWhen`.

A field with a condition applies while its controlling field applies and has the named
value (`equals`) or one of the named values (`in`); a multi-choice matches when any chosen
option is named. A field that does not apply is neither required nor submitted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .model_v2 import VisibleWhen


def condition_values(condition: VisibleWhen) -> list[Any]:
    """The values a condition accepts: `[equals]` or `in`."""
    if condition.in_ is not None:
        return list(condition.in_)
    return [condition.equals]


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: `true` is not `1`, and `1` is `1.0`."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b  # the same boolean; a bool is never the same object as a number
    return bool(a == b)


def holds(condition: VisibleWhen, value: Any) -> bool:
    wanted = condition_values(condition)
    if isinstance(value, list):
        return any(_same(v, w) for v in value for w in wanted)
    return any(_same(value, w) for w in wanted)


def applying(fields: Sequence[Any], values: Mapping[str, Any]) -> set[str]:
    """Ids of the fields that apply; conditions name earlier fields, so one pass decides."""
    shown: set[str] = set()
    for field in fields:
        condition: VisibleWhen | None = getattr(field, "visibleWhen", None)
        if condition is None or (condition.field in shown and holds(condition, values.get(condition.field))):
            shown.add(field.id)
    return shown
