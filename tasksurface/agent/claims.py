"""Claims on inbox items: who is taking a row out of the queue right now.

The runner claims a row to admit it; a queue `remove` claims it to delete it. Whoever
claims first wins, so a row is never both admitted and removed. `ClaimRegistry` keeps the
claims in the one process that serves a SQLite database: they die with it, the durable row
does not, so a restart simply claims it again. On PostgreSQL the claims live on the rows
(`store.claims.DatabaseClaims`), so every process sees them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Literal, Protocol

import sqlalchemy.orm as so

from ..store import inbox
from ..store.db import Database
from ..store.records import InboxItem

Purpose = Literal["admit", "remove"]


class Claims(Protocol):
    """What the runner and the services need of claims, wherever they are kept."""

    @property
    def row_token(self) -> str | None:
        """What this process's claims write into a row's `claimed_by`, where claims live on the
        rows; `None` where they live in this process's memory."""
        ...

    def try_claim(self, item_id: str, purpose: Purpose) -> bool: ...

    def release(self, item_id: str) -> None: ...

    def settled(self, item_id: str) -> None:
        """The row was deleted by the admission that held this claim, in that transaction."""
        ...

    def purpose(self, item_id: str) -> Purpose | None: ...

    def admitting(self) -> frozenset[str]: ...

    def claimed(self) -> frozenset[str]: ...

    def claimed_in(self, db: so.Session, session_id: str) -> frozenset[str]:
        """The claimed rows of one session, read in the caller's transaction where claims live on
        the rows (the runner asks with its look at the queue, not in a transaction of its own)."""
        ...

    def holding(self, item_id: str, purpose: Purpose) -> AbstractContextManager[bool]: ...

    def still_mine(self, db: so.Session, item_id: str) -> bool:
        """Inside a write transaction: whether this process's claim on the row still stands."""
        ...

    def claim_next(self, session_id: str, take_over: bool) -> InboxItem | None:
        """The runner's look at the queue: the next waiting row in admission order that nobody
        holds, claimed for admission; `None` when the session is paused or nothing unclaimed
        waits. `take_over`: the runner has just won the session's lease, so admission claims an
        earlier holder left are void (in the same statement, before this holder claims anything)."""
        ...


class ClaimRegistry:
    @property
    def row_token(self) -> str | None:
        return None

    def __init__(self, database: Database | None = None) -> None:
        self.database = database
        """The database whose queue `claim_next` reads (the runner's); removals need none."""
        self._lock = threading.Lock()
        self._claims: dict[str, Purpose] = {}

    def try_claim(self, item_id: str, purpose: Purpose) -> bool:
        with self._lock:
            if item_id in self._claims:
                return False
            self._claims[item_id] = purpose
            return True

    def release(self, item_id: str) -> None:
        with self._lock:
            self._claims.pop(item_id, None)

    def settled(self, item_id: str) -> None:
        """The claim lived in this process's memory: it goes as any released claim does."""
        self.release(item_id)

    def purpose(self, item_id: str) -> Purpose | None:
        with self._lock:
            return self._claims.get(item_id)

    def admitting(self) -> frozenset[str]:
        """Rows the runner holds for admission right now."""
        with self._lock:
            return frozenset(item for item, purpose in self._claims.items() if purpose == "admit")

    def claimed(self) -> frozenset[str]:
        with self._lock:
            return frozenset(self._claims)

    def claimed_in(self, db: so.Session, session_id: str) -> frozenset[str]:
        """Every claim this process holds; a claim names its row, so other sessions' never match."""
        return self.claimed()

    @contextmanager
    def holding(self, item_id: str, purpose: Purpose) -> Iterator[bool]:
        """Claim for the length of a block; yields whether the claim was won."""
        won = self.try_claim(item_id, purpose)
        try:
            yield won
        finally:
            if won:
                self.release(item_id)

    def still_mine(self, db: so.Session, item_id: str) -> bool:
        """One process: nobody else can have taken the claim."""
        return True

    def claim_next(self, session_id: str, take_over: bool) -> InboxItem | None:
        """Read from the database, claimed in memory: a row a removal holds is passed by. One
        process has no earlier lease holder to take over from."""
        if self.database is None:
            raise RuntimeError("this registry was made without the database whose queue it reads")
        with self.database.read() as db:
            waiting = inbox.waiting(db, session_id)
        for item in waiting:
            if self.try_claim(item.id, "admit"):
                return item
        return None
