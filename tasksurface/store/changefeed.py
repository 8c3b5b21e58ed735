"""Changes of sessions announced to every process through PostgreSQL LISTEN/NOTIFY.

A notification only says *which* session changed, up to which seq, and whether its queue
did: each process then reads the log after each socket's own cursor, so a socket sees log
order with no gap and no duplicate even when notifications are merged, late or lost (after
a reconnect every watched session is read again).
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg
import sqlalchemy as sa

from .advisory import dedicated_connection
from .changes import Change, merge

logger = logging.getLogger(__name__)

RECONNECT_SECONDS = 1.0
QUIET_HOLD = 0.05
"""Seconds a notice of a change that logged nothing (a queued row, a claim) waits for the notice
of the commit that usually follows it (the admission), so the other processes read once and the
admission does not share the interpreter with a notice of its own claim: the rule this process's
pushes follow too."""


def channel_of(namespace: str) -> str:
    return "tasksurface_" + hashlib.blake2b(namespace.encode(), digest_size=8).hexdigest()


class ChangeFeed:
    def __init__(
        self,
        engine: sa.Engine,
        info: str,
        namespace: str,
        origin: str,
        on_change: Callable[[Change], None],
        on_resync: Callable[[], None],
    ) -> None:
        self.engine = engine
        self.info = info
        self.channel = channel_of(namespace)
        self.origin = origin
        self.on_change = on_change
        self.on_resync = on_resync
        """Called after (re)connecting: anything may have changed while nobody listened."""
        self.listening = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="change-feed", daemon=True)
        self._outbox: queue.Queue[Change] = queue.Queue()
        self._sender = threading.Thread(target=self._send, name="change-feed-sender", daemon=True)

    def start(self) -> None:
        self._thread.start()
        self._sender.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._sender.join(5)

    def publish(self, change: Change) -> None:
        """After the change committed; other processes get it, this one already pushed it.

        Sent from a thread of its own, so a commit never waits on it (a runner's claim and its
        admission stay close together); changes waiting together are merged per session, and a
        change that logged nothing waits a moment for the one that usually follows it.
        """
        self._outbox.put(change)

    def _send(self) -> None:
        while not self._stop.is_set() or not self._outbox.empty():
            try:
                batch = [self._outbox.get(timeout=0.5)]
            except queue.Empty:
                continue
            self._gather(batch)
            merged = merge(batch)
            while True:
                try:
                    self._notify(merged)
                    break
                except Exception:  # sockets elsewhere would miss it: try again until stopped
                    logger.exception("announcing %d changes failed", len(merged))
                    if self._stop.wait(RECONNECT_SECONDS):
                        return

    def _gather(self, batch: list[Change]) -> None:
        """Adds what else waits; while every change so far logged nothing, it waits up to
        `QUIET_HOLD` for more. A change that logged events, a reset or a stop ends the wait."""
        deadline = time.monotonic() + QUIET_HOLD
        while True:
            quiet = all(change.cursor is None and not change.reset for change in batch)
            wait = deadline - time.monotonic() if quiet and not self._stop.is_set() else 0.0
            try:
                batch.append(self._outbox.get(timeout=wait) if wait > 0 else self._outbox.get_nowait())
            except queue.Empty:
                return

    def _notify(self, changes: list[Change]) -> None:
        with self.engine.connect() as connection:
            for change in changes:
                payload = {
                    "o": self.origin,
                    "s": change.session_id,
                    "c": change.cursor,
                    "q": change.queue,
                    "r": change.reset,
                }
                connection.execute(
                    sa.text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": self.channel, "payload": json.dumps(payload, separators=(",", ":"))},
                )
            connection.commit()

    def _listen(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                with dedicated_connection(self.info) as connection:
                    connection.execute(f'LISTEN "{self.channel}"')
                    self.listening.set()
                    if not first:
                        self.on_resync()
                    first = False
                    while not self._stop.is_set():
                        for notice in connection.notifies(timeout=1.0):
                            self._deliver(notice.payload)
            except psycopg.Error:
                self.listening.clear()
                logger.warning("the change feed connection was lost; reconnecting")
                first = False
                self._stop.wait(RECONNECT_SECONDS)

    def _deliver(self, payload: str) -> None:
        try:
            found: Any = json.loads(payload)
            if found.get("o") == self.origin:
                return
            cursor = found.get("c")
            if not isinstance(found["s"], str) or not (cursor is None or type(cursor) is int):
                raise ValueError("a session id and an integer cursor were expected")
            change = Change(str(found["s"]), found.get("c"), bool(found.get("q")), bool(found.get("r")))
        except (ValueError, KeyError, AttributeError):
            logger.warning("ignoring a malformed change notification")
            return
        try:
            self.on_change(change)
        except Exception:
            logger.exception("applying a change of session %s failed", change.session_id)
