"""The durable inbox: accepted input waits here until admission deletes it with the append."""

from __future__ import annotations

import dataclasses
import secrets
from datetime import datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from ..domain.ids import InboxItemId, MessageId, SessionId, TaskSurfaceId
from . import statements as q
from .db import run, utc, writes_in_one_statement
from .records import InboxItem
from .tables import InboxRow, SessionRow


def new_item(
    *,
    session_id: SessionId,
    message_id: MessageId,
    placement: str,
    source: dict[str, Any],
    content: list[dict[str, Any]],
    at: datetime,
    request_id: str | None = None,
    surface_id: TaskSurfaceId | None = None,
) -> InboxItem:
    """Accepted input, before it is queued (which gives it its position) or logged at once."""
    return InboxItem(
        id=InboxItemId("in_" + secrets.token_urlsafe(12)),
        session_id=session_id,
        position=0,
        message_id=message_id,
        placement=placement,
        source=source,
        content=list(content),
        request_id=request_id,
        surface_id=surface_id,
        created_at=utc(at),
    )


def enqueue(db: so.Session, item: InboxItem) -> InboxItem:
    """Queue the item at its session's next position; the item as queued."""
    # Built once, no unit of work: this runs on every queued message and submission. Taking the
    # position locks the session's row; PostgreSQL does it in the same statement as the insert.
    values = dict(
        id=item.id,
        session_id=item.session_id,
        message_id=item.message_id,
        placement=item.placement,
        source=item.source,
        content={"blocks": item.content},
        request_id=item.request_id,
        surface_id=item.surface_id,
        created_at=item.created_at,
    )
    if writes_in_one_statement(db):
        new = {"new_" + name: value for name, value in values.items()}
        position = run(db, q.ENQUEUE_IN_ONE, **new, sid=item.session_id).scalar_one()
    else:
        position = run(db, q.NEXT_POSITION, sid=item.session_id).scalar_one() - 1
        run(db, q.INSERT_ITEM, **values, position=position)
    return dataclasses.replace(item, position=position)


def has_items(db: so.Session, session_id: str) -> bool:
    """Whether any input waits or is being admitted (paused or not)."""
    return bool(run(db, q.HAS_ITEMS, sid=session_id).scalar_one())


def _to_item(row: Any) -> InboxItem:
    """From a row of the inbox table (a result row or a mapped `InboxRow`)."""
    return InboxItem(
        id=InboxItemId(row.id),
        session_id=SessionId(row.session_id),
        position=row.position,
        message_id=MessageId(row.message_id),
        placement=row.placement,
        source=row.source,
        content=list(row.content.get("blocks", [])),
        request_id=row.request_id,
        surface_id=TaskSurfaceId(row.surface_id) if row.surface_id else None,
        created_at=utc(row.created_at),
    )


def items(db: so.Session, session_id: str) -> list[InboxItem]:
    return [_to_item(r) for r in run(db, q.ITEMS, sid=session_id)]


def waiting(db: so.Session, session_id: str) -> list[InboxItem]:
    """The rows the runner may admit, in its order (`statements.WAITING`): none while paused."""
    return [_to_item(r) for r in run(db, q.WAITING, sid=session_id)]


def from_row(row: Any) -> InboxItem | None:
    """The item of a row a statement returned, if it returned one."""
    return _to_item(row) if row else None


def item(db: so.Session, session_id: str, item_id: str) -> InboxItem | None:
    row = run(db, q.ITEM, sid=session_id, item_id=item_id).one_or_none()
    return from_row(row)


def item_by_request(db: so.Session, session_id: str, request_id: str) -> InboxItem | None:
    row = run(db, q.ITEM_BY_REQUEST, sid=session_id, rid=request_id).one_or_none()
    return from_row(row)


def item_for_surface(db: so.Session, session_id: str, surface_id: str) -> InboxItem | None:
    """A fork shares its origin's surface ids, so the session is part of the key."""
    row = run(db, q.ITEM_FOR_SURFACE, sid=session_id, surface=surface_id).one_or_none()
    return from_row(row)


def take(db: so.Session, session_id: str, item_id: str, claimed_by: str | None) -> InboxItem | None:
    """Delete the row and hand back what it held, in one statement: the admission's read of the
    row, its check that the claim still stands (`claimed_by`, where claims live on the rows) and
    its delete. `None` when the row is gone or claimed by someone else; the row stays locked by
    this transaction either way."""
    if claimed_by is None:
        row = run(db, q.TAKE_ITEM, sid=session_id, item_id=item_id).one_or_none()
    else:
        row = run(db, q.TAKE_CLAIMED_ITEM, sid=session_id, item_id=item_id, token=claimed_by).one_or_none()
    return from_row(row)


def delete(db: so.Session, item_id: str) -> bool:
    return bool(run(db, q.DELETE_ITEM, item_id=item_id).rowcount)


def update(
    db: so.Session, item_id: str, *, content: list[dict[str, Any]] | None = None, placement: str | None = None
) -> None:
    values: dict[str, Any] = {}
    if content is not None:
        values["content"] = {"blocks": content}
    if placement is not None:
        values["placement"] = placement
    db.execute(sa.update(InboxRow).where(InboxRow.id == item_id).values(**values))


def sessions_with_items(db: so.Session) -> list[SessionId]:
    return [SessionId(s) for s in db.scalars(sa.select(InboxRow.session_id).distinct())]


def set_paused(db: so.Session, session_id: str, paused: bool) -> None:
    db.execute(sa.update(SessionRow).where(SessionRow.id == session_id).values(paused=paused))
