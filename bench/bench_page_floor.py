"""P2 of the chat page beside P2 of the least page with a Submit button, in one run.

    .venv/bin/python bench/bench_page_floor.py [--runs 20] [--demo all] [--traced 8]

P2 (navigation start → Submit hit-ready, defined as in `bench_page.py` and the comparison with
the peer) is mostly the machine's in a cold browser: a fresh profile's renderer starts, parses,
lays out and paints on the same cores as the server. The floor page (`floor_page.py`: one button,
live from its first byte, no stylesheet or script to fetch, served by the same development server)
costs what any page costs here; the chat page beside it says how much of P2 is this product's own.
The two alternate, each in a cold browser of its own, after the same wait for a quiet machine.
`--traced N` adds N traced runs of each, not timed: the time each page's renderer spent in style
and layout before Submit was usable, and its font lookups then, with the families they asked for
by name (`first_layout.py`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import requests
from selenium import webdriver

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cold_browser as cold
from bench_page import prepare, shown, spread
from first_layout import TRACE_CATEGORIES, FirstLayout, first_layout, trace_events

FLOOR_APP = "bench/floor_page.py"


def hit_ready(driver: webdriver.Chrome, url: str) -> float:
    driver.get(url)
    if not cold.await_mark(driver, "hitReady"):
        raise RuntimeError(f"Submit never became usable on {url}")
    return float(driver.execute_script("return window.__bench.marks.hitReady"))


def cold_load(
    base: str, path: str, owner: requests.Session | None, tools: tuple[str, str, Path], trace: bool = False
) -> tuple[float, FirstLayout | None]:
    """When Submit was usable in a cold browser (as `owner`, when given), and with `trace` what the
    renderer's first layout waited on (such a load is slowed by its trace: not a P2 figure)."""
    binary, driver_binary, profiles = tools
    profile = Path(tempfile.mkdtemp(dir=profiles))
    with cold.browser(binary, driver_binary, profile, TRACE_CATEGORIES if trace else None) as driver:
        if owner is not None:
            cold.act_as(driver, owner, base)
        usable = hit_ready(driver, base + path)
        if not trace:
            return usable, None
        log = driver.get_log("performance")  # type: ignore[no-untyped-call]
        return usable, first_layout(trace_events(log), base + path, usable)


def chat_page(
    base: str, demo: str, tools: tuple[str, str, Path], trace: bool = False
) -> tuple[float, FirstLayout | None]:
    client, session_id = prepare(base, demo)
    try:
        return cold_load(base, f"/sessions/{session_id}", client, tools, trace)
    finally:
        client.close()


def floor_page(
    base: str, tools: tuple[str, str, Path], trace: bool = False
) -> tuple[float, FirstLayout | None]:
    return cold_load(base, "/", None, tools, trace)


def first_layouts(
    chat: tuple[float, FirstLayout | None], floor: tuple[float, FirstLayout | None]
) -> dict[str, FirstLayout]:
    assert chat[1] is not None and floor[1] is not None
    return {"chat": chat[1], "floor": floor[1]}


def report_traced(pairs: list[dict[str, FirstLayout]], demo: str) -> None:
    print(f"Before Submit was usable, from {len(pairs)} traced cold runs of each (not timed), median:")
    rows = (
        ("style (ms)", lambda f: f.style_ms),
        ("layout (ms)", lambda f: f.layout_ms),
        ("font lookups", lambda f: float(f.font_lookups)),
        ("  their time (ms)", lambda f: f.font_ms),
        ("  sizes asked for", lambda f: float(f.sizes_asked)),
    )
    print(f"  {'':<22} {'chat page, ' + repr(demo):>18} {'floor':>10} {'ratio':>8}")
    for label, value in rows:
        chat = statistics.median(value(p["chat"]) for p in pairs)
        floor = statistics.median(value(p["floor"]) for p in pairs)
        ratio = f"{chat / floor:.1f}" if floor else "-"
        print(f"  {label:<22} {chat:>18.1f} {floor:>10.1f} {ratio:>8}")
    for side in ("chat", "floor"):
        asked = dict.fromkeys(family for p in pairs for family in p[side].families)
        named = ", ".join(repr(family) for family in asked)  # quoted: a lookup may name no family
        print(f"  families asked for by name, {side} page: {named or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=20, help="cold runs of each page")
    parser.add_argument("--warmup", type=int, default=1, help="runs of each first, not counted")
    parser.add_argument("--demo", default="all", help="the panel docked (/surface DEMO)")
    parser.add_argument("--traced", type=int, default=0, help="traced runs of each after the timed ones")
    cold.machine_arguments(parser)
    args = parser.parse_args()
    chat: list[float] = []
    floor: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as work:
        folder = Path(work)
        tools = (cold.chromium_binary(args.chromium), cold.chromedriver_of(args), folder)
        with cold.flask_server(folder) as page_base, cold.flask_server(folder, FLOOR_APP) as floor_base:

            def load(which: str) -> float:
                if which == "chat":
                    return chat_page(page_base, args.demo, tools)[0]
                return floor_page(floor_base, tools)[0]

            for pair in cold.alternated_pairs(("chat", "floor"), args.runs, args.warmup, load, args):
                chat.append(pair["chat"])
                floor.append(pair["floor"])
                print(
                    f"run {len(chat)}: chat page {chat[-1]:.1f} ms, floor {floor[-1]:.1f} ms", file=sys.stderr
                )
            pairs = [
                first_layouts(
                    chat_page(page_base, args.demo, tools, True), floor_page(floor_base, tools, True)
                )
                for _ in range(args.traced)
            ]
    if not chat:
        raise SystemExit("no run succeeded")
    print(f"P2, navigation → Submit usable: {len(chat)} cold runs of each, alternated, median [min–max]")
    print(f"  {'chat page, ' + repr(args.demo) + ' docked (ms)':<40} {shown(spread(chat)):>24}")
    print(f"  {'floor page, one button (ms)':<40} {shown(spread(floor)):>24}")
    page, least = statistics.median(chat), statistics.median(floor)
    paired = statistics.median(c - f for c, f in zip(chat, floor, strict=True))
    own = f"{page - least:.0f} ms (paired runs: {paired:.0f} ms)"
    print(f"  the chat page's own: {own}; ratio of medians {page / least:.2f}")
    if pairs:
        report_traced(pairs, args.demo)


if __name__ == "__main__":
    main()
