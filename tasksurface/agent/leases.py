"""Leases: a session's runner runs in exactly one process at a time.

On SQLite there is one process, and the runner pool already keeps one thread per session,
so every lease is granted (`LocalLeases`). On PostgreSQL the lease is an advisory lock held
on one dedicated connection per process (`store.advisory.AdvisoryLeases`).
"""

from __future__ import annotations

from typing import Protocol


class Leases(Protocol):
    def acquire(self, session_id: str) -> bool:
        """Take the session's lease without waiting; `False` when another process holds it."""
        ...

    def release(self, session_id: str) -> None: ...

    def held(self, session_id: str) -> bool:
        """Whether the lease still stands (a lost connection loses every lease at once)."""
        ...


class LocalLeases:
    """One process: the runner pool's one thread per session is the lease."""

    def acquire(self, session_id: str) -> bool:
        return True

    def release(self, session_id: str) -> None:
        pass

    def held(self, session_id: str) -> bool:
        return True
