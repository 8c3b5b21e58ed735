"""Whether a session's history can be read whole: no gap in `seq`, no event this host cannot read.

A history that cannot be read whole must never pass for one in which no panel is open, so
readers ask here and answer `surface.replay-incomplete` instead (seed 001's recovery signal).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from ..domain.events import EVENT_KINDS
from .tables import EventRow, SessionRow


def readable(row: EventRow) -> bool:
    """An event of a kind this host knows, with an object for its payload."""
    payload: Any = row.payload
    return row.kind in EVENT_KINDS and isinstance(payload, dict)


def _json_type(db: so.Session) -> Any:
    dialect = db.get_bind().dialect.name
    return (
        sa.func.jsonb_typeof(EventRow.payload)
        if dialect == "postgresql"
        else sa.func.json_type(EventRow.payload)
    )


def history_incomplete(db: so.Session, session_id: str) -> bool:
    """A gap between 1 and the head, or an event this host cannot read (unknown kind, no object)."""
    # One statement, so the head and the events are read in one state even where each
    # statement of a transaction sees the latest commits (PostgreSQL's READ COMMITTED).
    head = sa.select(SessionRow.head_seq).where(SessionRow.id == session_id).scalar_subquery()
    unreadable = sa.or_(EventRow.kind.not_in(sorted(EVENT_KINDS)), _json_type(db) != "object")
    count, top, bad, known = db.execute(
        sa.select(
            sa.func.count(EventRow.id),
            sa.func.coalesce(sa.func.max(EventRow.seq), 0),
            sa.func.count(EventRow.id).filter(unreadable),
            sa.func.coalesce(head, 0),
        ).where(EventRow.session_id == session_id)
    ).one()
    return bool(count != known or top != known or bad)
