"""Model-written `pattern`s, compiled and matched by RE2 only: linear time whatever the input.

A backtracking engine (Python's `re`, the browser's `RegExp`) can take exponential time on
patterns such as `(a+)+$`; RE2 refuses the constructs that need backtracking (look-around,
back-references) and matches everything else in time linear in the input. The pattern is
never handed to the browser.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import re2

MAX_PROGRAM_BYTES = 1 << 20
"""RE2's memory budget for one compiled pattern; bigger programs are refused, not slowed."""


class InvalidPattern(ValueError):
    """Not RE2 syntax, or too big to compile within the budget."""


def _options() -> Any:
    options = re2.Options()
    options.max_mem = MAX_PROGRAM_BYTES
    options.log_errors = False
    return options


@lru_cache(maxsize=256)
def compiled(pattern: str) -> Any:
    """The compiled pattern; the cache is keyed by the text, so a model's pattern compiles once."""
    try:
        return re2.compile(pattern, _options())
    except re2.error as exc:
        raise InvalidPattern(_reason(exc)) from None


def check(pattern: str) -> None:
    """Refuse a pattern that RE2 cannot compile."""
    compiled(pattern)


def matches_whole(pattern: str, value: str) -> bool:
    """Whether the whole value matches, as JSON Schema's `pattern` is used for form inputs here."""
    return compiled(pattern).fullmatch(value) is not None


def _reason(exc: Exception) -> str:
    detail = exc.args[0] if exc.args else ""
    if isinstance(detail, bytes):
        detail = detail.decode(errors="replace")
    return str(detail) or "not an RE2 pattern"
