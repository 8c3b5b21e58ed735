"""Line diffs for the `diff` block: numbered rows with markers, long unchanged runs folded."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Literal

Marker = Literal["+", "-", " ", "…"]
CONTEXT = 3


@dataclass(frozen=True)
class DiffLine:
    marker: Marker
    old_no: int | None
    new_no: int | None
    text: str


def diff_lines(before: str | None, after: str) -> list[DiffLine]:
    """`before=None` is a new file: every line is added."""
    old = [] if before is None else before.splitlines()
    new = after.splitlines()
    lines: list[DiffLine] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            lines.extend(
                _folded([DiffLine(" ", i1 + k + 1, j1 + k + 1, old[i1 + k]) for k in range(i2 - i1)])
            )
            continue
        lines.extend(DiffLine("-", i + 1, None, old[i]) for i in range(i1, i2))
        lines.extend(DiffLine("+", None, j + 1, new[j]) for j in range(j1, j2))
    return lines


def _folded(run: list[DiffLine]) -> list[DiffLine]:
    if len(run) <= 2 * CONTEXT + 1:
        return run
    hidden = len(run) - 2 * CONTEXT
    return [*run[:CONTEXT], DiffLine("…", None, None, f"{hidden} unchanged lines"), *run[-CONTEXT:]]
