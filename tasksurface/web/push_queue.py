"""The order in which a process delivers its pushes, off the threads that commit.

Whoever commits (a request, the runner) only says that a session changed and goes on: the
runner takes the next step without waiting for HTML to be rendered, and a request answers
at once. One worker thread builds the messages, session by session, in the order they were
asked for. News that waits is merged: changes that follow each other become one change (every
message is built from a fresh read, so one build shows all of them), and streamed text that
waits is replaced by newer text. Nothing overtakes what was asked for before it.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
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
        self._ready: deque[SessionId] = deque()
        self._busy = False
        self._worker: threading.Thread | None = None

    def change(self, session_id: SessionId, queue: bool = False, reset: bool = False) -> None:
        with self._cond:
            ops = self._ops(session_id)
            last = ops[-1] if ops else None
            if isinstance(last, _Change):
                last.queue, last.reset = last.queue or queue, last.reset or reset
            else:
                ops.append(_Change(queue, reset))
            self._wake()

    def call(self, session_id: SessionId, action: Callable[[], None], key: str | None = None) -> None:
        with self._cond:
            ops = self._ops(session_id)
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

    def _ops(self, session_id: SessionId) -> list[_Op]:
        ops = self._pending.get(session_id)
        if ops is None:
            ops = self._pending[session_id] = []
            self._ready.append(session_id)
        return ops

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
                if not self._ready and not self._cond.wait_for(lambda: bool(self._ready), LINGER_SECONDS):
                    self._worker = None
                    return
                session_id = self._ready.popleft()
                ops = self._pending.pop(session_id)
                self._busy = True
            for op in ops:
                self._run(session_id, op)

    def _run(self, session_id: SessionId, op: _Op) -> None:
        try:
            if isinstance(op, _Change):
                self._deliver_change(session_id, op.queue, op.reset)
            else:
                op.action()
        except Exception:  # a subscriber's trouble never reaches whoever committed
            logger.exception("pushing to the subscribers of session %s failed", session_id)
