"""The hunks of a `review` field: each run of changed lines, with an id the host derives.

Ids are `h1`, `h2`, … in the order of the change, computed from `before` and `after` alone,
so the page, the validator and the formatter always agree and a replay finds the same ids.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .model_v2 import ReviewField

Decision = str
ACCEPT = "accept"
REJECT = "reject"
DECISIONS = (ACCEPT, REJECT)
CONTEXT = 2
"""Unchanged lines shown on each side of a hunk."""


@dataclass(frozen=True)
class Hunk:
    id: str
    old_start: int
    """1-based line of `before` where the hunk starts (the line it follows, when it removes none)."""
    removed: tuple[str, ...]
    new_start: int
    added: tuple[str, ...]
    before_context: tuple[tuple[int, int, str], ...]
    """(old line, new line, text) of the unchanged lines shown above."""
    after_context: tuple[tuple[int, int, str], ...]

    @property
    def place(self) -> str:
        """Where it is in the old text, as a reader says it: `line 4`, `lines 4-6`, `after line 3`."""
        if not self.removed:
            return f"after line {self.old_start - 1}" if self.old_start > 1 else "at the start"
        end = self.old_start + len(self.removed) - 1
        return f"line {end}" if end == self.old_start else f"lines {self.old_start}-{end}"


def hunks_of(before: str | None, after: str) -> list[Hunk]:
    old = [] if before is None else before.splitlines()
    new = after.splitlines()
    found: list[Hunk] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        above = [(i + 1, j1 - (i1 - i) + 1, old[i]) for i in range(max(0, i1 - CONTEXT), i1)]
        below_count = min(CONTEXT, len(old) - i2, len(new) - j2)
        below = [(i2 + k + 1, j2 + k + 1, old[i2 + k]) for k in range(below_count)]
        found.append(
            Hunk(
                id=f"h{len(found) + 1}",
                old_start=i1 + 1,
                removed=tuple(old[i1:i2]),
                new_start=j1 + 1,
                added=tuple(new[j1:j2]),
                before_context=tuple(above),
                after_context=tuple(below),
            )
        )
    return found


def review_hunks(field: ReviewField) -> list[Hunk]:
    return hunks_of(field.before, field.after)
