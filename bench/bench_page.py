"""The chat page's weight and speed in headless Chromium with a cold cache.

    .venv/bin/python bench/bench_page.py [--runs 10]

Prints medians over the runs: bytes as transferred (compressed) and requests by type
for scripts and styles, navigation → dock controls usable, and Submit → the agent's
acknowledgement visible. Targets (issue): at most 33 KB of JS+CSS in at most 6 requests.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import requests
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tasksurface.web.factory import create_app

PLAN_VALUES = {"steps": ["backup", "schema", "switch", "verify"], "constraints": ""}


def _driver(profile: Path) -> webdriver.Chrome:
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1440,1000",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(
        service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options
    )


def _transfers(driver: webdriver.Chrome) -> dict[str, list[int]]:
    """Encoded (as transferred) bytes of each finished request, grouped by resource type."""
    import json

    types: dict[str, str] = {}
    sizes: dict[str, list[int]] = {}
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.responseReceived":
            types[params["requestId"]] = params.get("type", "Other")
        elif message["method"] == "Network.loadingFinished":
            kind = types.get(params["requestId"], "Other")
            sizes.setdefault(kind, []).append(int(params.get("encodedDataLength", 0)))
    return sizes


def one_run(base: str, folder: Path, run: int) -> dict[str, Any]:
    client = requests.Session()
    session_id = client.post(f"{base}/api/sessions", json={}, timeout=10).json()["sessionId"]
    client.post(f"{base}/api/sessions/{session_id}/messages", json={"text": "/surface all"}, timeout=10)
    deadline = time.monotonic() + 10
    while not client.get(f"{base}/api/sessions/{session_id}/task-surface", timeout=10).json()["active"]:
        if time.monotonic() > deadline:
            raise SystemExit("the demo did not open")
        time.sleep(0.02)
    driver = _driver(folder / f"profile-{run}")  # a new profile: a cold cache
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        driver.get(base + "/static/css/app.css")
        for cookie in client.cookies:
            driver.add_cookie({"name": cookie.name, "value": cookie.value or "", "path": "/"})
        driver.get_log("performance")  # drop what the cookie visit cost
        start = time.perf_counter()
        driver.get(f"{base}/sessions/{session_id}")
        wait = WebDriverWait(driver, 20, poll_frequency=0.005)  # fine-grained, or the poll is what we time
        wait.until(
            lambda d: (
                d.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "true"
                and d.find_element(By.CSS_SELECTOR, "button[data-action=submit]").is_enabled()
            )
        )
        usable = time.perf_counter() - start
        sizes = _transfers(driver)
        summary = driver.find_element(By.CSS_SELECTOR, '.field[data-field-id="summary"] input')
        summary.clear()
        summary.send_keys("fine")
        clicked = time.perf_counter()
        driver.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
        wait.until(
            lambda d: any(
                "Thanks, I have your answers" in e.text
                for e in d.find_elements(By.CSS_SELECTOR, ".bubble-agent")
            )
        )
        acknowledged = time.perf_counter() - clicked
    finally:
        driver.quit()
        client.close()
    return {"sizes": sizes, "usable": usable, "acknowledged": acknowledged}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TASKSURFACE_INSTANCE_PATH"] = folder
        app = create_app({"database_url": f"sqlite:///{folder}/page.sqlite3", "secret_key": "bench"})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        try:
            runs = [one_run(base, Path(folder), n) for n in range(args.runs)]
        finally:
            server.shutdown()
            app.extensions["tasksurface"].stop()
    print(f"chat page with the 'all' demo docked, {args.runs} cold-cache runs (medians)")
    for kind in ("Document", "Script", "Stylesheet", "Fetch", "XHR", "Other"):
        counts = [len(r["sizes"].get(kind, [])) for r in runs]
        totals = [sum(r["sizes"].get(kind, [])) for r in runs]
        if any(counts):
            print(
                f"  {kind:<10} requests {statistics.median(counts):4.0f}"
                f"   bytes {statistics.median(totals):8.0f}"
            )
    assets = [sum(r["sizes"].get("Script", [])) + sum(r["sizes"].get("Stylesheet", [])) for r in runs]
    requests_ = [len(r["sizes"].get("Script", [])) + len(r["sizes"].get("Stylesheet", [])) for r in runs]
    print(
        f"  JS+CSS: {statistics.median(assets) / 1024:.1f} KB in {statistics.median(requests_):.0f} requests "
        "(target <= 33 KB in <= 6)"
    )
    print(f"  navigation -> dock usable: {statistics.median(r['usable'] for r in runs) * 1e3:.0f} ms")
    print(
        f"  click Submit -> acknowledgement visible: "
        f"{statistics.median(r['acknowledged'] for r in runs) * 1e3:.0f} ms"
    )


if __name__ == "__main__":
    main()
