"""The chat page's socket is opened by a script in its head while the page is parsed; the page
script takes it over, so a page holds one socket and hears every push on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from .pages import open_panel

pytestmark = pytest.mark.browser

# Counts the sockets a page makes, and says which script made each (before or after the page bus).
COUNT_SOCKETS = """
window.__sockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    window.__sockets.push({ url: String(args[0]), afterBundle: Boolean(window.TaskSurfacePage) });
  }
};
"""


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """How the page connects does not depend on the database; SQLite keeps these quick."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def test_a_page_holds_one_socket_and_hears_pushes_on_it(browser: WebDriver, live_server: LiveServer) -> None:
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_SOCKETS})
    api, sid, page = open_panel(browser, live_server.url, "fields")
    sockets = browser.execute_script("return window.__sockets")
    assert len(sockets) == 1 and f"/ws/sessions/{sid}?after=" in sockets[0]["url"]
    # It names the row the page draws open, so a panel closed before it opened is drawn again.
    row = next(e["seq"] for e in reversed(api.events(sid)) if e["kind"] == "tool/result")
    assert sockets[0]["url"].endswith(f"&open={row}")
    # Opened by the head's inline script (the policy allowed it), before the page bundle ran; the
    # page bundle took it over, so nothing is left waiting.
    assert sockets[0]["afterBundle"] is False
    assert browser.execute_script("return window.TaskSurfaceSocket") is None
    api.send(sid, "hello there")
    page.wait_for_agent_text("You said: hello there")
    assert len(browser.execute_script("return window.__sockets")) == 1
    api.http.close()
