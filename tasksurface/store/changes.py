"""What one process tells the others about a session that changed; `changefeed` carries it.

Kept apart from the feed, which needs the PostgreSQL driver: a process on SQLite has no other
process to tell, and never loads that driver.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Change:
    session_id: str
    cursor: int | None
    """The latest seq the sender committed, when it appended events."""
    queue: bool
    reset: bool


def merge(changes: list[Change]) -> list[Change]:
    """One notice per session says all that several would: the newest cursor, any queue or reset."""
    merged: dict[str, Change] = {}
    for change in changes:
        seen = merged.get(change.session_id)
        if seen is None:
            merged[change.session_id] = change
            continue
        cursors = [c for c in (seen.cursor, change.cursor) if c is not None]
        merged[change.session_id] = Change(
            change.session_id,
            max(cursors) if cursors else None,
            seen.queue or change.queue,
            seen.reset or change.reset,
        )
    return list(merged.values())
