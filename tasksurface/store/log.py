"""The append-only session log: gapless `seq`, the projection kept beside it, ranged reads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
import sqlalchemy.orm as so

from ..domain import question as questions
from ..domain.events import EventKind, NewEvent, SessionEvent
from ..domain.ids import SessionId
from ..domain.projection import TaskSurfaceProjection, fold, interaction
from ..domain.question import OpenQuestion
from ..domain.turns import CONTEXT_KINDS, OPEN_ENDINGS, PASSING_KINDS
from ..domain.webhook_events import reported, session_created
from . import outbox
from . import statements as q
from .db import INTERACTIONS, SNAPSHOT_SESSIONS, run, utc, writes_in_one_statement
from .integrity import readable
from .records import SessionInfo, projection_of
from .tables import EventRow, SessionRow


class UnknownSession(LookupError):
    pass


def create_session(
    db: so.Session, session_id: SessionId, title: str, at: datetime, owner: str = ""
) -> SessionInfo:
    db.add(
        SessionRow(
            id=session_id, owner=owner, title=title, created_at=at, head_seq=0, next_position=0, paused=False
        )
    )
    db.flush()
    outbox.record(db, session_created(session_id, owner, title), at)
    return get_session(db, session_id)


def owner_of(db: so.Session, session_id: str) -> str:
    """Only the owner: every request asks it first, so it reads one column of one row."""
    owner = run(db, q.OWNER, sid=session_id).scalar()
    if owner is None:
        raise UnknownSession(session_id)
    return cast(str, owner)


def get_session(db: so.Session, session_id: str, *, lock: bool = False) -> SessionInfo:
    """Read a session; `lock` takes its row lock, serialising commands on one session."""
    cache: dict[str, SessionInfo] | None = db.info.get(SNAPSHOT_SESSIONS)
    if cache is not None and not lock and session_id in cache:
        return cache[session_id]
    row = run(db, q.SESSION_LOCKED if lock else q.SESSION, sid=session_id).one_or_none()
    if row is None:
        raise UnknownSession(session_id)
    info = _session_info(row)
    if cache is not None:
        cache[session_id] = info
    return info


def _session_info(row: Any) -> SessionInfo:
    """From a row of the sessions table (a result row or a mapped `SessionRow`)."""
    return SessionInfo(
        id=SessionId(row.id),
        owner=row.owner,
        title=row.title,
        created_at=utc(row.created_at),
        head_seq=row.head_seq,
        paused=row.paused,
        forked_from=SessionId(row.forked_from) if row.forked_from else None,
        forked_at_seq=row.forked_at_seq,
        projection=projection_of(row.active_call_id, row.active_surface_id, row.active_result_seq),
        question_call_seq=row.question_call_seq,
    )


def list_sessions(db: so.Session, owner: str, limit: int = 100) -> list[SessionInfo]:
    rows = db.scalars(
        sa.select(SessionRow)
        .where(SessionRow.owner == owner)
        .order_by(SessionRow.created_at.desc())
        .limit(limit)
    )
    return [_session_info(r) for r in rows]


@dataclass
class _Head:
    """What an append needs of its session's row, kept current across appends in one transaction."""

    owner: str
    seq: int
    projection: TaskSurfaceProjection
    question: OpenQuestion | None


def _head(db: so.Session, session_id: SessionId, locked: SessionInfo | None = None) -> _Head:
    """The session's row under its lock, read once for the appends of one transaction (`locked`:
    the caller read it under the lock in this transaction, and changed nothing of it since)."""
    info = locked or get_session(db, session_id, lock=True)
    return _Head(
        info.owner, info.head_seq, info.projection, _question_at(db, session_id, info.question_call_seq)
    )


def append(
    db: so.Session, session_id: SessionId, event: NewEvent, at: datetime, *, report: bool = True
) -> SessionEvent:
    """Append at the next seq and fold the projection in the same transaction, with the webhook
    event it reports (a fork copies history, which reports nothing again: `report=False`)."""
    return _append_to(db, session_id, _head(db, session_id), event, at, report)


def append_answering(
    db: so.Session,
    session_id: SessionId,
    event: NewEvent,
    at: datetime,
    unanswered: Callable[[OpenQuestion], NewEvent],
    locked: SessionInfo | None = None,
) -> list[SessionEvent]:
    """Append `event`; a question the agent still waits on is first given `unanswered(question)`
    as its result (a message sent instead of an answer), so the model's history never holds a
    call without its result. One read of the session serves both appends (`locked`: see `_head`)."""
    head = _head(db, session_id, locked)
    logged = (
        []
        if head.question is None
        else [_append_to(db, session_id, head, unanswered(head.question), at, True)]
    )
    return [*logged, _append_to(db, session_id, head, event, at, True)]


def _append_to(
    db: so.Session, session_id: SessionId, head: _Head, event: NewEvent, at: datetime, report: bool
) -> SessionEvent:
    # Plain statements, no unit of work: the log only grows, and the session row is read under
    # its lock and written once per event. A mapped `SessionRow` already in this unit of work is
    # not refreshed by them: a fork's new row is never read again, and a rewind loads its row after.
    payload = dict(event.payload)
    logged = SessionEvent(head.seq + 1, event.kind, at, payload)
    folded = fold(head.projection, logged)
    happened = interaction(head.projection, folded, logged)
    if happened is not None:  # reported once the transaction commits (see Database.write)
        db.info.setdefault(INTERACTIONS, []).append(happened)
    asked = head.question
    question = questions.fold(asked, logged)
    active = folded.active
    row = dict(
        session_id=session_id,
        seq=logged.seq,
        kind=event.kind,
        at=at,
        payload=payload,
        call_id=_str_or_none(payload.get("callId")),
        message_id=_str_or_none(payload.get("messageId")),
        request_id=event.request_id,
    )
    advance = dict(
        sid=session_id,
        new_head=logged.seq,
        new_call=active.call_id if active else None,
        new_surface=active.surface_id if active else None,
        new_result_seq=active.result_seq if active else None,
        new_question_seq=question.call_seq if question else None,
    )
    if writes_in_one_statement(db):
        run(db, q.APPEND_IN_ONE, **{"event_" + name: value for name, value in row.items()}, **advance)
    else:
        run(db, q.INSERT_EVENT, **row)
        run(db, q.ADVANCE, **advance)
    if report and (news := reported(session_id, head.owner, logged, asked)) is not None:
        outbox.record(db, news, at)
    head.seq, head.projection, head.question = logged.seq, folded, question
    db.flush()
    return logged


def store_question(row: SessionRow, question: OpenQuestion | None) -> None:
    row.question_call_seq = question.call_seq if question else None


def open_question(db: so.Session, session_id: str) -> OpenQuestion | None:
    """The question the agent waits on, read from its logged call."""
    seq = run(db, q.QUESTION_SEQ, sid=session_id).scalar()
    return _question_at(db, session_id, seq)


def _question_at(db: so.Session, session_id: str, seq: int | None) -> OpenQuestion | None:
    if seq is None:
        return None
    call = event_at(db, session_id, seq)
    return questions.fold(None, call) if call is not None else None


def trailing_turn(db: so.Session, session_id: str, page: int = 64) -> list[SessionEvent]:
    """The run of tool events at the end of the visible log, with the event before it."""
    tail: list[SessionEvent] = []
    before: int | None = None
    while True:
        chunk = events_before(db, session_id, before, page)
        tail = chunk + tail
        if not chunk or any(e.kind not in PASSING_KINDS for e in chunk):
            start = max((i for i, e in enumerate(tail) if e.kind not in PASSING_KINDS), default=0)
            return tail[start:]
        before = chunk[0].seq


def sessions_with_open_turns(db: so.Session) -> list[SessionId]:
    """Sessions whose last event may leave the agent something to do (see `domain.turns`).

    A context event (a task notice) at the end may hide an open turn, so those are looked at too.
    A fork that holds only what it copied owes nothing (`turns.owed`).
    """
    last = sa.select(EventRow.session_id).join(
        SessionRow, sa.and_(SessionRow.id == EventRow.session_id, SessionRow.head_seq == EventRow.seq)
    )
    own = sa.or_(SessionRow.forked_at_seq.is_(None), SessionRow.head_seq > SessionRow.forked_at_seq)
    query = last.where(own, EventRow.kind.in_(sorted(OPEN_ENDINGS | CONTEXT_KINDS)))
    return [SessionId(s) for s in db.scalars(query)]


def store_projection(row: SessionRow, projection: TaskSurfaceProjection) -> None:
    active = projection.active
    row.active_call_id = active.call_id if active else None
    row.active_surface_id = active.surface_id if active else None
    row.active_result_seq = active.result_seq if active else None


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _to_event(row: Any) -> SessionEvent:
    """From a row of the events table (a result row or a mapped `EventRow`)."""
    return SessionEvent(row.seq, cast(EventKind, row.kind), utc(row.at), row.payload)


def events_after(
    db: so.Session, session_id: str, after: int = 0, limit: int | None = None
) -> list[SessionEvent]:
    if limit is None:
        rows = run(db, q.EVENTS_AFTER, sid=session_id, after=after)
    else:
        rows = run(db, q.EVENTS_AFTER_LIMITED, sid=session_id, after=after, limit=limit)
    return [_to_event(r) for r in rows if readable(r)]


def events_before(db: so.Session, session_id: str, before: int | None, limit: int) -> list[SessionEvent]:
    """The `limit` latest visible events before `before` (or of all), oldest first."""
    if before is None:
        rows = list(run(db, q.LATEST_EVENTS, sid=session_id, limit=limit))
    else:
        rows = list(run(db, q.LATEST_EVENTS_BEFORE, sid=session_id, before=before, limit=limit))
    return [_to_event(r) for r in reversed(rows) if readable(r)]


def event_at(db: so.Session, session_id: str, seq: int) -> SessionEvent | None:
    row = run(db, q.EVENT_AT, sid=session_id, seq=seq).one_or_none()
    return _to_event(row) if row else None


def event_by_request(db: so.Session, session_id: str, request_id: str) -> SessionEvent | None:
    row = run(db, q.EVENT_BY_REQUEST, sid=session_id, rid=request_id).one_or_none()
    return _to_event(row) if row else None


def is_visible(db: so.Session, session_id: str, seq: int) -> bool:
    """Whether no rewind has taken this seq out of the session's history."""
    return not run(db, q.HIDES, sid=session_id, seq=seq).scalar()


def first_visible_after(
    db: so.Session, session_id: str, seq: int, kinds: tuple[str, ...]
) -> SessionEvent | None:
    row = run(db, q.FIRST_OF_KINDS_AFTER, sid=session_id, after=seq, kinds=list(kinds)).one_or_none()
    return _to_event(row) if row else None


def tool_result_for_call(db: so.Session, session_id: str, call_id: str) -> SessionEvent | None:
    row = db.scalars(
        sa.select(EventRow)
        .where(EventRow.session_id == session_id, EventRow.call_id == call_id, EventRow.kind == "tool/result")
        .limit(1)
    ).one_or_none()
    return _to_event(row) if row else None
