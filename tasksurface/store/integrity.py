"""Whether a session's history can be read whole: no gap in `seq`, no event this host cannot read.

A history that cannot be read whole must never pass for one in which no panel is open, so
readers ask here and answer `surface.replay-incomplete` instead (seed 001's recovery signal).
"""

from __future__ import annotations

from typing import Any, cast

import sqlalchemy as sa
import sqlalchemy.orm as so

from ..domain.events import EVENT_KINDS
from .db import run
from .tables import EventRow, SessionRow


def readable(row: Any) -> bool:
    """An event of a kind this host knows, with an object for its payload (`row`: a row of the
    events table, as a result row or a mapped `EventRow`)."""
    payload: Any = row.payload
    return row.kind in EVENT_KINDS and isinstance(payload, dict)


def _incompleteness(dialect: str) -> sa.Select[Any]:
    """Counts of the session's events, its highest seq, its unreadable events, and its head: one
    statement, so the head and the events are read in one state even where each statement of a
    transaction sees the latest commits (PostgreSQL's READ COMMITTED)."""
    events = cast(sa.Table, EventRow.__table__)
    sessions = cast(sa.Table, SessionRow.__table__)
    payload = events.c.payload
    json_type = sa.func.jsonb_typeof(payload) if dialect == "postgresql" else sa.func.json_type(payload)
    unreadable = sa.or_(events.c.kind.not_in(sorted(EVENT_KINDS)), json_type != "object")
    head = sa.select(sessions.c.head_seq).where(sessions.c.id == sa.bindparam("sid")).scalar_subquery()
    return sa.select(
        sa.func.count(events.c.id),
        sa.func.coalesce(sa.func.max(events.c.seq), 0),
        sa.func.count(events.c.id).filter(unreadable),
        sa.func.coalesce(head, 0),
    ).where(events.c.session_id == sa.bindparam("sid"))


_BY_DIALECT = {name: _incompleteness(name) for name in ("postgresql", "sqlite")}
"""Built once per database kind (see `db.run`): this runs whenever no panel is open."""


def history_incomplete(db: so.Session, session_id: str) -> bool:
    """A gap between 1 and the head, or an event this host cannot read (unknown kind, no object)."""
    statement = _BY_DIALECT[db.get_bind().dialect.name]
    count, top, bad, known = tuple(run(db, statement, sid=session_id).one())
    return bool(count != known or top != known or bad)
