"""Fork and rewind: both produce a history whose projection is the fold of that history."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so

from ..domain import question as questions
from ..domain.events import NewEvent
from ..domain.ids import SessionId
from ..domain.projection import fold_all
from . import log
from .tables import EventRow, HiddenRangeRow, SessionRow


def fork(db: so.Session, origin: SessionId, new_id: SessionId, at_seq: int, at: datetime) -> None:
    """Copy the visible events with `seq <= at_seq` into a new session, renumbered gaplessly."""
    info = log.get_session(db, origin)
    source = [e for e in log.events_after(db, origin, 0) if e.seq <= at_seq]
    db.add(
        SessionRow(
            id=new_id,
            owner=info.owner,
            title=info.title,
            created_at=at,
            head_seq=0,
            next_position=0,
            paused=False,
            forked_from=origin,
            forked_at_seq=at_seq,
        )
    )
    db.flush()
    for event in source:
        request_id = db.scalar(
            sa.select(EventRow.request_id).where(EventRow.session_id == origin, EventRow.seq == event.seq)
        )
        log.append(db, new_id, NewEvent(event.kind, event.payload, request_id), event.at, report=False)


def rewind(db: so.Session, session_id: SessionId, to_seq: int, at: datetime) -> int:
    """Hide the visible events after `to_seq`, log the rewind, and refold the projection."""
    info = log.get_session(db, session_id, lock=True)
    if info.head_seq > to_seq:
        db.add(HiddenRangeRow(session_id=session_id, first_seq=to_seq + 1, last_seq=info.head_seq))
        db.flush()
    marker = log.append(db, session_id, NewEvent("session/rewound", {"toSeq": to_seq}), at)
    history = log.events_after(db, session_id, 0)
    row = db.get_one(SessionRow, session_id)
    log.store_projection(row, fold_all(history))
    log.store_question(row, questions.fold_all(history))
    return marker.seq
