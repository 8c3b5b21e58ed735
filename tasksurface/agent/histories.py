"""What each session's model read last, so the next model step reads only what came since.

A turn asks the model once per step, and each step reads the session's history. Read whole, that
is every event again (about 7 ms at 1,000 events on SQLite, before any model is asked); kept here
and carried forward (`domain.model_history`), it is the events logged after the newest one kept.
Seqs are handed out under the session's row lock, so an event is visible only once every earlier
one is. Only the log is read: whichever process logged the new events (a lease moves between
processes), the next read catches up on all of them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import sqlalchemy.orm as so

from ..domain.events import SessionEvent
from ..domain.ids import SessionId
from ..domain.model_history import carry_forward
from ..store import log

KEPT_SESSIONS = 64
"""Sessions whose history this process keeps; the least recently read goes first."""
KEPT_EVENTS = 200_000
"""Events kept in all, so a few very long sessions cannot fill the memory: the least recently
read sessions go first, and a session longer than this alone is read whole each time."""


class Histories:
    def __init__(self, capacity: int = KEPT_SESSIONS, events: int = KEPT_EVENTS) -> None:
        self._capacity = capacity
        self._max_events = events
        self._kept: OrderedDict[SessionId, list[SessionEvent]] = OrderedDict()
        self._events = 0
        self._lock = threading.Lock()

    def read(self, db: so.Session, session_id: SessionId) -> Sequence[SessionEvent]:
        """The session's visible history, as `log.events_after(db, session_id, 0)` reads it. The
        same sequence grows with later reads of the session: read it before asking again."""
        with self._lock:
            kept = self._kept.pop(session_id, None)  # one reader of a session at a time
            self._events -= len(kept) if kept is not None else 0
        kept = kept if kept is not None else []
        events = carry_forward(kept, log.events_after(db, session_id, kept[-1].seq if kept else 0))
        if len(events) > self._max_events:
            return events
        with self._lock:
            # Another reader of the session (while this one had the copy out) may have kept its own.
            replaced = self._kept.pop(session_id, None)
            self._events += len(events) - (len(replaced) if replaced is not None else 0)
            self._kept[session_id] = events
            while len(self._kept) > self._capacity or self._events > self._max_events:
                _, dropped = self._kept.popitem(last=False)
                self._events -= len(dropped)
        return events
