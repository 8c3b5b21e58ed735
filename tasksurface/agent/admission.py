"""Admission: the one transaction that turns a claimed inbox row into a logged user message.

Every claimed row ends in exactly one terminal outcome, reported to the runner's observers:
`committed` when its `user/message` is durable, `discarded` otherwise (the row is dropped,
so its owner gets the input back). A claim that passed to another process (the lease was
lost) ends here with neither: the new holder admits the row and reports its outcome.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import sqlalchemy.orm as so

from ..domain.events import NewEvent, SessionEvent, user_message
from ..domain.ids import SessionId
from ..domain.question import unanswered
from ..store import inbox, log
from ..store.records import InboxItem, SessionInfo
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
    """What the thread that reserved a session did before a runner thread took it over."""

    leased: bool = False
    admitted: bool = False
    """A message was logged (`agent/intake.py`): its turn is owed."""


def admit_claimed(pool: RunnerPool, session_id: SessionId, item: InboxItem) -> SessionEvent | None:
    """The claim is visible (pending phase `claiming`) before the queue without the row is
    published, then the row is admitted."""
    pool.notify(session_id, queue=True)
    return pool.admit(session_id, item)


def admit(pool: RunnerPool, session_id: SessionId, item: InboxItem) -> SessionEvent | None:
    outcome: Outcome = "discarded"
    reason = "admission failed"
    event: SessionEvent | None = None
    closed: list[SessionEvent] = []
    lost = False
    try:
        if pool.stopping():
            reason = "runner stopped"
            raise _Discard
        with pool.database.write() as db:
            # Take the row as it is now, under the write lock (an edit that won it before the claim
            # counts), and only while the claim on it is still ours.
            current = inbox.take(db, session_id, item.id, pool.claims.row_token)
            if current is None:
                if inbox.item(db, session_id, item.id) is not None:
                    raise _Lost
                reason = "removed from the queue"
                raise _Discard
            *closed, event = log_message(db, current, pool.clock())
        outcome, reason = "committed", "durable"
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
        for observer in () if lost else pool.observers:
            try:
                observer.outcome(item, outcome, reason)
            except Exception:
                logger.exception("an inbox observer failed")
        pool.notify(session_id, events=[*closed, event] if event else (), queue=True)
    return event


def log_message(
    db: so.Session, item: InboxItem, at: datetime, locked: SessionInfo | None = None
) -> list[SessionEvent]:
    """Log the input as a `user/message`. A message sent instead of an answer leaves the question
    the agent waits on unanswered, in so many words (logged first): the events, in order.
    `locked`: the session as this transaction read it under its lock, if it did."""
    payload = user_message(item.message_id, item.source, item.content)
    message = NewEvent("user/message", payload, item.request_id)
    return log.append_answering(
        db,
        item.session_id,
        message,
        at,
        lambda question: NewEvent("tool/result", unanswered(question.call_id)),
        locked,
    )


def drop_row(pool: RunnerPool, item: InboxItem) -> None:
    """A discard gives the input back to its owner: the row leaves the queue (if still ours)."""
    try:
        with pool.database.write() as db:
            if pool.claims.still_mine(db, item.id):
                inbox.delete(db, item.id)
    except Exception:
        logger.exception("could not drop discarded inbox item %s", item.id)
