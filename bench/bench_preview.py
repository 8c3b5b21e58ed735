"""How soon a panel shows while the agent writes it, timed in the page itself (headless Chromium).

    .venv/bin/python bench/bench_preview.py [--runs 10] [--demo all] [--pause 0.02]

The scripted agent streams `/surface <demo>` with the pause `serve.sh` uses. The server notes
the wall-clock time of the call's first streamed piece; the page notes, with a
MutationObserver and the next animation frame (`performance.timeOrigin + performance.now()`,
the same clock on one machine), when the preview is first painted and when the real dock is
painted with its submit button enabled. No WebDriver round trip falls inside either interval.
Prints medians: first piece → first visible preview, and first piece → usable dock.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tasksurface.agent.ports import CallSink, ModelReply, StreamingModelBackend, TextSink, ToolDefinition
from tasksurface.domain.events import SessionEvent
from tasksurface.web.factory import create_app

NAVIGATING = (StaleElementReferenceException, NoSuchElementException)
WATCH = """
window.marks = {};
const now = () => performance.timeOrigin + performance.now();
const painted = (name) => {
  if (window.marks[name] === undefined) {
    window.marks[name] = null;
    requestAnimationFrame(() => (window.marks[name] = now()));
  }
};
new MutationObserver(() => {
  const preview = document.getElementById("panel-preview");
  if (preview && preview.offsetHeight > 0) painted("preview");
  const submit = document.querySelector("#task-surface-dock button[data-action=submit]");
  if (submit && !submit.disabled) painted("dock");
}).observe(document.getElementById("input-dock"), { childList: true, subtree: true });
"""


class FirstPieceClock:
    """The app's backend, noting when each reply's first tool-call piece arrives."""

    def __init__(self, inner: StreamingModelBackend) -> None:
        self.inner = inner
        self.first_pieces: list[float] = []
        self.last_pieces: list[float] = []

    def respond(self, history: Sequence[SessionEvent], tools: Sequence[ToolDefinition]) -> ModelReply:
        return self.inner.respond(history, tools)

    def respond_streaming(
        self,
        history: Sequence[SessionEvent],
        tools: Sequence[ToolDefinition],
        on_text: TextSink,
        on_call: CallSink | None = None,
    ) -> ModelReply:
        started = False

        def noted(index: int, name: str, piece: str) -> None:
            nonlocal started
            at = time.time() * 1000
            if not started:
                self.first_pieces.append(at)
                started = True
            if on_call is not None:
                on_call(index, name, piece)
            self.last_pieces[-1:] = [at]

        self.last_pieces.append(0.0)
        return self.inner.respond_streaming(history, tools, on_text, noted)


def _driver(profile: Path) -> webdriver.Chrome:
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(argument)
    options.add_argument(f"--user-data-dir={profile}")
    return webdriver.Chrome(
        service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options
    )


def one_run(driver: webdriver.Chrome, base: str, clock: FirstPieceClock, demo: str) -> dict[str, float]:
    driver.get(base + "/")
    driver.find_element(By.CSS_SELECTOR, ".new-session button[type=submit]").click()
    # The page is replaced while it navigates: a wait simply asks again.
    wait = WebDriverWait(driver, 20, poll_frequency=0.02, ignored_exceptions=NAVIGATING)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connection") == "open")
    driver.execute_script(WATCH)
    before = len(clock.first_pieces)
    composer = driver.find_element(By.ID, "composer-text")
    composer.send_keys(f"/surface {demo}")
    composer.send_keys(Keys.ENTER)
    marks: dict[str, Any] = wait.until(
        lambda d: (m := d.execute_script("return window.marks")) and m.get("dock") and m
    )
    first = clock.first_pieces[before]
    return {
        "preview": float(marks["preview"]) - first if marks.get("preview") else float("nan"),
        "dock": float(marks["dock"]) - first,
        "stream": clock.last_pieces[before] - first,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--demo", default="all")
    parser.add_argument("--pause", type=float, default=0.02, help="seconds between pieces (serve.sh: 0.02)")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TASKSURFACE_INSTANCE_PATH"] = folder
        config = {
            "database_url": f"sqlite:///{folder}/preview.sqlite3",
            "secret_key": "bench",
            "scripted_pause": args.pause,
        }
        app = create_app(config)
        runner = app.extensions["tasksurface"].runner
        clock = FirstPieceClock(runner.backend)
        runner.backend = clock
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        driver = _driver(Path(folder) / "profile")
        try:
            one_run(driver, base, clock, args.demo)  # warm up: templates, bundle, first socket
            runs = [one_run(driver, base, clock, args.demo) for _ in range(args.runs)]
        finally:
            driver.quit()
            server.shutdown()
            app.extensions["tasksurface"].stop()
    print(f"/surface {args.demo}, pieces {args.pause * 1000:.0f} ms apart, {args.runs} runs (medians)")
    print(f"  the call streams for:                 {statistics.median(r['stream'] for r in runs):6.0f} ms")
    print(f"  first piece -> first visible preview: {statistics.median(r['preview'] for r in runs):6.0f} ms")
    print(f"  first piece -> usable dock:           {statistics.median(r['dock'] for r in runs):6.0f} ms")


if __name__ == "__main__":
    main()
