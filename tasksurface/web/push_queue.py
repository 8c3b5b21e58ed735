"""The order in which a process delivers its pushes, off the threads that commit.

Whoever commits (a request, the runner) only says that a session changed and goes on: the
runner takes the next step without waiting for HTML to be rendered, and a request answers
at once. One worker thread builds the messages, session by session, in the order they were
asked for. News that waits is merged: changes that follow each other become one change (every
message is built from a fresh read, so one build shows all of them), and streamed text that
waits is replaced by newer text. Nothing overtakes what was asked for before it.

A change may be held for a moment (`hold`): a queue row or a claim is usually followed within
milliseconds by the commit that admits it, and then one message says both. A change that is not
held, and any call, brings the session's waiting news forward with it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..domain.ids import SessionId

logger = logging.getLogger(__name__)

LINGER_SECONDS = 2.0
"""How long an idle worker waits for more before it ends (the next push starts a new one)."""


@dataclass
class _Change:
    queue: bool
    reset: bool


@dataclass
class _Call:
    action: Callable[[], None]
    key: str | None
    """Calls with the same key that wait side by side: only the newest runs."""


_Op = _Change | _Call
DeliverChange = Callable[[SessionId, bool, bool], None]


class PushQueue:
    def __init__(self, deliver_change: DeliverChange) -> None:
        self._deliver_change = deliver_change
        self._cond = threading.Condition()
        self._pending: dict[SessionId, list[_Op]] = {}
        self._due: dict[SessionId, float] = {}
        """When each waiting session's news goes out (`time.monotonic()`), in order of arrival."""
        self._busy = False
        self._worker: threading.Thread | None = None

    def change(
        self, session_id: SessionId, queue: bool = False, reset: bool = False, hold: float = 0.0
    ) -> None:
        with self._cond:
            ops = self._ops(session_id, hold)
            last = ops[-1] if ops else None
            if isinstance(last, _Change):
                last.queue, last.reset = last.queue or queue, last.reset or reset
            else:
                ops.append(_Change(queue, reset))
            self._wake()

    def call(self, session_id: SessionId, action: Callable[[], None], key: str | None = None) -> None:
        with self._cond:
            ops = self._ops(session_id, 0.0)
            last = ops[-1] if ops else None
            if key is not None and isinstance(last, _Call) and last.key == key:
                last.action = action
            else:
                ops.append(_Call(action, key))
            self._wake()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything asked for so far is delivered; `False` on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

    def _ops(self, session_id: SessionId, hold: float) -> list[_Op]:
        """The session's waiting news, due no later than `hold` seconds from now."""
        due = time.monotonic() + hold
        ops = self._pending.get(session_id)
        if ops is None:
            ops = self._pending[session_id] = []
            self._due[session_id] = due
        else:
            self._due[session_id] = min(self._due[session_id], due)
        return ops

    def _next_due(self) -> SessionId | float | None:
        """Under the condition: the first session whose news is due, else how long until one is."""
        now = time.monotonic()
        for session_id, due in self._due.items():
            if due <= now:
                return session_id
        return min(self._due.values()) - now if self._due else None

    def _wake(self) -> None:
        """Under the condition: a waiting worker takes the work, or a new one starts."""
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, name="push", daemon=True)
            self._worker.start()
        self._cond.notify_all()

    def _work(self) -> None:
        while True:
            with self._cond:
                self._busy = False
                self._cond.notify_all()  # for flush
                session_id = self._take()
                if session_id is None:
                    self._worker = None
                    return
                ops = self._pending.pop(session_id)
                self._busy = True
            for op in ops:
                self._run(session_id, op)

    def _take(self) -> SessionId | None:
        """Under the condition: wait for a session whose news is due; `None` after lingering idle."""
        idle_until = time.monotonic() + LINGER_SECONDS
        while True:
            found = self._next_due()
            if isinstance(found, str):
                del self._due[found]
                return found
            if found is None and time.monotonic() >= idle_until:
                return None
            self._cond.wait(found if found is not None else idle_until - time.monotonic())

    def _run(self, session_id: SessionId, op: _Op) -> None:
        try:
            if isinstance(op, _Change):
                self._deliver_change(session_id, op.queue, op.reset)
            else:
                op.action()
        except Exception:  # a subscriber's trouble never reaches whoever committed
            logger.exception("pushing to the subscribers of session %s failed", session_id)
