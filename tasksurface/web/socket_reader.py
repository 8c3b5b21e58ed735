"""The thread that reads one websocket, as simple-websocket runs it, with one race made quiet.

simple-websocket starts its reader thread when the connection is accepted, and that thread's
first step registers the socket with a selector. When this side refuses the connection at once
(a bad session in the URL, a process that is stopping) the handler returns, the server closes the
socket, and a reader that had not run yet finds a closed file: `OSError: [Errno 9]`. The
library catches the other form of that race (a closed socket's `fileno()` of -1) but not this
one, so it surfaced as an exception in a thread, with nothing lost: the connection was already
over. Such an error, after this side closed the connection, ends the thread quietly; any other
error of the reader is raised as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class SocketReader(threading.Thread):
    """Given to simple-websocket as its `thread_class`; it runs the connection's read loop."""

    def __init__(self, target: Callable[[], None]) -> None:
        super().__init__(target=target)
        self._connection = getattr(target, "__self__", None)
        """The library's connection whose loop this thread runs (its `connected` flag)."""

    def run(self) -> None:
        try:
            super().run()
        except OSError:
            if self._connection is not None and not getattr(self._connection, "connected", True):
                return  # closed on this side before the reader's first look: nothing to read
            raise
