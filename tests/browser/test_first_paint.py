"""The chat page's first frame is drawn once its script has the controls: what a person sees first
already takes input, and the page is laid out once, not once before its script and again after.
Nor is it restyled whole before that frame: the first change of the viewport (its scrollbar
appearing) comes between the first layout and the first frame."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from .pages import ChatPage, owned_panel, wait_until

pytestmark = pytest.mark.browser

# When the page script set `body[data-live]`, on the page's clock (the paint entries' clock).
NOTE_LIVE = """
window.__liveAt = null;
new MutationObserver(() => {
  if (window.__liveAt === null && document.body && document.body.dataset.live === "true") {
    window.__liveAt = performance.now();
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-live"] });
"""
FIRST_PAINT = "const e = performance.getEntriesByName('first-paint')[0]; return e ? e.startTime : null;"
# Each change of the visible viewport, and each write to the root element's inline style (a
# property set there restyles every element of the page).
NOTE_VIEWPORT = """
window.__viewport = [];
window.__rootStyle = [];
window.visualViewport.addEventListener("resize", () => window.__viewport.push(window.visualViewport.height));
new MutationObserver((changes) => changes.forEach((change) => {
  const root = document.documentElement;
  if (change.target === root) window.__rootStyle.push(root.getAttribute("style"));
})).observe(document, { attributes: true, subtree: true, attributeFilter: ["style"] });
"""
SLOW_LINK = {"offline": False, "latency": 20, "downloadThroughput": 48 * 1024, "uploadThroughput": -1}
"""Slow enough that the stylesheet and the parsed page are ready well before the page script."""


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """When the page paints does not depend on the database; SQLite keeps this quick."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def test_nothing_is_painted_before_the_page_script_has_the_controls(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, session_id = owned_panel(browser, live_server.url, "all")
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NOTE_LIVE})
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", SLOW_LINK)
    browser.get(f"{live_server.url}/sessions/{session_id}")
    first_paint = wait_until(browser, lambda d: d.execute_script(FIRST_PAINT))
    live_at = browser.execute_script("return window.__liveAt")
    assert live_at is not None and first_paint >= live_at, (first_paint, live_at)
    api.http.close()


def test_a_change_of_the_viewport_restyles_only_the_expanded_dock(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, session_id = owned_panel(browser, live_server.url, "all")
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NOTE_VIEWPORT})
    ChatPage(browser, live_server.url).open(session_id)
    browser.set_window_size(1280, 700)  # as an on-screen keyboard or a browser's bar would
    wait_until(browser, lambda d: d.execute_script("return window.__viewport.length"))
    assert browser.execute_script("return window.__rootStyle") == []
    # Expanded, the dock takes the height left visible, and follows it.
    browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .dock-expand").click()
    visible_height = "return getComputedStyle(document.getElementById('input-dock')).height"
    inner_height = "return window.visualViewport.height + 'px'"
    wait_until(browser, lambda d: d.execute_script(visible_height) == d.execute_script(inner_height))
    browser.set_window_size(1280, 600)
    wait_until(browser, lambda d: d.execute_script(visible_height) == d.execute_script(inner_height))
    assert browser.execute_script("return window.__rootStyle") == []
    api.http.close()
