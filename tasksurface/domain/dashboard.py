"""Exploring a dashboard: the chosen metric over the chosen range, and what it sums to.

The state (metric, range, chart) is the person's own view; it is read from a form or a query
and never sent to the agent. Anything that does not fit the block falls back to its defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .charts import format_value
from .workspaces import DashboardBlock, DashboardSeries


@dataclass(frozen=True)
class Summary:
    total: float
    mean: float
    minimum: float
    maximum: float
    count: int
    """Values present in the range; gaps are left out of every figure."""

    def formatted(self) -> dict[str, str]:
        return {
            "total": format_value(self.total),
            "mean": format_value(self.mean),
            "minimum": format_value(self.minimum),
            "maximum": format_value(self.maximum),
        }


def summarise(values: Sequence[float | None]) -> Summary | None:
    present = [float(v) for v in values if v is not None]
    if not present:
        return None
    total = sum(present)
    return Summary(total, total / len(present), min(present), max(present), len(present))


@dataclass(frozen=True)
class View:
    metric: DashboardSeries
    start: int
    end: int
    """Inclusive category indexes."""
    chart: str
    categories: tuple[str, ...]
    values: tuple[float | None, ...]
    summary: Summary | None


def explore(block: DashboardBlock, state: Mapping[str, str] | None = None) -> View:
    """The view for `state` (`metric`, `from`, `to`, `chart`), each falling back to its default."""
    state = state or {}
    metric = next((s for s in block.series if s.id == state.get("metric")), block.series[0])
    last = len(block.categories) - 1
    start = _index(block.categories, state.get("from"), 0)
    end = _index(block.categories, state.get("to"), last)
    start, end = sorted((start, end))
    chart = state.get("chart") if state.get("chart") in block.charts else block.charts[0]
    assert chart is not None
    values = tuple(metric.values[start : end + 1])
    return View(
        metric, start, end, chart, tuple(block.categories[start : end + 1]), values, summarise(values)
    )


def _index(categories: Sequence[str], wanted: str | None, default: int) -> int:
    """A category by its position (`"3"`), as the page's selects name them."""
    if wanted is None or not wanted.isdigit():
        return default
    index = int(wanted)
    return index if 0 <= index < len(categories) else default
