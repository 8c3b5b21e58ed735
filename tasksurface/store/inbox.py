"""The durable inbox: accepted input waits here until admission deletes it with the append."""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from ..domain.ids import InboxItemId, MessageId, SessionId, TaskSurfaceId
from .db import utc
from .records import InboxItem
from .tables import InboxRow, SessionRow


def enqueue(
    db: so.Session,
    *,
    item_id: InboxItemId,
    session_id: SessionId,
    message_id: MessageId,
    placement: str,
    source: dict[str, Any],
    content: list[dict[str, Any]],
    at: datetime,
    request_id: str | None = None,
    surface_id: TaskSurfaceId | None = None,
) -> InboxItem:
    # Two statements, no unit of work: this runs on every message and every submission. The
    # update takes the session's row lock (as `locked_session` does) and hands out the position.
    position = (
        db.execute(
            sa.update(SessionRow)
            .where(SessionRow.id == session_id)
            .values(next_position=SessionRow.next_position + 1)
            .returning(SessionRow.next_position)
        ).scalar_one()
        - 1
    )
    item = InboxItem(
        id=item_id,
        session_id=session_id,
        position=position,
        message_id=message_id,
        placement=placement,
        source=source,
        content=list(content),
        request_id=request_id,
        surface_id=surface_id,
        created_at=utc(at),
    )
    columns = {field.name: getattr(item, field.name) for field in fields(InboxItem)}
    db.execute(sa.insert(InboxRow).values({**columns, "content": {"blocks": content}, "created_at": at}))
    return item


def _to_item(row: InboxRow) -> InboxItem:
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
    rows = db.scalars(
        sa.select(InboxRow).where(InboxRow.session_id == session_id).order_by(InboxRow.position)
    )
    return [_to_item(r) for r in rows]


def item(db: so.Session, session_id: str, item_id: str) -> InboxItem | None:
    row = db.scalars(
        sa.select(InboxRow).where(InboxRow.session_id == session_id, InboxRow.id == item_id)
    ).one_or_none()
    return _to_item(row) if row else None


def item_by_request(db: so.Session, session_id: str, request_id: str) -> InboxItem | None:
    row = db.scalars(
        sa.select(InboxRow).where(InboxRow.session_id == session_id, InboxRow.request_id == request_id)
    ).one_or_none()
    return _to_item(row) if row else None


def item_for_surface(db: so.Session, session_id: str, surface_id: str) -> InboxItem | None:
    """A fork shares its origin's surface ids, so the session is part of the key."""
    row = db.scalars(
        sa.select(InboxRow).where(InboxRow.session_id == session_id, InboxRow.surface_id == surface_id)
    ).one_or_none()
    return _to_item(row) if row else None


def delete(db: so.Session, item_id: str) -> bool:
    result = db.execute(sa.delete(InboxRow).where(InboxRow.id == item_id))
    return bool(getattr(result, "rowcount", 0))


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
