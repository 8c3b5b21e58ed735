"""One cold load's server points and browser marks on one clock, and the steps read from them.

Pure: `trace_load.py` gives it the lines `timed_app.py` wrote, the page's `timeOrigin`, its
resource timing and its marks; it says when each step happened in ms after navigation start (or
after the click, for the round trip). A step that did not happen in a load is `None`, so a
summary counts only the loads that had it.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

BUILD_COST = re.compile(r"([\d.]+) ms wall, ([\d.]+) ms CPU(?:, ([\d.]+) ms ready for a core)?")
"""The detail of a `push-built` point (`timed_app.py`); older logs lack the wait for a core."""
PUMP = "_pump"
"""Part of the name of the thread that writes a socket's pushes (`web/ws.py`)."""


@dataclass(frozen=True)
class Point:
    at: float
    """ms after the page's navigation start (negative: before it)."""
    thread: str
    what: str
    detail: str


def parse(lines: Iterable[str], origin: float) -> list[Point]:
    """The timing log's lines, on the page's clock (`origin`: its `performance.timeOrigin`)."""
    points = []
    for line in lines:
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 4:
            continue  # a line cut short by a server that stopped mid-write
        wall, thread, what, detail = fields
        points.append(Point(float(wall) - origin, thread, what, detail))
    return sorted(points, key=lambda p: p.at)


def first(
    points: Sequence[Point], what: str, detail: str = "", after: float = float("-inf"), thread: str = ""
) -> float | None:
    """When the first such point at or after `after` happened; `detail` matches its start, and
    `thread` a part of the name of the thread that noted it."""
    return next(
        (
            p.at
            for p in points
            if p.what == what and p.detail.startswith(detail) and p.at >= after and thread in p.thread
        ),
        None,
    )


def resource(entries: Sequence[Mapping[str, Any]], suffix: str) -> Mapping[str, Any] | None:
    """The resource timing entry whose URL path ends as given (`.css`, `.js`)."""
    return next((e for e in entries if str(e["path"]).endswith(suffix)), None)


def load_steps(
    points: Sequence[Point], entries: Sequence[Mapping[str, Any]], page: str
) -> dict[str, float | None]:
    """From navigation start: when the page was drawn, and for the stylesheet and the page script
    when the browser started each fetch, sent it, the server read it and the last byte arrived."""
    steps: dict[str, float | None] = {"page drawn": first(points, "view-out", page)}
    for label, suffix in (("stylesheet", ".css"), ("page script", ".js")):
        entry = resource(entries, suffix)
        path = str(entry["path"]) if entry else None
        steps[f"{label}: fetch started"] = entry["start"] if entry else None
        steps[f"{label}: request sent"] = entry["requestStart"] if entry else None
        steps[f"{label}: read by the server"] = first(points, "read", path) if path else None
        steps[f"{label}: last byte in"] = entry["responseEnd"] if entry else None
    return steps


def build_cost(points: Sequence[Point], after: float) -> dict[str, float | None]:
    """The first push built after `after`: its CPU time, and how long its thread waited, ready
    to run, for a core that other processes held (the rest of its wall time is the lock)."""
    built = next((p for p in points if p.what == "push-built" and p.at >= after), None)
    found = BUILD_COST.fullmatch(built.detail) if built else None
    if found is None:
        return {"push: CPU": None, "push: waited for a core": None}
    waited = found.group(3)
    return {"push: CPU": float(found.group(2)), "push: waited for a core": float(waited) if waited else None}


def round_trip_steps(
    points: Sequence[Point], click: float, marks: Mapping[str, float], heard: Sequence[float] = ()
) -> dict[str, float | None]:
    """From the click: the call read and answered, the submission and the reply committed, the
    push built and sent, and the page hearing the call's answer (`heard`: when the page's socket
    had each frame after the click), hearing the reply and showing it; and what the push cost."""

    def since(at: float | None) -> float | None:
        return None if at is None else at - click

    return {
        "call read": since(first(points, "rpc-in", after=click)),
        "submission committed": since(first(points, "committed", "user/message", after=click)),
        "call answered": since(first(points, "rpc-answered", after=click)),
        "reply committed": since(first(points, "committed", "assistant/message", after=click)),
        "push built": since(first(points, "push-built", after=click)),
        # Pushes leave on the socket's pump thread; the call's answer on its handler's.
        "push sent": since(first(points, "frame-sent", after=click, thread=PUMP)),
        "answer heard": since(heard[0]) if heard else None,
        "reply heard": since(marks.get("nextArrived")),
        "reply shown": since(marks.get("nextVisible")),
        **build_cost(points, click),
    }


def medians(rows: Sequence[Mapping[str, float | None]]) -> dict[str, tuple[float, int] | None]:
    """Each step's median over the loads that had it, with how many had it."""
    names = list(dict.fromkeys(name for row in rows for name in row))
    out: dict[str, tuple[float, int] | None] = {}
    for name in names:
        values = [v for row in rows if (v := row.get(name)) is not None]
        out[name] = (statistics.median(values), len(values)) if values else None
    return out
