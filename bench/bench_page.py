"""The chat page's weight and speed in headless Chromium, timed inside the page.

    .venv/bin/python bench/bench_page.py [--runs 10] [--demo all] [--returning] [--json results.json]

The figures are defined as in the side-by-side comparison with the peer framework (issue 14),
so they can stand beside its table:

- P1: JS+CSS bytes as transferred and their requests (same origin, from the Performance API,
  read 0.5 s after the page is usable), and all requests from navigation to usable;
- P2: navigation start → "hit-ready": the one Submit button shown and enabled,
  `body[data-live=true]`, `elementFromPoint` at its centre is the button, effective opacity 1
  (also shown without the hit test);
- P3: the click on Submit (a capture-phase listener's `performance.now()`) → the agent's
  acknowledgement visible as text inside `.bubble-agent`.

The browser, its timing script, the server and the quiet-machine gate are `cold_browser.py`'s:
marks are taken on the page's own clock and WebDriver only waits on them, so no WebDriver round
trip falls inside a measured interval (the click itself is sent by WebDriver, but its time is read
in the page). One warm-up run is not counted (the first request compiles templates). Every run
prepares its session over the HTTP API and opens a fresh profile (a cold cache) carrying the owner
cookie, so the measured navigation is the browser's first request. With `--returning` the browser
first opens another of the same person's sessions (untimed), as someone does who comes back: what
every chat page shares is then in its cache, and P1 counts what the measured page still fetched.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import requests
from cold_browser import (
    CHROMIUM_FLAGS,
    COLLECT_JS,
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
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By


def prepare(base: str, demo: str) -> tuple[requests.Session, str]:
    """A session with the demo panel docked, made over the API so the browser has fetched nothing."""
    client = requests.Session()
    session_id = client.post(f"{base}/api/sessions", json={}, timeout=10).json()["sessionId"]
    client.post(f"{base}/api/sessions/{session_id}/messages", json={"text": f"/surface {demo}"}, timeout=10)
    deadline = time.monotonic() + 10
    while not client.get(f"{base}/api/sessions/{session_id}/task-surface", timeout=10).json()["active"]:
        if time.monotonic() > deadline:
            raise SystemExit(f"the {demo!r} demo did not open")
        time.sleep(0.01)
    return client, session_id


def kind_of(url: str, initiator: str) -> str:
    path = url.split("?")[0]
    if path.endswith((".js", ".mjs")) or initiator == "script":
        return "js"
    if path.endswith(".css") or (initiator == "link" and "css" in path):
        return "css"
    return initiator or "other"


def network_js_css_bytes(driver: webdriver.Chrome, base: str) -> int:
    """The page's scripts and stylesheets as the network log counts them: a check on the Performance API.

    The log also holds the browser's own start page (chrome:// scripts), so only the server's count.
    """
    kinds: dict[str, str] = {}
    total = 0
    for entry in driver.get_log("performance"):  # type: ignore[no-untyped-call]
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.responseReceived" and params["response"]["url"].startswith(base):
            kinds[params["requestId"]] = params.get("type", "")
        elif message["method"] == "Network.loadingFinished" and kinds.get(params["requestId"]) in (
            "Script",
            "Stylesheet",
        ):
            total += int(params.get("encodedDataLength", 0))
    return total


def one_run(
    base: str, demo: str, binary: str, driver_binary: str, profiles: Path, returning: bool = False
) -> dict[str, Any]:
    """`returning`: the browser opened another of the person's sessions first (untimed), so its
    cache holds what every chat page shares; otherwise the measured page is its first request."""
    client, session_id = prepare(base, demo)
    profile = Path(tempfile.mkdtemp(prefix="profile-", dir=profiles))  # a cold cache
    try:
        with browser(binary, driver_binary, profile) as driver:
            act_as(driver, client, base)
            if returning:
                earlier = client.post(f"{base}/api/sessions", json={}, timeout=10).json()["sessionId"]
                driver.get(f"{base}/sessions/{earlier}")
                time.sleep(0.5)  # its deferred files arrive and are kept
            driver.get(f"{base}/sessions/{session_id}")
            if not await_mark(driver, "hitReady"):
                raise RuntimeError("Submit never became usable")
            time.sleep(0.5)  # late requests settle before the byte count
            loaded: dict[str, Any] = driver.execute_script(COLLECT_JS)
            driver.find_element(By.CSS_SELECTOR, SUBMIT).click()
            if not await_mark(driver, "nextVisible"):
                raise RuntimeError("the acknowledgement never showed")
            time.sleep(0.3)  # the dock's removal, for the diagnostic marks
            after: dict[str, Any] = driver.execute_script(COLLECT_JS)
            network_bytes = network_js_css_bytes(driver, base)
    finally:
        client.close()
    return measures(loaded, after, base, network_bytes)


def measures(loaded: dict[str, Any], after: dict[str, Any], base: str, network_bytes: int) -> dict[str, Any]:
    marks, click = after["marks"], after["click"]
    hit_ready = loaded["marks"]["hitReady"]
    own = [r for r in loaded["resources"] if r["url"].startswith(base)]
    assets = [r for r in own if kind_of(r["url"], r["initiator"]) in ("js", "css")]
    after_click = [f for f in after["frames"] if f["afterClick"] and f["at"] <= marks["nextVisible"]]

    def since_click(name: str) -> float | None:
        return marks[name] - click["at"] if name in marks else None

    return {
        "P1_js_css_bytes": sum(r["transfer"] for r in assets),
        "P1_js_css_requests": len(assets),
        "P1_js_css_decoded_bytes": sum(r["decoded"] for r in assets),
        "P1_js_css_bytes_network_log": network_bytes,
        "P1_requests_nav_to_ready": 1 + sum(1 for r in loaded["resources"] if r["start"] <= hit_ready),
        "P2_hit_ready_ms": hit_ready,
        "P2_ready_ms": loaded["marks"]["ready"],
        "P3_click_to_next_visible_ms": marks["nextVisible"] - click["at"],
        "P3_from_event_time_ms": marks["nextVisible"] - click["eventTime"],
        "click_to_frame_with_answer_ms": since_click("nextArrived"),
        "click_to_dock_gone_ms": since_click("controlsGone"),
        "frames_in_click_to_visible": len(after_click),
        "socket_open_ms": loaded["marks"].get("socketOpen"),
        "first_contentful_paint_ms": loaded["fcp"],
        "dom_content_loaded_ms": (loaded["document"] or {}).get("domContentLoaded"),
        "other_requests": sorted(
            f"{kind_of(r['url'], r['initiator'])} {r['url'].removeprefix(base)}"
            for r in own
            if r not in assets
        ),
    }


def spread(values: Sequence[float | None]) -> dict[str, float] | None:
    present = [v for v in values if v is not None]
    if not present:
        return None
    return {
        "n": len(present),
        "median": round(statistics.median(present), 2),
        "min": round(min(present), 2),
        "max": round(max(present), 2),
    }


def summarize(runs: Sequence[dict[str, Any]]) -> dict[str, dict[str, float] | None]:
    numbers = [k for k, v in runs[0].items() if isinstance(v, int | float) or v is None] if runs else []
    return {k: spread([r[k] for r in runs]) for k in numbers}


def shown(figure: dict[str, float] | None) -> str:
    if figure is None:
        return "n/a"
    whole = all(float(figure[k]).is_integer() for k in ("median", "min", "max"))
    places = 0 if whole or figure["median"] >= 100 else 1
    return " ".join(
        (f"{figure['median']:,.{places}f}", f"[{figure['min']:,.{places}f}–{figure['max']:,.{places}f}]")
    )


ROWS = (
    ("P1 JS+CSS transferred (bytes)", "P1_js_css_bytes"),
    ("P1 JS+CSS requests", "P1_js_css_requests"),
    ("   (network log's count, bytes)", "P1_js_css_bytes_network_log"),
    ("P1 requests, navigation → usable", "P1_requests_nav_to_ready"),
    ("P2 navigation → Submit usable (ms)", "P2_hit_ready_ms"),
    ("   (without the hit test) (ms)", "P2_ready_ms"),
    ("P3 click → acknowledgement shown (ms)", "P3_click_to_next_visible_ms"),
    ("   click → its socket frame (ms)", "click_to_frame_with_answer_ms"),
    ("   click → dock gone (ms)", "click_to_dock_gone_ms"),
    ("socket open (ms after navigation)", "socket_open_ms"),
    ("first contentful paint (ms)", "first_contentful_paint_ms"),
)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=10, help="cold runs measured")
    parser.add_argument("--warmup", type=int, default=1, help="runs first, not counted")
    parser.add_argument("--demo", default="all", help="the panel docked (/surface DEMO)")
    parser.add_argument("--json", metavar="PATH", help="also write every run and the summary here")
    parser.add_argument(
        "--returning", action="store_true", help="the browser opened another session first (a warm cache)"
    )
    machine_arguments(parser)
    args = parser.parse_args()
    binary, driver = chromium_binary(args.chromium), chromedriver_of(args)
    runs: list[dict[str, Any]] = []
    failures = 0
    with tempfile.TemporaryDirectory(prefix="bench-page-") as work:
        folder = Path(work)
        with flask_server(folder) as base:
            for n in range(args.warmup + args.runs):
                waited, busy = (
                    wait_quiet(args.quiet_gate, args.quiet_wait_max) if args.quiet_gate < 1 else (0, None)
                )
                try:
                    row = one_run(base, args.demo, binary, driver, folder, args.returning)
                except (RuntimeError, WebDriverException) as failure:
                    failures += 1
                    print(f"run {n + 1 - args.warmup}: failed: {failure}", file=sys.stderr, flush=True)
                    continue
                if n < args.warmup:
                    continue
                row.update(quiet_wait_s=round(waited, 1), busy_before=busy, load_1m_after=os.getloadavg()[0])
                runs.append(row)
                print(
                    f"run {len(runs)}: {row['P1_js_css_bytes']} B in {row['P1_js_css_requests']} requests, "
                    f"P2 {row['P2_hit_ready_ms']:.1f} ms, P3 {row['P3_click_to_next_visible_ms']:.1f} ms",
                    file=sys.stderr,
                    flush=True,
                )
    summary = summarize(runs)
    print(
        f"chat page with the {args.demo!r} demo docked: {len(runs)} "
        + ("runs of a returning visitor" if args.returning else "cold runs")
        + ", median [min–max]"
        + (f" ({failures} failed)" if failures else "")
    )
    for label, key in ROWS:
        print(f"  {label:<40} {shown(summary.get(key)):>24}")
    print("  JS+CSS target: at most 33 KB in at most 6 requests")
    if runs and runs[0]["other_requests"]:
        print("  other requests: " + ", ".join(runs[0]["other_requests"]))
    if args.json:
        version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
        report = {"demo": args.demo, "returning": args.returning, "chromium": version}
        report.update(flags=CHROMIUM_FLAGS, failed=failures)
        report["summary"] = summary
        Path(args.json).write_text(json.dumps({**report, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
