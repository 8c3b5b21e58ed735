"""Observers of inbox terminal outcomes, shared by the runner and queue removal."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from ..agent.ports import Outcome
from ..store.records import InboxItem

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class OutcomeRecord:
    item_id: str
    message_id: str
    outcome: Outcome
    reason: str


class OutcomeJournal:
    """Keeps the latest terminal outcomes in memory, for operators' logs and tests."""

    def __init__(self, keep: int = 1000) -> None:
        self._lock = threading.Lock()
        self._records: list[OutcomeRecord] = []
        self._keep = keep

    def outcome(self, item: InboxItem, outcome: Outcome, reason: str) -> None:
        logger.info("inbox item %s %s (%s)", item.id, outcome, reason)
        with self._lock:
            self._records.append(OutcomeRecord(item.id, item.message_id, outcome, reason))
            del self._records[: -self._keep]

    def records(self) -> list[OutcomeRecord]:
        with self._lock:
            return list(self._records)
