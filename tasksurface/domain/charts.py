"""Chart geometry for server-drawn SVG: scales with readable ticks, bars, lines and areas.

Pure arithmetic on the model's numbers; the page turns it into SVG with classes only, so the
stylesheet colours it in either theme and print. Gaps (`null`) are never drawn as zero.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 240
LEFT = 56
RIGHT = 12
TOP = 12
BOTTOM = 30
MAX_LABELS = 12
"""Category labels drawn at most; the rest are in the table beside the chart."""


@dataclass(frozen=True)
class Tick:
    value: float
    y: float
    label: str


@dataclass(frozen=True)
class Bar:
    series: int
    category: int
    x: float
    y: float
    width: float
    height: float
    value: float


@dataclass(frozen=True)
class Line:
    series: int
    paths: tuple[str, ...]
    """One `d` per run of values without a gap."""
    areas: tuple[str, ...]


@dataclass(frozen=True)
class Label:
    x: float
    text: str


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int
    baseline: float
    ticks: tuple[Tick, ...]
    bars: tuple[Bar, ...]
    lines: tuple[Line, ...]
    labels: tuple[Label, ...]
    empty: bool


def nice_step(span: float, count: int = 5) -> float:
    """A step of 1, 2, 2.5 or 5 times a power of ten giving about `count` intervals."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5):
        if raw <= factor * power:
            return float(factor * power)
    return float(10 * power)


def format_value(value: float) -> str:
    """Up to six significant digits, without a trailing `.0`."""
    if value == 0:
        return "0"
    text = f"{value:.6g}"
    return text[:-2] if text.endswith(".0") else text


def _domain(values: Sequence[float], zero: bool) -> tuple[float, float, float]:
    low, high = min(values), max(values)
    if zero:
        low, high = min(low, 0.0), max(high, 0.0)
    if low == high:
        low, high = low - 1, high + 1
    step = nice_step(high - low)
    return float(math.floor(low / step) * step), float(math.ceil(high / step) * step), step


def geometry(kind: str, categories: Sequence[str], series: Sequence[Sequence[float | None]]) -> Geometry:
    """`kind` is `bar`, `area` or `line`; `series[s][c]` is the value of series s at category c."""
    present = [float(v) for values in series for v in values if v is not None]
    n = len(categories)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    if not present or n == 0:
        return Geometry(WIDTH, HEIGHT, TOP + plot_h, (), (), (), (), True)
    low, high, step = _domain(present, zero=kind != "line")

    def y_of(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 2)

    count = round((high - low) / step)
    ticks = tuple(
        Tick(low + k * step, y_of(low + k * step), format_value(low + k * step)) for k in range(count + 1)
    )
    band = plot_w / n
    baseline = y_of(max(low, min(0.0, high)))
    bars: list[Bar] = []
    lines: list[Line] = []
    if kind == "bar":
        inner = band * 0.8 / max(1, len(series))
        for s, values in enumerate(series):
            for c, value in enumerate(values[:n]):
                if value is None:
                    continue
                x = LEFT + c * band + band * 0.1 + s * inner
                top, bottom = sorted((y_of(float(value)), baseline))
                bars.append(
                    Bar(s, c, round(x, 2), top, round(inner, 2), round(bottom - top, 2), float(value))
                )
    else:
        for s, values in enumerate(series):
            runs: list[list[tuple[float, float]]] = [[]]
            for c, value in enumerate(values[:n]):
                if value is None:
                    runs.append([])
                    continue
                runs[-1].append((round(LEFT + (c + 0.5) * band, 2), y_of(float(value))))
            runs = [r for r in runs if r]
            paths = tuple("M" + " L".join(f"{x} {y}" for x, y in run) for run in runs)
            areas = (
                tuple(
                    f"M{run[0][0]} {baseline} L"
                    + " L".join(f"{x} {y}" for x, y in run)
                    + f" L{run[-1][0]} {baseline} Z"
                    for run in runs
                )
                if kind == "area"
                else ()
            )
            lines.append(Line(s, paths, areas))
    every = max(1, math.ceil(n / MAX_LABELS))
    labels = tuple(Label(round(LEFT + (c + 0.5) * band, 2), categories[c]) for c in range(0, n, every))
    return Geometry(WIDTH, HEIGHT, baseline, ticks, tuple(bars), tuple(lines), labels, False)
