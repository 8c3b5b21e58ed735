"""What already answers a submission: four questions in one statement, after the session's lock.

A submission takes its session's row lock and asks: did a logged event already use this request
id (a retry after admission), does a waiting inbox row hold it (a retry before), does a waiting
row already answer this panel, and does anything wait at all. Each answer is usually "nothing",
so one statement asks all four, and a row is read only when one is named. The questions come
after the lock, in a statement of their own: on PostgreSQL a statement's snapshot is taken before
it waits for a lock, so asked together with the lock they could miss the row of the submission
the lock waited for.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy.orm as so

from . import inbox, log
from . import statements as q
from .db import run
from .records import InboxItem, SessionInfo


@dataclass(frozen=True)
class Answers:
    session: SessionInfo
    logged_seq: int | None
    """The logged event that used the request id."""
    queued: InboxItem | None
    """The waiting row that used the request id."""
    waiting: InboxItem | None
    """The waiting row that answers the panel (often `queued` itself)."""
    queue_empty: bool
    """No input of the session is queued (`agent.intake`: a submission may then be logged at once)."""


def for_submission(db: so.Session, session_id: str, request_id: str, surface_id: str) -> Answers:
    session = log.get_session(db, session_id, lock=True)
    row = run(db, q.ANSWERS, sid=session_id, rid=request_id, surface=surface_id).one()
    queued = inbox.item(db, session_id, row.request_item) if row.request_item else None
    if row.surface_item is None:
        waiting = None
    elif queued is not None and queued.id == row.surface_item:
        waiting = queued
    else:
        waiting = inbox.item(db, session_id, row.surface_item)
    return Answers(session, row.request_seq, queued, waiting, not row.has_items)
