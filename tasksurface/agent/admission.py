"""Admission: the one transaction that turns a claimed inbox row into a logged user message.

Every claimed row ends in exactly one terminal outcome, reported to the runner's observers:
`committed` when its `user/message` is durable, `discarded` otherwise (the row is dropped,
so its owner gets the input back). A claim that passed to another process (the lease was
lost) ends here with neither: the new holder admits the row and reports its outcome, and so
does a first admission that would have waited for a lock (`admit_first`): the runner admits it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..domain.events import NewEvent, SessionEvent, user_message
from ..domain.ids import SessionId
from ..domain.question import unanswered
from ..store import inbox, log
from ..store.db import LockBusy
from ..store.records import InboxItem
from .ports import Outcome

if TYPE_CHECKING:
    from .runner import RunnerPool

logger = logging.getLogger(__name__)


class _Discard(Exception):
    pass


class _Lost(Exception):
    """The claim passed to another process: neither commit nor drop the row."""


@dataclass(frozen=True)
class Start:
    """How far the thread that woke a session got before a runner thread took the session on."""

    leased: bool = False
    took_over: bool = False
    """The first look at the queue under this lease was made (it voids an earlier holder's claims)."""
    admitted: bool = False
    """A message was admitted: its turn is owed."""


def admit_first(pool: RunnerPool, session_id: SessionId) -> Start:
    """On the thread that has just enqueued input for a session no runner serves: take the lease,
    claim the next input and admit it, without waiting for a lock (`LockBusy` leaves the row
    queued for the runner, which waits as long as it takes). The request pays about a millisecond
    before it answers, and saves the hand-over to a runner thread (on a two-core machine, often
    the other core, its caches cold) before its input is durable. The turn is the runner's."""
    if pool.stopping() or not pool.take_lease(session_id):
        return Start()
    try:
        item = pool.claim_next(session_id, take_over=True)
    except Exception:
        logger.exception("the first look at the queue of session %s failed", session_id)
        return Start(leased=True)
    if item is None:
        return Start(leased=True, took_over=True)
    try:
        admitted = admit_claimed(pool, session_id, item, waits=False)
    except LockBusy:
        return Start(leased=True, took_over=True)
    return Start(leased=True, took_over=True, admitted=admitted is not None)


def admit_claimed(
    pool: RunnerPool, session_id: SessionId, item: InboxItem, *, waits: bool = True
) -> SessionEvent | None:
    """The claim is visible (pending phase `claiming`) before the queue without the row is
    published, then the row is admitted."""
    pool.notify(session_id, queue=True)
    return pool.admit(session_id, item, waits=waits)


def admit(
    pool: RunnerPool, session_id: SessionId, item: InboxItem, *, waits: bool = True
) -> SessionEvent | None:
    """`waits=False`: a lock held longer than a moment raises `LockBusy`, and the claim is let go
    with no outcome reported; the row stays queued as it was."""
    outcome: Outcome = "discarded"
    reason = "admission failed"
    event: SessionEvent | None = None
    closed: list[SessionEvent] = []
    lost = False
    busy = False
    try:
        if pool.stopping():
            reason = "runner stopped"
            raise _Discard
        with pool.database.write(waits=waits) as db:
            # Take the row as it is now, under the write lock (an edit that won it before the claim
            # counts), and only while the claim on it is still ours.
            current = inbox.take(db, session_id, item.id, pool.claims.row_token)
            if current is None:
                if inbox.item(db, session_id, item.id) is not None:
                    raise _Lost
                reason = "removed from the queue"
                raise _Discard
            # A message sent instead of an answer leaves the question unanswered, in so many words.
            payload = user_message(current.message_id, current.source, current.content)
            message = NewEvent("user/message", payload, current.request_id)
            *closed, event = log.append_answering(
                db,
                session_id,
                message,
                pool.clock(),
                lambda question: NewEvent("tool/result", unanswered(question.call_id)),
            )
        outcome, reason = "committed", "durable"
    except LockBusy:
        busy = True
        raise
    except _Lost:
        lost = True
        logger.warning("the claim on %s passed to another process; it admits the row", item.id)
    except _Discard:
        if not pool.stopping():  # a stopping process leaves the row for the next one
            drop_row(pool, item)
    except Exception:
        logger.exception("admission of %s failed", item.id)
        drop_row(pool, item)
    finally:
        if outcome == "committed":
            pool.claims.settled(item.id)
        else:
            pool.claims.release(item.id)
        for observer in () if lost or busy else pool.observers:
            try:
                observer.outcome(item, outcome, reason)
            except Exception:
                logger.exception("an inbox observer failed")
        pool.notify(session_id, events=[*closed, event] if event else (), queue=True)
    return event


def drop_row(pool: RunnerPool, item: InboxItem) -> None:
    """A discard gives the input back to its owner: the row leaves the queue (if still ours)."""
    try:
        with pool.database.write() as db:
            if pool.claims.still_mine(db, item.id):
                inbox.delete(db, item.id)
    except Exception:
        logger.exception("could not drop discarded inbox item %s", item.id)
