"""Screenshots of the chat page with a demo panel docked, for looking at UI changes.

    .venv/bin/python scripts/screenshots.py [--demo all] [--out screenshots/] [--ask "Question? | yes | no"]

Starts the app on a free 127.0.0.1 port with a throwaway SQLite database, docks the
demo with the scripted agent, and saves PNGs from headless Chromium at 1440 px (light)
and 360 px (dark); `--all` takes both widths in both themes, `--expanded` the dock at full
height, `--keyboard <field id>` a 390x844 phone with its on-screen keyboard open. With
`--ask`, the agent also asks that question in the same reply, so the shots show the composer
takeover over the (hidden) dock. `--page /sessions/s_missing0000` shoots that address instead
of the demo (e.g. a refusal page). Nothing here is used by the app or the tests.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tasksurface.web.factory import create_app

SHOTS = [("1440-light", 1440, 1000, "light"), ("360-dark", 360, 800, "dark")]
ALL_SHOTS = [
    ("1440-light", 1440, 1000, "light"),
    ("1440-dark", 1440, 1000, "dark"),
    ("360-light", 360, 800, "light"),
    ("360-dark", 360, 800, "dark"),
]
KEYBOARD = ("390-keyboard", 390, 508, "dark")
"""390×844 with an on-screen keyboard of 336 px: the window the page gets is 390×508."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--demo", default="all")
    parser.add_argument("--out", default="screenshots")
    parser.add_argument("--lang", default="en", choices=("en", "zh"), help="product chrome language")
    parser.add_argument("--ask", default="", help="a question the agent asks after showing the panel")
    parser.add_argument("--tasks", action="store_true", help="run background tasks first, so the tray shows")
    parser.add_argument("--all", action="store_true", help="1440 and 360 px, each in both themes")
    parser.add_argument("--expanded", action="store_true", help="also the dock at full height, 360 px")
    parser.add_argument(
        "--keyboard", default="", help="also 390x844 with an on-screen keyboard, this field focused"
    )
    parser.add_argument("--page", default="", help="shoot this path instead of the docked demo")
    args = parser.parse_args()
    command = f"/surface {args.demo}" + (f"\n/ask {args.ask}" if args.ask else "")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TASKSURFACE_INSTANCE_PATH"] = folder
        app = create_app({"database_url": f"sqlite:///{folder}/shots.sqlite3", "secret_key": "screenshots"})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        client = requests.Session()  # its identity cookie is handed to the browser below
        client.cookies.set("lang", args.lang)
        try:
            if args.page:
                _shoot_page(args, base, out, Path(folder), client)
                return
            session_id = client.post(f"{base}/api/sessions", json={}, timeout=10).json()["sessionId"]
            if args.tasks:
                _start_tasks(client, f"{base}/api/sessions/{session_id}")
            client.post(
                f"{base}/api/sessions/{session_id}/messages",
                json={"text": command},
                timeout=10,
            )
            deadline = time.monotonic() + 10
            while not _ready(client, f"{base}/api/sessions/{session_id}", bool(args.ask)):
                if time.monotonic() > deadline:
                    raise SystemExit("the demo panel did not open")
                time.sleep(0.05)
            shots = [(*shot, "") for shot in (ALL_SHOTS if args.all else SHOTS)]
            if args.expanded:
                shots.append(("360-expanded", 360, 800, "dark", "expand"))
            if args.keyboard:
                shots.append((*KEYBOARD, "focus:" + args.keyboard))
            for name, width, height, scheme, action in shots:
                suffix = ("-ask" if args.ask else "") + ("-tasks" if args.tasks else "")
                suffix += "" if args.lang == "en" else "-" + args.lang
                path = out / f"{args.demo}-{name}{suffix}.png"
                shoot(
                    f"{base}/sessions/{session_id}",
                    path,
                    width,
                    height,
                    scheme,
                    Path(folder),
                    client.cookies,
                    action,
                )
                print(path)
        finally:
            client.close()
            server.shutdown()
            app.extensions["tasksurface"].stop()


def _shoot_page(
    args: argparse.Namespace, base: str, out: Path, folder: Path, client: requests.Session
) -> None:
    slug = "".join(c if c.isalnum() else "-" for c in args.page.split("?")[0]).strip("-") or "index"
    for name, width, height, scheme in ALL_SHOTS if args.all else SHOTS:
        path = out / f"page-{slug}-{name}{'' if args.lang == 'en' else '-' + args.lang}.png"
        shoot(base + args.page, path, width, height, scheme, folder, client.cookies)
        print(path)


def _start_tasks(client: requests.Session, session_url: str) -> None:
    """A finished task and a running one that reports progress, for the tray."""
    for text in ("/run python-info", '/run count {"n": 400, "pause": 2}'):
        client.post(f"{session_url}/messages", json={"text": text}, timeout=10)
        deadline = time.monotonic() + 10
        while len(client.get(f"{session_url}/tasks", timeout=10).json()["tasks"]) < 1 + text.count("count"):
            if time.monotonic() > deadline:
                raise SystemExit("the background task did not start")
            time.sleep(0.05)
    deadline = time.monotonic() + 10
    while not any(t["progress"] for t in client.get(f"{session_url}/tasks", timeout=10).json()["tasks"]):
        if time.monotonic() > deadline:
            raise SystemExit("the background task reported no progress")
        time.sleep(0.05)


def _ready(client: requests.Session, url: str, question: bool) -> bool:
    state = client.get(url, timeout=10).json()
    return bool(state["taskSurface"]["active"]) and (not question or bool(state["question"]))


def shoot(
    url: str,
    path: Path,
    width: int,
    height: int,
    scheme: str,
    folder: Path,
    cookies: requests.cookies.RequestsCookieJar,
    action: str = "",
) -> None:
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
        f"--window-size={width},{height}",
        f"--user-data-dir={folder / ('profile-' + path.stem)}",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(
        service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options
    )
    try:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )
        driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
        )
        driver.get(url.split("/sessions/")[0] + "/static/css/app.css")
        for cookie in cookies:
            driver.add_cookie({"name": cookie.name, "value": cookie.value or "", "path": "/"})
        driver.get(url)
        time.sleep(1.0)
        if action == "expand":
            driver.execute_script("document.querySelector('.dock-expand').click()")
        elif action.startswith("focus:"):
            driver.execute_script(
                "document.querySelector('.dock-expand').click();"
                "document.getElementById(arguments[0]).focus();",
                action.removeprefix("focus:"),
            )
        time.sleep(0.5)
        driver.save_screenshot(str(path))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
