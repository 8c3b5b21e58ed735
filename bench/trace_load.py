"""Where a cold load's and a round trip's time goes, on one clock: the server's timing points
beside the browser's resource timing and the page's marks.

    .venv/bin/python bench/trace_load.py [--runs 8] [--demo all] [--show 1]

Serves `timed_app.py` (the app with timing points, see there) with `flask run` as the peer
comparison serves the product, and runs `bench_page.py`'s cold loads: each loads the chat page
with the demo docked until Submit is usable, then clicks it and waits for the reply. For each
load it reads the points the server wrote during it and puts them on the page's clock (the wall
clock is one on one machine; `performance.timeOrigin` ties the page to it). `--show N` prints the
first N loads in full; the summary gives each step's median over the loads:

- after navigation start: when the page was drawn, and for the stylesheet and the page script
  when the browser started the fetch, sent the request, the server read it and the last byte
  arrived;
- after the click: the call read and answered, the submission and the reply committed, the push
  that carries the reply built and sent, and the page hearing and showing the reply.

The timing points cost a little (a line written per point), so read the steps against each
other, not as P2 and P3: those are `bench_page.py`'s and the comparison's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_page import prepare
from cold_browser import (
    SUBMIT,
    act_as,
    await_mark,
    browser,
    chromedriver_of,
    chromium_binary,
    flask_server,
    machine_arguments,
    wait_quiet,
)
from selenium.webdriver.common.by import By
from timeline import Point, load_steps, medians, parse, round_trip_steps

LOADED_JS = """
return {
  origin: performance.timeOrigin, marks: window.__bench.marks,
  entries: performance.getEntriesByType('resource').map((e) => ({
    path: new URL(e.name).pathname, start: e.startTime, requestStart: e.requestStart,
    responseEnd: e.responseEnd})),
};
"""
CLICKED_JS = """
return {marks: window.__bench.marks, click: window.__bench.click.at,
        heard: window.__bench.frames.filter((f) => f.afterClick).map((f) => f.at)};
"""


def one_load(
    base: str, demo: str, binary: str, driver_binary: str, folder: Path, log: Path
) -> dict[str, Any]:
    client, session_id = prepare(base, demo)
    log.write_text("")  # only this load's points from here on
    page = f"/sessions/{session_id}"
    try:
        with browser(binary, driver_binary, Path(tempfile.mkdtemp(prefix="profile-", dir=folder))) as driver:
            act_as(driver, client, base)
            driver.get(base + page)
            if not await_mark(driver, "hitReady"):
                raise RuntimeError("Submit never became usable")
            loaded: dict[str, Any] = driver.execute_script(LOADED_JS)
            driver.find_element(By.CSS_SELECTOR, SUBMIT).click()
            if not await_mark(driver, "nextVisible"):
                raise RuntimeError("the reply never showed")
            clicked: dict[str, Any] = driver.execute_script(CLICKED_JS)
    finally:
        client.close()
    points = parse(log.read_text(encoding="utf-8").splitlines(), loaded["origin"])
    return {
        "points": points,
        "usable": loaded["marks"]["hitReady"],
        "click": clicked["click"],
        "heard": clicked["heard"],
        "load": load_steps(points, loaded["entries"], page),
        "round trip": round_trip_steps(points, clicked["click"], clicked["marks"], clicked["heard"]),
    }


def show(n: int, row: dict[str, Any]) -> None:
    print(f"load {n}: Submit usable at {row['usable']:.1f} ms")
    points: list[Point] = row["points"]
    for p in points:
        print(f"  {p.at:8.1f} ms  {p.thread[:16]:<16} {p.what:<13} {p.detail[:60]}")
    print(
        f"  the click at {row['click']:.1f} ms; the page heard frames at "
        + ", ".join(f"{at:.1f}" for at in row["heard"])
    )


def steps(title: str, rows: list[dict[str, float | None]], runs: int) -> None:
    print(title)
    for name, found in medians(rows).items():
        shown = (
            "—" if found is None else f"{found[0]:7.1f} ms" + (f" (in {found[1]})" if found[1] < runs else "")
        )
        print(f"  {name:<34} {shown}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=8, help="cold loads traced")
    parser.add_argument("--demo", default="all", help="the panel docked (/surface DEMO)")
    parser.add_argument("--show", type=int, default=1, help="loads printed in full")
    parser.add_argument(
        "--switch-interval", type=float, help="the server's interpreter switch interval in s (default 0.005)"
    )
    machine_arguments(parser)
    args = parser.parse_args()
    binary, driver_binary = chromium_binary(args.chromium), chromedriver_of(args)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="trace-load-") as work:
        folder = Path(work)
        log = folder / "timing.log"
        os.environ["TASKSURFACE_TIMING_LOG"] = str(log)  # the server inherits it
        if args.switch_interval is not None:
            os.environ["TASKSURFACE_TIMING_SWITCH_INTERVAL"] = str(args.switch_interval)
        with flask_server(folder, app="bench.timed_app") as base:
            for n in range(1 + args.runs):  # the first compiles the templates: not counted
                if args.quiet_gate < 1:
                    wait_quiet(args.quiet_gate, args.quiet_wait_max)
                try:
                    row = one_load(base, args.demo, binary, driver_binary, folder, log)
                except RuntimeError as failure:
                    print(f"load {n}: failed: {failure}", file=sys.stderr, flush=True)
                    continue
                if n == 0:
                    continue
                rows.append(row)
                if len(rows) <= args.show:
                    show(len(rows), row)
    if not rows:
        raise SystemExit("no load completed")
    print(f"{len(rows)} cold loads with the {args.demo!r} demo docked, medians")
    print(f"  {'Submit usable':<34} {statistics.median(r['usable'] for r in rows):7.1f} ms")
    steps("after navigation start", [r["load"] for r in rows], len(rows))
    steps("after the click on Submit", [r["round trip"] for r in rows], len(rows))


if __name__ == "__main__":
    main()
