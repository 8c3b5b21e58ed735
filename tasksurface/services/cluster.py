"""Several processes on one PostgreSQL: leases, shared claims and a change feed for one process.

Each process holds two dedicated connections besides its pool: one for its session leases,
one listening for the other processes' changes. A sweeper looks for work whose lease is free
every `SWEEP_SECONDS`, so a dead process's sessions are resumed by whoever sees them first.
On SQLite none of this exists: one process serves it, with its claims in memory.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..agent.ports import CallProgressSink, Notifier, ProgressSink
from ..agent.shared_claims import DatabaseClaims
from ..domain.events import SessionEvent
from ..domain.ids import SessionId
from ..store.changes import Change
from ..store.db import Database

if TYPE_CHECKING:  # the PostgreSQL driver is loaded only by a process that builds a cluster
    from ..store.advisory import AdvisoryLeases
    from ..store.changefeed import ChangeFeed

logger = logging.getLogger(__name__)

SWEEP_SECONDS = 2.0


@runtime_checkable
class Watching(Protocol):
    """A notifier that knows which sessions have sockets on this process (the push hub)."""

    def watched(self) -> list[SessionId]: ...


class Wakes(Protocol):
    def wake(self, session_id: SessionId) -> None: ...

    def wake_all_with_work(self) -> None: ...


def apply_remote_change(local: Notifier, runner: Wakes, change: Change) -> None:
    """Another process committed a change: push it to this process's sockets (each reads the
    log after its own cursor) and, when the queue changed, look whether the lease is free."""
    session_id = SessionId(change.session_id)
    local.changed(session_id, queue=change.queue, reset=change.reset)
    if change.queue:
        runner.wake(session_id)


def resync(local: Notifier, runner: Wakes) -> None:
    """The feed was down: every watched session may have changed, any lease may be free."""
    if isinstance(local, Watching):
        for session_id in local.watched():
            local.changed(session_id, queue=True)
    runner.wake_all_with_work()


def is_shared(database: Database) -> bool:
    """PostgreSQL may be shared by several processes; SQLite is served by one."""
    return database.engine.dialect.name == "postgresql"


class ClusterNotifier:
    """Pushes to this process's sockets, then tells the other processes which session changed."""

    def __init__(self, local: Notifier) -> None:
        self.local = local
        self.feed: ChangeFeed | None = None

    def changed(
        self,
        session_id: SessionId,
        events: Sequence[SessionEvent] = (),
        queue: bool = False,
        reset: bool = False,
    ) -> None:
        self.local.changed(session_id, events=events, queue=queue, reset=reset)
        if self.feed is None:
            return
        cursor = max((e.seq for e in events if e is not None), default=None)
        try:
            self.feed.publish(Change(session_id, cursor, queue, reset))
        except Exception:  # the other processes' sockets catch up at the next change or resync
            logger.exception("announcing a change of session %s failed", session_id)

    def partial(self, session_id: SessionId, text: str) -> None:
        """Streamed text is provisional and frequent: it reaches this process's sockets only."""
        if isinstance(self.local, ProgressSink):
            self.local.partial(session_id, text)

    def preview(self, session_id: SessionId, call_key: str, name: str, arguments: str) -> None:
        """A panel being written is as provisional as streamed text: this process's sockets only."""
        if isinstance(self.local, CallProgressSink):
            self.local.preview(session_id, call_key, name, arguments)


@dataclass
class Cluster:
    token: str
    leases: AdvisoryLeases
    claims: DatabaseClaims
    feed: ChangeFeed
    notifier: ClusterNotifier
    _stop: threading.Event = field(default_factory=threading.Event)
    _sweeper: threading.Thread | None = None

    def start(self, sweep: Callable[[], None]) -> None:
        self.leases.start()
        self.notifier.feed = self.feed
        self.feed.start()
        self._sweeper = threading.Thread(target=self._sweep, args=(sweep,), name="lease-sweeper", daemon=True)
        self._sweeper.start()

    def stop(self) -> None:
        """Leases go last: a runner still finishing its step keeps its session meanwhile."""
        self._stop.set()
        self.notifier.feed = None
        self.feed.stop()
        if self._sweeper is not None:
            self._sweeper.join(5)

    def close(self) -> None:
        self.leases.close()

    def _sweep(self, sweep: Callable[[], None]) -> None:
        while not self._stop.wait(SWEEP_SECONDS):
            try:
                sweep()
            except Exception:
                logger.exception("looking for sessions to resume failed")


def build_cluster(
    database: Database,
    local: Notifier,
    on_change: Callable[[Change], None],
    on_resync: Callable[[], None],
) -> Cluster:
    from ..store.advisory import AdvisoryLeases, conninfo, namespace_of
    from ..store.changefeed import ChangeFeed

    token = f"{socket.gethostname()[:32]}-{os.getpid()}-{secrets.token_hex(4)}"
    info = conninfo(database.engine)
    namespace = namespace_of(database.engine)
    feed = ChangeFeed(database.engine, info, namespace, token, on_change, on_resync)
    return Cluster(
        token,
        AdvisoryLeases(info, namespace),
        DatabaseClaims(database, token),
        feed,
        ClusterNotifier(local),
    )
