"""What a cold page's renderer spent before its controls were usable, read from a Chromium trace:
its time in style and in layout, and its font lookups. Each lookup is a synchronous call from the
renderer to the browser process (a family matched, or the settings of one size and weight asked
for), so a page that draws its text in more faces waits on more of them inside its first layout.
The families it asked for are named: a name the machine lacks costs a lookup that finds nothing."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

TRACE_CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,fonts"
"""Layout and navigation marks, and the font cache's calls to the browser process."""

FONT_LOOKUPS = frozenset(
    {
        "FontCache::GetFontPlatformData",
        "FontCache::FallbackFontForCharacter",
        "WebSandboxSupportLinux::GetWebFontRenderStyleForStrike",
    }
)


FAMILY_MATCH = "FontDataManager::onMatchFamilyStyle"
"""A family asked for by name (its `family_name` argument), inside a lookup."""
SIZE_SETTINGS = "WebSandboxSupportLinux::GetWebFontRenderStyleForStrike"


@dataclass(frozen=True)
class FirstLayout:
    layout_ms: float
    font_lookups: int
    font_ms: float
    style_ms: float
    sizes_asked: int
    families: tuple[str, ...]
    """In the order first asked for, each once."""


def trace_events(log: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The trace events in a chromedriver performance log."""
    events = []
    for entry in log:
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Tracing.dataCollected":
            events.append(message["params"])
    return events


def first_layout(events: list[dict[str, Any]], page_url: str, usable_ms: float) -> FirstLayout:
    """Style, layout and font lookups on the page's main thread from navigation start to
    `usable_ms` (the page's own clock, which starts at navigation). Nested lookups count once."""
    start = next(
        (
            e
            for e in events
            if e.get("name") == "navigationStart"
            and (e.get("args", {}).get("data") or {}).get("documentLoaderURL") == page_url
        ),
        None,
    )
    if start is None:
        raise RuntimeError(f"the trace has no navigation to {page_url}")
    end = start["ts"] + usable_ms * 1000
    spans = sorted(
        (
            e
            for e in events
            if e.get("ph") == "X"
            and (e.get("pid"), e.get("tid")) == (start["pid"], start["tid"])
            and start["ts"] <= e["ts"] < end
        ),
        key=lambda e: e["ts"],
    )
    layout = sum(e.get("dur", 0) for e in spans if e["name"] == "Layout")
    style = sum(e.get("dur", 0) for e in spans if e["name"] == "UpdateLayoutTree")
    families = tuple(dict.fromkeys(_family(e) for e in spans if e["name"] == FAMILY_MATCH))
    lookups, font, covered_until = 0, 0, -1
    for e in spans:
        if e["name"] in FONT_LOOKUPS and e["ts"] >= covered_until:
            lookups += 1
            font += e.get("dur", 0)
            covered_until = e["ts"] + e.get("dur", 0)
    return FirstLayout(
        layout_ms=layout / 1000,
        font_lookups=lookups,
        font_ms=font / 1000,
        style_ms=style / 1000,
        sizes_asked=sum(1 for e in spans if e["name"] == SIZE_SETTINGS),
        families=families,
    )


def _family(event: Mapping[str, Any]) -> str:
    return str((event.get("args") or {}).get("family_name", "?"))
