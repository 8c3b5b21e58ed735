"""Reading a traced cold load: what the page's main thread spent on style, layout and fonts before
its controls were usable, and which font families it asked the browser for by name."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from first_layout import first_layout

PAGE = "http://127.0.0.1:5000/sessions/s_1"
MAIN = {"pid": 7, "tid": 1}
NAVIGATION = 1_000_000  # µs on the trace's clock


def span(name: str, at_ms: float, ms: float, thread: dict[str, int] = MAIN, **args: Any) -> dict[str, Any]:
    return {
        "name": name,
        "ph": "X",
        "ts": NAVIGATION + at_ms * 1000,
        "dur": ms * 1000,
        "args": args,
        **thread,
    }


def navigation(url: str = PAGE, thread: dict[str, int] = MAIN) -> dict[str, Any]:
    return {
        "name": "navigationStart",
        "ph": "R",
        "ts": NAVIGATION,
        "args": {"data": {"documentLoaderURL": url}},
        **thread,
    }


def family(at_ms: float, name: str) -> list[dict[str, Any]]:
    """A lookup of a family by name: the font cache's call, and inside it the named match."""
    return [
        span("FontCache::GetFontPlatformData", at_ms, 1.0),
        span("FontDataManager::onMatchFamilyStyle", at_ms + 0.1, 0.8, family_name=name),
    ]


def test_style_layout_and_lookups_before_usable_on_the_pages_main_thread() -> None:
    events = [
        navigation(),
        navigation("about:blank", {"pid": 3, "tid": 1}),
        span("UpdateLayoutTree", 90, 5.0),
        span("Layout", 95, 20.0),
        *family(96, "sans-serif"),
        *family(98, "Menlo"),
        *family(100, "sans-serif"),  # asked again: named once
        span("WebSandboxSupportLinux::GetWebFontRenderStyleForStrike", 102, 0.5),
        span("WebSandboxSupportLinux::GetWebFontRenderStyleForStrike", 103, 0.5),
        span("Layout", 40, 3.0, {"pid": 7, "tid": 2}),  # another thread
        span("UpdateLayoutTree", 140, 4.0),  # after the controls were usable
        *family(141, "Arial"),
    ]
    found = first_layout(events, PAGE, usable_ms=130.0)
    assert found.style_ms == pytest.approx(5.0)
    assert found.layout_ms == pytest.approx(20.0)
    assert found.families == ("sans-serif", "Menlo")
    assert found.sizes_asked == 2
    # Three family lookups and two size settings; a match inside its lookup is not counted again.
    assert found.font_lookups == 5
    assert found.font_ms == pytest.approx(3 * 1.0 + 2 * 0.5)


def test_a_trace_without_the_pages_navigation_is_refused() -> None:
    with pytest.raises(RuntimeError, match="no navigation"):
        first_layout([navigation("about:blank")], PAGE, usable_ms=100.0)
