"""JSON decoding that refuses duplicate keys and non-finite numbers.

The standard decoder keeps the last of two equal keys, so a model could show one
value and persist another; refusing the whole document is the only honest answer.
"""

from __future__ import annotations

import json
import math
from typing import Any


class DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(f"duplicate key {key!r}")
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise DuplicateKey(key)
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise ValueError(f"{literal} is not a finite number")
    return value


def loads(text: str | bytes) -> Any:
    """Decode JSON; raise `DuplicateKey` or `ValueError` instead of guessing."""
    try:
        return json.loads(
            text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant, parse_float=_finite_float
        )
    except RecursionError:
        raise ValueError("the document is nested too deeply") from None


def dumps_compact(value: Any) -> str:
    """The one compact form used for byte limits and conflict comparison."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def utf8_size(value: Any) -> int:
    return len(dumps_compact(value).encode("utf-8"))
