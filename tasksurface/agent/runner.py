"""Per-session runners: take inbox items in order, admit one, run the turn it starts
(`model_steps`).

Every claimed inbox item ends in exactly one terminal outcome, reported to the
observer: `committed` when its `user/message` is durable, `discarded` otherwise.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime

from ..domain.events import NewEvent, SessionEvent
from ..domain.ids import SessionId
from ..store import inbox, log
from ..store.db import Database
from ..store.records import InboxItem
from . import admission, model_steps
from .claims import Claims
from .histories import Histories
from .intake import Reservation
from .leases import Leases, LocalLeases
from .parking import ParkingThreads
from .ports import InboxObserver, ModelBackend, Notifier, ProgressSink
from .tools import ToolRegistry

logger = logging.getLogger(__name__)

AFTER_TURN_PAUSE = 0.025
"""Seconds a runner lets a finished turn's pushes go out before it looks for more work."""


class RunnerPool:
    """One thread at a time serves each session with work, until its queue is empty; the thread
    then waits a while for another session's work (`parking`)."""

    def __init__(
        self,
        database: Database,
        claims: Claims,
        backend: ModelBackend,
        tools: ToolRegistry,
        notifier: Notifier,
        observers: Sequence[InboxObserver] = (),
        clock: Callable[[], datetime] | None = None,
        progress: ProgressSink | None = None,
        leases: Leases | None = None,
    ) -> None:
        from datetime import UTC

        self.database = database
        self.claims = claims
        self.backend = backend
        self.tools = tools
        self.notifier = notifier
        self.observers = list(observers)
        self.clock = clock or (lambda: datetime.now(UTC))
        self.progress = progress
        self.leases: Leases = leases or LocalLeases()
        self.histories = Histories()
        """What each session's model read last: a step reads only the events logged since."""
        self._lock = threading.Lock()
        self._woken = threading.Condition(self._lock)
        """Told of every wake-up and of the stop, for a runner waiting after a turn."""
        self._serving: set[SessionId] = set()
        self._running: set[SessionId] = set()
        self._threads = ParkingThreads("runner")
        """Serve the sessions in `_serving` (each on exactly one thread at a time)."""
        self._wakeups: set[SessionId] = set()
        self._stopping = threading.Event()
        self.context_sources: list[Callable[[SessionId], None]] = []
        """Write context the next model request of a session must see (task notices) into its log;
        called before every model step and whenever the session's runner finds nothing to admit."""

    def wake(self, session_id: SessionId) -> None:
        """Make sure a runner looks at this session's queue soon."""
        with self._lock:
            if self._stopping.is_set():
                return
            self._wakeups.add(session_id)
            self._woken.notify_all()
            if session_id in self._serving:
                return
            self._serving.add(session_id)
        self._start(session_id, admission.Start())

    def reserve(self, session_id: SessionId) -> Reservation:
        """For a request about to accept input (`intake.Intake`): the session's serving slot and
        its lease, when no runner holds them; `hand_over` passes them on to a runner thread."""
        with self._lock:
            if self._stopping.is_set() or session_id in self._serving:
                return Reservation(session_id, held=False, leased=False)
            self._serving.add(session_id)
        return Reservation(session_id, held=True, leased=self.take_lease(session_id))

    def hand_over(self, reservation: Reservation, accepted: bool, admitted: bool) -> None:
        """After the accepting transaction: a runner thread serves the session (the turn of an
        admitted message is owed), unless the request accepted nothing and no wake-up came meanwhile."""
        session_id = reservation.session_id
        if not reservation.held:
            if accepted:
                self.wake(session_id)
            return
        start = admission.Start(leased=reservation.leased, admitted=admitted)
        if not accepted:
            if reservation.leased:
                self.leases.release(session_id)
            with self._lock:
                if session_id not in self._wakeups:
                    self._serving.discard(session_id)
                    return
            start = admission.Start()
        self._start(session_id, start)

    def _start(self, session_id: SessionId, start: admission.Start) -> None:
        """A runner thread serves the session, whose slot the caller holds."""
        if self._threads.run(lambda: self._run(session_id, start)):
            return
        if start.leased:  # stopping: no runner thread takes the session on
            self.leases.release(session_id)
        with self._lock:
            self._serving.discard(session_id)

    def wake_all_with_work(self) -> None:
        """After a start: durable inbox rows, and turns an earlier process left half-done."""
        with self.database.read() as db:
            sessions = set(inbox.sessions_with_items(db)) | set(log.sessions_with_open_turns(db))
        for session_id in sorted(sessions):
            self.wake(session_id)

    def stop_claiming(self) -> None:
        """A stopping process takes no new inbox rows; what it has not admitted stays queued."""
        self._stopping.set()
        with self._lock:
            self._woken.notify_all()

    def stop(self, timeout: float = 10.0) -> None:
        self._stopping.set()
        with self._lock:
            self._woken.notify_all()
        self._threads.stop(timeout)
        with self._lock:  # woken, but never taken up by a thread (a running one leaves by itself)
            self._serving &= self._running

    def idle(self) -> bool:
        with self._lock:
            return not self._serving

    def _run(self, session_id: SessionId, start: admission.Start) -> None:
        """Serve the session under its lease; without it, the process that holds it serves.

        After letting the lease go the queue is read once more: input that arrived while this
        runner held the lease, and whose sender therefore could not take it, is not left behind.
        """
        threading.current_thread().name = f"runner-{session_id}"  # for logs: whose runner this is
        with self._lock:
            self._running.add(session_id)
        serving = True
        try:
            while serving and not self._stopping.is_set():
                with self._lock:
                    self._wakeups.discard(session_id)
                leased = start.leased or self.take_lease(session_id)
                begun, start = start, admission.Start()
                if leased:
                    try:
                        self._serve(session_id, begun)
                    finally:
                        self.leases.release(session_id)
                more = leased and not self._stopping.is_set() and self._has_input(session_id)
                with self._lock:
                    if not more and session_id not in self._wakeups:
                        self._serving.discard(session_id)
                        self._running.discard(session_id)
                        serving = False
        finally:
            if serving:  # stopped, or failed: a later wake-up starts afresh
                with self._lock:
                    self._serving.discard(session_id)
                    self._running.discard(session_id)

    def take_lease(self, session_id: SessionId) -> bool:
        try:
            return self.leases.acquire(session_id)
        except Exception:
            logger.exception("taking the lease of session %s failed", session_id)
            self.leases.release(session_id)
            return False

    def _serve(self, session_id: SessionId, begun: admission.Start) -> None:
        """The first look at the queue after winning the lease voids an earlier holder's
        admission claims, in the look's own transaction (before this runner claims anything).
        `begun`: what the thread that reserved the session did already (its turn may be owed)."""
        first = True
        if begun.admitted:
            try:
                model_steps.run_turn(self, session_id)
                self._after_turn(session_id)
            except Exception:
                logger.exception("runner for session %s failed", session_id)
        while not self._stopping.is_set() and self.leases.held(session_id):
            try:
                item = self.claim_next(session_id, take_over=first)
                first = False
                if item is not None:
                    self._process(session_id, item)
                    self._after_turn(session_id)
                    continue
                model_steps.gather_context(self, session_id)
                model_steps.finish_open_turn(self, session_id)
            except Exception:
                logger.exception("runner for session %s failed", session_id)
            with self._lock:
                if session_id not in self._wakeups:
                    return

    def _after_turn(self, session_id: SessionId) -> None:
        """What a turn showed goes out before the runner looks for more: the pushes of its last
        events are built on another thread of this interpreter, and the look that follows (the
        queue, task notices, a turn left open: half a dozen reads) would share the interpreter with
        them. New input for the session ends the wait at once."""
        with self._woken:
            self._woken.wait_for(
                lambda: session_id in self._wakeups or self._stopping.is_set(), AFTER_TURN_PAUSE
            )

    def _has_input(self, session_id: SessionId) -> bool:
        """Waiting input (a turn owed for another reason is found by the sweeper on PostgreSQL)."""
        try:
            return self._next_item(session_id) is not None
        except Exception:
            logger.exception("reading the queue of session %s failed", session_id)
            return False

    def _next_item(self, session_id: SessionId) -> InboxItem | None:
        """The input the runner would admit next, without claiming it."""
        with self.database.read() as db:
            waiting = inbox.waiting(db, session_id)
            claimed = self.claims.claimed_in(db, session_id)
        return next((item for item in waiting if item.id not in claimed), None)

    def claim_next(self, session_id: SessionId, take_over: bool) -> InboxItem | None:
        """The look at the queue is the claim: the next waiting input, claimed for admission.
        Where claims live on the rows, look and claim are one statement (voiding an earlier lease
        holder's claims when this runner has just won the lease); where they live in memory, a
        read and a claim in memory. The look answers every wake-up made before it."""
        with self._lock:
            self._wakeups.discard(session_id)
        if not self.leases.held(session_id):
            return None
        return self.claims.claim_next(session_id, take_over)

    def _process(self, session_id: SessionId, item: InboxItem) -> None:
        """Append the message and delete the row in one transaction (reporting exactly one
        outcome), then run the turn it starts."""
        if admission.admit_claimed(self, session_id, item) is not None:
            model_steps.run_turn(self, session_id)

    def admit(self, session_id: SessionId, item: InboxItem) -> SessionEvent | None:
        """Append the message and delete the row in one transaction; report exactly one outcome."""
        return admission.admit(self, session_id, item)

    def stopping(self) -> bool:
        return self._stopping.is_set()

    def notify(self, session_id: SessionId, events: Sequence[SessionEvent] = (), queue: bool = False) -> None:
        """Subscribers learn of changes after commit; their trouble never stops the agent."""
        try:
            self.notifier.changed(session_id, events=events, queue=queue)
        except Exception:
            logger.exception("notifying subscribers of session %s failed", session_id)

    def append(self, session_id: SessionId, event: NewEvent) -> None:
        """Log one event of a turn in its own transaction, then tell the subscribers."""
        with self.database.write() as db:
            logged = log.append(db, session_id, event, self.clock())
        self.notify(session_id, events=[logged])
