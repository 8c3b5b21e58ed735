"""What a producer is: it runs one task to its end, writing output to a sink and watching for a stop."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol


@dataclass(frozen=True)
class Ending:
    """How a run ended; a `cancelled` ending takes its detail from who asked and why."""

    status: Literal["completed", "failed", "cancelled"]
    detail: str | None = None


class Sink(Protocol):
    """Where a running task's output and progress go; the host stores them in batches."""

    def write(self, text: str) -> None: ...

    def progress(self, done: float, total: float | None) -> None: ...

    @property
    def cancelled(self) -> bool: ...

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Call `callback` (at once if already cancelled) when someone asks the task to stop."""


class Producer(Protocol):
    kind: str

    def run(self, spec: Mapping[str, Any], sink: Sink) -> Ending:
        """Blocks until the task ends; never raises for the task's own failures."""
