"""The webhook outbox: rows written with the event they report, leased by whichever process
delivers them, retried until the receiver says 2xx.

A row is written inside the caller's transaction (`record`), so an event whose transaction
rolls back was never in the outbox. Claiming takes rows whose lease is free; on PostgreSQL
`FOR UPDATE SKIP LOCKED` keeps several processes from claiming the same row at the same time,
and the lease keeps them off it while it is being posted.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from ..domain.webhook_events import WebhookEvent
from .db import REPORTED, REPORTING, utc
from .tables import OutboxRow


@dataclass(frozen=True)
class OutboxItem:
    id: int
    webhook_id: str
    event_type: str
    body: str
    attempts: int


def record(db: so.Session, event: WebhookEvent, at: datetime) -> None:
    """Add the event to the outbox in the caller's transaction; nothing when reporting is off."""
    if not db.info.get(REPORTING):
        return
    webhook_id = "msg_" + secrets.token_urlsafe(18)
    body: dict[str, Any] = {"type": event.type, "timestamp": at.isoformat(), "data": event.data}
    db.add(
        OutboxRow(
            webhook_id=webhook_id,
            event_type=event.type,
            body=json.dumps(body, ensure_ascii=False, separators=(",", ":")),
            created_at=at,
            attempts=0,
            next_attempt_at=at,
        )
    )
    db.info[REPORTED] = True


def claim_due(db: so.Session, now: datetime, lease: timedelta, limit: int = 10) -> list[OutboxItem]:
    """Lease up to `limit` rows that are due and not leased by anyone, oldest first."""
    free = sa.or_(OutboxRow.lease_until.is_(None), OutboxRow.lease_until < now)
    rows = db.scalars(
        sa.select(OutboxRow)
        .where(OutboxRow.delivered_at.is_(None), OutboxRow.next_attempt_at <= now, free)
        .order_by(OutboxRow.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    ).all()
    for row in rows:
        row.lease_until = now + lease
    db.flush()
    return [OutboxItem(r.id, r.webhook_id, r.event_type, r.body, r.attempts) for r in rows]


def mark_delivered(db: so.Session, item_id: int, at: datetime) -> None:
    db.execute(
        sa.update(OutboxRow)
        .where(OutboxRow.id == item_id)
        .values(delivered_at=at, lease_until=None, attempts=OutboxRow.attempts + 1, last_error=None)
    )


def mark_failed(db: so.Session, item_id: int, retry_at: datetime, error: str) -> None:
    db.execute(
        sa.update(OutboxRow)
        .where(OutboxRow.id == item_id)
        .values(
            next_attempt_at=retry_at,
            lease_until=None,
            attempts=OutboxRow.attempts + 1,
            last_error=error[:500],
        )
    )


def next_due(db: so.Session) -> datetime | None:
    """When the earliest undelivered row is due, so the worker can sleep until then."""
    found = db.scalar(
        sa.select(sa.func.min(OutboxRow.next_attempt_at)).where(OutboxRow.delivered_at.is_(None))
    )
    return utc(found) if found is not None else None


def prune_delivered(db: so.Session, before: datetime) -> int:
    """Forget events delivered before `before`: receivers had them; the table stays small."""
    result = db.execute(
        sa.delete(OutboxRow).where(OutboxRow.delivered_at.is_not(None), OutboxRow.delivered_at < before)
    )
    return int(getattr(result, "rowcount", 0) or 0)
