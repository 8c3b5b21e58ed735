"""Intake: input for an idle session is logged by the transaction that accepts it.

A request that accepts input (a message, a panel's submission or action) first reserves the
session (`RunnerPool.reserve`): its serving slot in this process and its lease across processes.
Holding both, and finding under the session's row lock that nothing waits in its queue and it is
not paused, nothing can be ahead of the input and no runner can be admitting any: the accepting
transaction logs the `user/message` itself. That is one transaction and one commit, where
enqueueing and then admitting take two commits and twice the round trips. Otherwise the input
waits in the durable inbox as before. Either way the acknowledgement is a commit, and a runner
thread then takes the reservation over: it runs the turn the message starts, or serves the queue.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import sqlalchemy.orm as so

from ..domain.events import SessionEvent
from ..domain.ids import SessionId
from ..store import inbox, log
from ..store.records import InboxItem, SessionInfo
from .admission import log_message

if TYPE_CHECKING:
    from .runner import RunnerPool

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reservation:
    session_id: SessionId
    held: bool
    """This thread holds the session's serving slot: no runner of this process serves it."""
    leased: bool
    """It holds the session's lease too: no runner of another process serves it."""


class Acceptance:
    """What one accepting transaction did with its input: logged it, queued it, or neither."""

    def __init__(self, reservation: Reservation, clock: Callable[[], datetime]) -> None:
        self.reservation = reservation
        self._clock = clock
        self.item: InboxItem | None = None
        self.logged: list[SessionEvent] = []

    def accept(
        self,
        db: so.Session,
        item: InboxItem,
        *,
        locked: SessionInfo | None = None,
        queue_empty: bool | None = None,
    ) -> None:
        """Log `item` as a message when the session is idle, or enqueue it. `locked`: the session
        as the caller read it under its row lock; `queue_empty`: whether the caller found its
        queue empty after taking that lock (each is read here when not given)."""
        if self.reservation.leased:
            session = locked or log.get_session(db, item.session_id, lock=True)
            idle = not inbox.has_items(db, item.session_id) if queue_empty is None else queue_empty
            if idle and not session.paused:
                self.logged = log_message(db, item, self._clock(), session)
                self.item = item
                return
        self.item = inbox.enqueue(db, item)


class Intake:
    def __init__(self, runner: RunnerPool) -> None:
        self.runner = runner

    @contextmanager
    def accepting(self, session_id: SessionId) -> Iterator[Acceptance]:
        """Hold the session's reservation around the caller's write transaction (opened inside the
        block, and the last thing in it). After its commit, the outcome of logged input is reported
        and the subscribers told; then a runner thread takes over. An exception out of the block
        means nothing was committed."""
        acceptance = Acceptance(self.runner.reserve(session_id), self.runner.clock)
        committed = False
        try:
            yield acceptance
            committed = True
        finally:
            accepted = committed and acceptance.item is not None
            admitted = accepted and bool(acceptance.logged)
            if admitted:
                self._report(acceptance)
            elif accepted:
                self.runner.notify(session_id, queue=True)
            self.runner.hand_over(acceptance.reservation, accepted, admitted)

    def _report(self, acceptance: Acceptance) -> None:
        assert acceptance.item is not None
        for observer in self.runner.observers:
            try:
                observer.outcome(acceptance.item, "committed", "durable")
            except Exception:
                logger.exception("an inbox observer failed")
        self.runner.notify(acceptance.reservation.session_id, events=acceptance.logged)
