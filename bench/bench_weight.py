"""What the chat page's scripts and styles weigh as sent (compressed), and what each workspace adds.

    .venv/bin/python bench/bench_weight.py

For the chat page with a version 1 panel docked and with each workspace demo docked, fetches
every stylesheet and script the page loads (and the workspace bundle it loads on demand) with
`Accept-Encoding: gzip`, as a browser would, and prints requests and bytes. Budget: the chat
page without a workspace stays within 33 KB of compressed JS+CSS in at most 6 requests.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tasksurface.web.factory import create_app

BUDGET_BYTES = 33 * 1024
BUDGET_REQUESTS = 6
DEMOS = ("all", "inputs", "approve", "compare-cards", "dashboard", "itinerary")


def assets(html: str) -> list[str]:
    found = re.findall(r'<script src="([^"]+)"', html) + re.findall(
        r'<link rel="stylesheet" href="([^"]+)"', html
    )
    if re.search(r"data-workspace=", html):  # workspace_loader.js fetches these once a workspace shows
        found += re.findall(r'data-workspaces-(?:js|css)="([^"]+)"', html)
    return sorted(set(found))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TASKSURFACE_INSTANCE_PATH"] = folder
        app = create_app({"database_url": f"sqlite:///{folder}/weight.sqlite3", "secret_key": "bench"})
        client = app.test_client()
        rows = []
        try:
            for demo in DEMOS:
                sid = client.post("/api/sessions", json={}).get_json()["sessionId"]
                client.post(f"/api/sessions/{sid}/messages", json={"text": f"/surface {demo}"})
                deadline = time.monotonic() + 10
                while not client.get(f"/api/sessions/{sid}/task-surface").get_json()["active"]:
                    if time.monotonic() > deadline:
                        raise SystemExit(f"the {demo} demo did not open")
                    time.sleep(0.02)
                html = client.get(f"/sessions/{sid}").get_data(as_text=True)
                sizes = {}
                for url in assets(html):
                    response = client.get(url, headers={"Accept-Encoding": "gzip"})
                    assert response.status_code == 200, url
                    sizes[url.split("/")[-1]] = len(response.get_data())
                rows.append((demo, sizes))
        finally:
            app.extensions["tasksurface"].stop()
    base = sum(rows[0][1].values())
    print(f"{'page':<28}{'requests':>9}{'bytes':>9}{'vs all':>9}")
    for demo, sizes in rows:
        total = sum(sizes.values())
        print(f"chat page + {demo:<16}{len(sizes):>9}{total:>9}{total - base:>+9}")
    base_requests = len(rows[0][1])
    verdict = "within" if base <= BUDGET_BYTES and base_requests <= BUDGET_REQUESTS else "OVER"
    print(
        f"without a workspace: {base} bytes in {base_requests} requests, {verdict} the budget "
        f"({BUDGET_BYTES} bytes, {BUDGET_REQUESTS} requests)"
    )
    for name, size in sorted(rows[0][1].items()):
        print(f"  {name}: {size}")


if __name__ == "__main__":
    main()
