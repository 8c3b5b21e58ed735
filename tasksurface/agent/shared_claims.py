"""Claims on inbox rows kept on the rows themselves (PostgreSQL), so every process sees them.

A claim is a conditional update: whoever turns `claim` from empty to theirs wins. An
admission claim is made only by the holder of the session's lease, and a new holder voids
the earlier holder's (`take_over`), so a process that died mid-admission leaves nothing
stuck. A removal claim lasts milliseconds; one older than `REMOVE_CLAIM_TTL` belongs to a
process that died and may be taken.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

import sqlalchemy as sa
import sqlalchemy.orm as so

from ..store.db import Database
from ..store.tables import InboxRow
from .claims import Purpose

REMOVE_CLAIM_TTL = sa.text("interval '30 seconds'")
"""A removal claim this old is a dead process's: it no longer hides or guards the row."""


def _live() -> sa.ColumnElement[bool]:
    recent = InboxRow.claimed_at >= sa.func.now() - REMOVE_CLAIM_TTL
    fresh_removal = sa.and_(InboxRow.claim == "remove", recent)
    return sa.or_(InboxRow.claim == "admit", fresh_removal)


class DatabaseClaims:
    """The `Claims` of one process on a shared PostgreSQL database; `token` names the process."""

    def __init__(self, database: Database, token: str) -> None:
        self.database = database
        self.token = token

    def try_claim(self, item_id: str, purpose: Purpose) -> bool:
        with self.database.write() as db:
            result = db.execute(
                sa.update(InboxRow)
                .where(InboxRow.id == item_id, sa.not_(sa.func.coalesce(_live(), False)))
                .values(claim=purpose, claimed_by=self.token, claimed_at=sa.func.now())
            )
            return bool(getattr(result, "rowcount", 0))

    def release(self, item_id: str) -> None:
        with self.database.write() as db:
            db.execute(
                sa.update(InboxRow)
                .where(InboxRow.id == item_id, InboxRow.claimed_by == self.token)
                .values(claim=None, claimed_by=None, claimed_at=None)
            )

    def settled(self, item_id: str) -> None:
        """The claim lived on the row, and the row went with the admission's commit: there is
        nothing left to clear, so no transaction is spent on it."""

    def purpose(self, item_id: str) -> Purpose | None:
        with self.database.read() as db:
            found = db.scalar(sa.select(InboxRow.claim).where(InboxRow.id == item_id, _live()))
        return cast(Purpose, found) if found else None

    def admitting(self) -> frozenset[str]:
        with self.database.read() as db:
            return frozenset(db.scalars(sa.select(InboxRow.id).where(InboxRow.claim == "admit")))

    def claimed(self) -> frozenset[str]:
        with self.database.read() as db:
            return frozenset(db.scalars(sa.select(InboxRow.id).where(_live())))

    @contextmanager
    def holding(self, item_id: str, purpose: Purpose) -> Iterator[bool]:
        won = self.try_claim(item_id, purpose)
        try:
            yield won
        finally:
            if won:
                self.release(item_id)

    def still_mine(self, db: so.Session, item_id: str) -> bool:
        """Locks the row, so a new lease holder's `take_over` waits for this transaction or voids it first."""
        owner = db.scalar(sa.select(InboxRow.claimed_by).where(InboxRow.id == item_id).with_for_update())
        return owner == self.token

    def take_over(self, session_id: str) -> None:
        with self.database.write() as db:
            db.execute(
                sa.update(InboxRow)
                .where(InboxRow.session_id == session_id, InboxRow.claim == "admit")
                .values(claim=None, claimed_by=None, claimed_at=None)
            )
