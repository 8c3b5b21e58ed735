"""Process-local claims on inbox items: who is taking a row out of the queue right now.

The runner claims a row to admit it; a queue `remove` claims it to delete it. Whoever
claims first wins, so a row is never both admitted and removed. Claims die with the
process; the durable row does not, so a restart simply claims it again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

Purpose = Literal["admit", "remove"]


class ClaimRegistry:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._claims: dict[str, Purpose] = {}

    def try_claim(self, item_id: str, purpose: Purpose) -> bool:
        with self._lock:
            if item_id in self._claims:
                return False
            self._claims[item_id] = purpose
            return True

    def release(self, item_id: str) -> None:
        with self._lock:
            self._claims.pop(item_id, None)

    def purpose(self, item_id: str) -> Purpose | None:
        with self._lock:
            return self._claims.get(item_id)

    def admitting(self) -> frozenset[str]:
        """Rows the runner holds for admission right now."""
        with self._lock:
            return frozenset(item for item, purpose in self._claims.items() if purpose == "admit")

    def claimed(self) -> frozenset[str]:
        with self._lock:
            return frozenset(self._claims)

    @contextmanager
    def holding(self, item_id: str, purpose: Purpose) -> Iterator[bool]:
        """Claim for the length of a block; yields whether the claim was won."""
        won = self.try_claim(item_id, purpose)
        try:
            yield won
        finally:
            if won:
                self.release(item_id)
