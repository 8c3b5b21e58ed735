"""Claims on inbox rows kept on the rows themselves (PostgreSQL), so every process sees them.

A claim is a conditional update: whoever turns `claim` from empty to theirs wins. An
admission claim is made only by the holder of the session's lease, and a new holder voids
the earlier holder's (in its first look at the queue), so a process that died mid-admission leaves nothing
stuck. A removal claim lasts milliseconds; one older than `REMOVE_CLAIM_TTL` belongs to a
process that died and may be taken.

Every submission claims a row and every page and push asks which rows are claimed, so the
statements are built once, like the other hot paths' (`store.statements`). The runner's look at
the queue is its claim: one statement finds the next row and claims it. A claim is coordination
state, not an authority, so each claim statement commits alone and without waiting for the disk
(`Database.coordinate`): one round trip.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

import sqlalchemy as sa
import sqlalchemy.orm as so

from ..store import inbox
from ..store.db import Database, run
from ..store.records import InboxItem
from ..store.statements import INBOX, WAITING
from .claims import Purpose

REMOVE_CLAIM_TTL = sa.text("interval '30 seconds'")
"""A removal claim this old is a dead process's: it no longer hides or guards the row."""

_FRESH_REMOVAL = sa.and_(INBOX.c.claim == "remove", INBOX.c.claimed_at >= sa.func.now() - REMOVE_CLAIM_TTL)
_LIVE = sa.or_(INBOX.c.claim == "admit", _FRESH_REMOVAL)
_THIS_ROW = INBOX.c.id == sa.bindparam("item_id")
_UNCLAIMED = dict(claim=None, claimed_by=None, claimed_at=None)
CLAIM = (
    sa.update(INBOX)
    .where(_THIS_ROW, sa.not_(sa.func.coalesce(_LIVE, False)))
    .values(claim=sa.bindparam("purpose"), claimed_by=sa.bindparam("token"), claimed_at=sa.func.now())
)
RELEASE = sa.update(INBOX).where(_THIS_ROW, INBOX.c.claimed_by == sa.bindparam("token")).values(**_UNCLAIMED)
PURPOSE = sa.select(INBOX.c.claim).where(_THIS_ROW, _LIVE)
ADMITTING = sa.select(INBOX.c.id).where(INBOX.c.claim == "admit")
CLAIMED = sa.select(INBOX.c.id).where(_LIVE)
CLAIMED_IN = CLAIMED.where(INBOX.c.session_id == sa.bindparam("sid"))
OWNER_LOCKED = sa.select(INBOX.c.claimed_by).where(_THIS_ROW).with_for_update()
_TAKING_OVER = sa.bindparam("take_over", type_=sa.Boolean)
_HELD = sa.or_(sa.and_(INBOX.c.claim == "admit", sa.not_(_TAKING_OVER)), _FRESH_REMOVAL)
"""Claims the runner's look passes by: a new lease holder voids admission claims, not removals."""
# The row is locked before it is claimed (without skipping locked rows: one held by an edit is
# waited for, not passed by, so input is never admitted out of order). Should a removal's claim
# win that wait, nothing is claimed; the removal wakes the runner when it is done.
_NEXT_FREE = (
    WAITING.with_only_columns(INBOX.c.id)
    .where(sa.not_(sa.func.coalesce(_HELD, False)))
    .limit(1)
    .with_for_update(of=INBOX)
    .cte("next_free")
)
_IS_NEXT = INBOX.c.id.in_(sa.select(_NEXT_FREE.c.id))
_STALE = sa.and_(_TAKING_OVER, INBOX.c.claim == "admit")
CLAIM_NEXT = (
    sa.update(INBOX)
    .add_cte(_NEXT_FREE)
    .where(INBOX.c.session_id == sa.bindparam("sid"), sa.or_(_IS_NEXT, _STALE))
    .values(
        claim=sa.case((_IS_NEXT, "admit")),
        claimed_by=sa.case((_IS_NEXT, sa.bindparam("token"))),
        claimed_at=sa.case((_IS_NEXT, sa.func.now())),
    )
    .returning(*INBOX.c)
)
"""The runner's look at the queue: the next row in admission order that nobody holds, claimed
for admission; when the runner has just won the lease, the same statement voids the admission
claims an earlier holder left (the next row among them is claimed again, for this holder)."""


class DatabaseClaims:
    """The `Claims` of one process on a shared PostgreSQL database; `token` names the process."""

    def __init__(self, database: Database, token: str) -> None:
        self.database = database
        self.token = token

    @property
    def row_token(self) -> str | None:
        return self.token

    def try_claim(self, item_id: str, purpose: Purpose) -> bool:
        with self.database.coordinate() as connection:
            result = connection.execute(CLAIM, dict(item_id=item_id, purpose=purpose, token=self.token))
            return bool(result.rowcount)

    def release(self, item_id: str) -> None:
        with self.database.coordinate() as connection:
            connection.execute(RELEASE, dict(item_id=item_id, token=self.token))

    def settled(self, item_id: str) -> None:
        """The claim lived on the row, and the row went with the admission's commit: there is
        nothing left to clear, so no transaction is spent on it."""

    def purpose(self, item_id: str) -> Purpose | None:
        with self.database.coordinate() as connection:
            found = connection.execute(PURPOSE, dict(item_id=item_id)).scalar()
        return cast(Purpose, found) if found else None

    def admitting(self) -> frozenset[str]:
        with self.database.coordinate() as connection:
            return frozenset(connection.execute(ADMITTING).scalars())

    def claimed(self) -> frozenset[str]:
        with self.database.coordinate() as connection:
            return frozenset(connection.execute(CLAIMED).scalars())

    def claimed_in(self, db: so.Session, session_id: str) -> frozenset[str]:
        return frozenset(run(db, CLAIMED_IN, sid=session_id).scalars())

    @contextmanager
    def holding(self, item_id: str, purpose: Purpose) -> Iterator[bool]:
        won = self.try_claim(item_id, purpose)
        try:
            yield won
        finally:
            if won:
                self.release(item_id)

    def still_mine(self, db: so.Session, item_id: str) -> bool:
        """Locks the row, so a new lease holder's first look waits for this transaction or voids it first."""
        return run(db, OWNER_LOCKED, item_id=item_id).scalar() == self.token

    def claim_next(self, session_id: str, take_over: bool) -> InboxItem | None:
        with self.database.coordinate() as connection:
            rows = connection.execute(CLAIM_NEXT, dict(sid=session_id, token=self.token, take_over=take_over))
            return inbox.from_row(next((row for row in rows if row.claim == "admit"), None))
