"""A stopping server process: no new claims, every open socket told to reconnect elsewhere.

A process that is being replaced (a deploy, a scale-down) closes its websockets with code
1012 ("service restart"), so pages reconnect to whichever process answers next; the durable
inbox keeps whatever this process had not admitted yet.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

logger = logging.getLogger(__name__)

RESTART_CODE = 1012
"""RFC 6455 "service restart": the page reconnects at once instead of backing off."""
RESTART_REASON = "server-restart"

Closer = Callable[[int, str], None]


class Drain:
    """The open sockets of this process, and whether it is stopping."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closers: dict[int, Closer] = {}
        self._next = 0
        self.draining = threading.Event()

    def register(self, closer: Closer) -> int | None:
        """A new socket; `None` when the process is stopping and the socket should go elsewhere."""
        with self._lock:
            if self.draining.is_set():
                return None
            self._next += 1
            self._closers[self._next] = closer
            return self._next

    def unregister(self, token: int | None) -> None:
        if token is None:
            return
        with self._lock:
            self._closers.pop(token, None)

    def open_sockets(self) -> int:
        with self._lock:
            return len(self._closers)

    def begin(self, stop_claiming: Callable[[], None]) -> int:
        """Stop taking inbox rows, then close every socket with 1012; returns how many were closed."""
        self.draining.set()
        stop_claiming()
        with self._lock:
            closers = list(self._closers.values())
        for close in closers:
            try:
                close(RESTART_CODE, RESTART_REASON)
            except Exception:  # a socket that is already gone needs no goodbye
                logger.debug("closing a socket while draining failed", exc_info=True)
        logger.info("draining: closed %d sockets with %d", len(closers), RESTART_CODE)
        return len(closers)
