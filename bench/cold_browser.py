"""A cold Chromium against a page served by `flask run`, timed inside the page: what every page
bench here shares (`bench_page.py`, `bench_page_floor.py`).

The browser has the comparison's flags and window, and a fresh profile each time (a cold cache).
A script injected before any page script (`Page.addScriptToEvaluateOnNewDocument`) takes each
mark on the page's own clock, checking on every DOM mutation and every animation frame, and wraps
`WebSocket` to note when frames arrive. WebDriver only waits on a promise the page resolves once a
mark is taken, so no WebDriver round trip falls inside a measured interval. The server runs in a
subprocess, so the bench shares no interpreter lock with the app; before each run a bench may wait
for a quiet second, since a shared machine's other work shows in every millisecond.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TypeVar

import requests
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")
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
def flask_server(folder: Path, app: str = "app", root: Path = ROOT) -> Iterator[str]:
    """`flask run` of `app` in the checkout at `root` (this one by default) on a fresh SQLite file,
    ready once `/` answers 200; stopped by its pid."""
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
        server = subprocess.Popen([*command, "--port", str(port)], cwd=root, env=env, stdout=log, stderr=log)
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


def alternated_pairs(
    sides: tuple[str, str], pairs: int, warmup: int, load: Callable[[str], T], args: argparse.Namespace
) -> Iterator[dict[str, T]]:
    """`warmup + pairs` pairs of loads, one of each side in an order swapped every pair, each after
    the same wait for a quiet machine (`machine_arguments`), so the two loads of a pair share the
    machine's moment. A pair with a failed load is dropped whole; the warm-up pairs are not given."""
    for n in range(warmup + pairs):
        pair: dict[str, T] = {}
        for side in sides if n % 2 == 0 else sides[::-1]:
            if args.quiet_gate < 1:
                wait_quiet(args.quiet_gate, args.quiet_wait_max)
            try:
                pair[side] = load(side)
            except (RuntimeError, WebDriverException) as failure:
                print(f"pair {n + 1}, {side}: failed: {failure}", file=sys.stderr, flush=True)
        if n >= warmup and len(pair) == 2:
            yield pair


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
