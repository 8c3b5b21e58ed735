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

A script injected before any page script (`Page.addScriptToEvaluateOnNewDocument`) takes each
mark on the page's own clock, checking on every DOM mutation and every animation frame, and
wraps `WebSocket` to note when frames arrive. WebDriver only waits on a promise the page resolves
once a mark is taken, so no WebDriver round trip falls inside a measured interval; the click
itself is sent by WebDriver, but its time is read in the page.

The server is `flask --app app run` in a subprocess (a SQLite file in a temporary folder, the
scripted model), as the comparison serves this product, not a server inside this process: the
bench's own Python then shares no interpreter lock with the app. One warm-up run is not counted
(the first request compiles templates). Every run prepares its session over the HTTP API, starts
a fresh Chromium with a fresh profile (a cold cache) and gives it the owner cookie through CDP
`Network.setCookie`, so the measured navigation is the browser's first request. With `--returning`
the browser first opens another of the same person's sessions (untimed), as someone does who
comes back: what every chat page shares is then in its cache, and P1 counts what the measured page
still fetched. Before each run the bench waits (up to `--quiet-wait-max` s) for a second in which
the machine was at most `--quiet-gate` busy, since a shared machine's other work shows in every
millisecond.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import requests
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = Path(__file__).resolve().parents[1]
SUBMIT = "button[data-action=submit]"
ACKNOWLEDGEMENT = "Thanks, I have your answers"

# The comparison's browser: the same flags and window, so layout and hit test agree.
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
)

# Marks on the page's clock (ms since navigation start). Runs before the page's own scripts.
TIMING_JS = r"""
(() => {
  if (window.__bench) return;
  const want = __WANT__;
  const bench = window.__bench = {marks: {}, click: null, sockets: [], frames: [], waiting: {}};
  const marks = bench.marks;
  const take = (name) => {
    if (name in marks) return;
    marks[name] = performance.now();
    (bench.waiting[name] || []).forEach((resolve) => resolve());
    delete bench.waiting[name];
  };
  bench.until = (name) => new Promise((resolve) => {
    if (name in marks) resolve();
    else (bench.waiting[name] = bench.waiting[name] || []).push(resolve);
  });
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.display !== 'none' && style.visibility !== 'hidden';
  };
  const opaque = (el) => {
    let opacity = 1;
    for (let node = el; node && node.nodeType === Node.ELEMENT_NODE; node = node.parentElement) {
      opacity *= parseFloat(getComputedStyle(node).opacity || '1');
    }
    return opacity > 0.99;
  };
  const onTop = (el) => {
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
    const top = document.elementFromPoint(x, y);
    return top !== null && (top === el || el.contains(top));
  };
  const usable = (el) => visible(el) && !el.disabled;
  const hittable = (el) => usable(el) && onTop(el) && opaque(el);
  const textShown = () => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !node.nodeValue.includes(want.text)) continue;
      if (parent.closest(want.within) && visible(parent)) return true;
    }
    return false;
  };
  const check = () => {
    if (!document.body) return;
    const controls = [...document.querySelectorAll(want.control)];
    const one = controls.length === 1;
    // The live flag first: while it is false no layout is forced.
    const live = document.body.dataset.live === 'true';
    if (!('ready' in marks) && one && live && controls.every(usable)) take('ready');
    if (!('hitReady' in marks) && one && live && controls.every(hittable)) take('hitReady');
    if ('clicked' in marks) {
      if (!('controlsGone' in marks) && controls.length === 0) take('controlsGone');
      if (!('nextVisible' in marks) && textShown()) take('nextVisible');
    }
  };
  const everything = {childList: true, subtree: true, attributes: true, characterData: true};
  new MutationObserver(check).observe(document, everything);
  const everyFrame = () => { check(); requestAnimationFrame(everyFrame); };
  requestAnimationFrame(everyFrame);
  addEventListener('click', (event) => {
    const button = event.target && event.target.closest ? event.target.closest('button') : null;
    if (!button || !button.matches(want.control)) return;
    if (bench.click === null) bench.click = {at: performance.now(), eventTime: event.timeStamp};
    take('clicked');
  }, true);
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(...args) {
      super(...args);
      const socket = {created: performance.now(), open: null};
      bench.sockets.push(socket);
      this.addEventListener('open', () => { socket.open = performance.now(); take('socketOpen'); });
      this.addEventListener('message', (event) => {
        const at = performance.now();
        const text = typeof event.data === 'string' ? event.data : '';
        const bytes = new Blob([event.data]).size;
        const answer = 'clicked' in marks && text.includes(want.text);
        bench.frames.push({at, bytes, afterClick: 'clicked' in marks});
        if (answer) take('nextArrived');
      });
    }
  };
})();
"""

AWAIT_MARK_JS = """
const [name, ms, done] = arguments;
const timer = setTimeout(() => done(false), ms);
window.__bench.until(name).then(() => { clearTimeout(timer); done(true); });
"""

COLLECT_JS = """
const nav = performance.getEntriesByType('navigation')[0];
const paint = performance.getEntriesByName('first-contentful-paint')[0];
return {
  resources: performance.getEntriesByType('resource').map((e) => ({
    url: e.name, initiator: e.initiatorType, transfer: e.transferSize, decoded: e.decodedBodySize,
    start: e.startTime, end: e.responseEnd})),
  document: nav ? {transfer: nav.transferSize, responseEnd: nav.responseEnd,
                   domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd} : null,
  fcp: paint ? paint.startTime : null,
  marks: window.__bench.marks, click: window.__bench.click,
  sockets: window.__bench.sockets, frames: window.__bench.frames,
};
"""


def chromium_binary(given: str | None) -> str:
    """The browser itself: a distribution's launcher script adds flags of its own, so skip it."""
    found = given or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        raise SystemExit("no Chromium found; pass --chromium")
    with open(found, "rb") as head:
        is_script = head.read(2) == b"#!"
    behind = Path(found).resolve().parents[1] / "lib" / "chromium" / "chromium"
    return str(behind) if is_script and behind.exists() else found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def flask_server(folder: Path, app: str = "app") -> Iterator[str]:
    """`flask run` of `app` on a fresh SQLite file, ready once `/` answers 200; stopped by its pid."""
    port = free_port()
    env = dict(
        os.environ,
        TASKSURFACE_DATABASE_URL=f"sqlite:///{folder / 'page.sqlite3'}",
        TASKSURFACE_INSTANCE_PATH=str(folder),
        TASKSURFACE_MODEL="scripted",
    )
    for name in ("FLASK_DEBUG", "FLASK_APP", "OPENAI_API_KEY"):
        env.pop(name, None)
    log_path = folder / f"server-{port}.log"
    command = [sys.executable, "-m", "flask", "--app", app, "run", "--host", "127.0.0.1"]
    with open(log_path, "wb") as log:
        server = subprocess.Popen([*command, "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if server.poll() is not None:
                raise SystemExit(f"the server exited:\n{log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(base + "/", timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not answer within 90 s")
            time.sleep(0.01)
        yield base
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)


def machine_busy(seconds: float) -> float | None:
    """Share of all cores busy over the next `seconds` (Linux), or None where it cannot be read."""

    def ticks() -> tuple[int, int]:
        with open("/proc/stat") as stat:
            values = [int(v) for v in stat.readline().split()[1:9]]
        return sum(values) - values[3] - values[4], sum(values)

    try:
        busy0, total0 = ticks()
        time.sleep(seconds)
        busy1, total1 = ticks()
    except OSError:
        return None
    return (busy1 - busy0) / (total1 - total0) if total1 > total0 else None


def wait_quiet(gate: float, longest: float) -> tuple[float, float | None]:
    """Seconds waited and the last second's busy share; gives up after `longest` seconds."""
    start = time.monotonic()
    while True:
        share = machine_busy(1.0)
        if share is None or share <= gate or time.monotonic() - start > longest:
            return time.monotonic() - start, share


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


@contextmanager
def browser(
    binary: str, driver_binary: str, profile: Path, trace_categories: str | None = None
) -> Iterator[webdriver.Chrome]:
    """A cold Chromium with the page's timing script; with `trace_categories`, its performance log
    also carries a trace of those categories (which slows the page: such runs are not timed)."""
    options = Options()
    options.binary_location = binary
    for argument in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(argument)
    # The comparison records the network log too; the events it streams cost the browser a little.
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    if trace_categories:
        options.add_experimental_option("perfLoggingPrefs", {"traceCategories": trace_categories})
    driver = webdriver.Chrome(service=Service(driver_binary), options=options)
    try:
        driver.set_page_load_timeout(60)
        driver.set_script_timeout(40)
        want = {"control": SUBMIT, "text": ACKNOWLEDGEMENT, "within": ".bubble-agent"}
        source = TIMING_JS.replace("__WANT__", json.dumps(want))
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
        yield driver
    finally:
        process = driver.service.process
        with suppress(WebDriverException):
            driver.quit()
        if process is not None and process.poll() is None:
            process.kill()
        shutil.rmtree(profile, ignore_errors=True)


def await_mark(driver: webdriver.Chrome, name: str, seconds: float = 30) -> bool:
    """Blocks on the page's promise for the mark; the page's clock, not this call, times it."""
    try:
        return bool(driver.execute_async_script(AWAIT_MARK_JS, name, int(seconds * 1000)))
    except TimeoutException:
        return False


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


def act_as(driver: webdriver.Chrome, client: requests.Session, base: str) -> None:
    """The browser carries the client's cookies (the session's owner) without visiting a page
    first, so the measured navigation is its first request and its cache stays cold."""
    for cookie in client.cookies:
        driver.execute_cdp_cmd(
            "Network.setCookie",
            {
                "name": cookie.name,
                "value": cookie.value or "",
                "url": base + "/",
                "httpOnly": True,
                "sameSite": "Lax",
            },
        )


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


def machine_arguments(parser: argparse.ArgumentParser) -> None:
    """The quiet-machine gate and the browser to use, as every page bench takes them."""
    parser.add_argument("--quiet-gate", type=float, default=0.10, help="busy share to wait under (1 = off)")
    parser.add_argument("--quiet-wait-max", type=float, default=30, help="longest wait for a quiet second")
    parser.add_argument("--chromium", help="the browser binary (default: chromium on PATH)")
    parser.add_argument("--chromedriver", default=shutil.which("chromedriver"))


def chromedriver_of(args: argparse.Namespace) -> str:
    if not args.chromedriver:
        raise SystemExit("no chromedriver found; pass --chromedriver")
    found: str = args.chromedriver
    return found


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
