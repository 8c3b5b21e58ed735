"""In Chromium: a panel shows read-only while the agent writes it, then the real dock replaces it."""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tasksurface.backends.demos import DEMOS

from ..conftest import LiveServer
from .pages import ChatPage, wait_until
from .test_accessibility import _no_serious_violation

pytestmark = pytest.mark.browser

# Every change of the page, as the page itself sees it: no polling can miss a short-lived preview.
WATCH = """
const CONTROLS = "input, button, select, textarea, a[href], [tabindex]:not(.dock-body)";
window.previewLog = [];
const note = () => {
  const p = document.getElementById("panel-preview");
  const slot = document.getElementById("preview-slot");
  window.previewLog.push({
    preview: Boolean(p),
    visible: Boolean(p && p.offsetHeight > 0),
    controls: p ? p.querySelectorAll(CONTROLS).length : 0,
    busy: p ? p.getAttribute("aria-busy") : null,
    live: slot.getAttribute("aria-live"),
    role: slot.getAttribute("role"),
    title: p ? p.querySelector("h2").textContent : null,
    dock: Boolean(document.getElementById("task-surface-dock")),
  });
};
new MutationObserver(note).observe(document.getElementById("input-dock"), { childList: true, subtree: true });
"""


@pytest.fixture
def app_config(database_url: str) -> dict[str, Any]:
    return {"database_url": database_url, "secret_key": "test-secret-key", "scripted_pause": 0.03}


def notes(driver: WebDriver) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = driver.execute_script("return window.previewLog")
    return found


def test_the_preview_grows_read_only_and_the_real_dock_replaces_it(
    browser: WebDriver, live_server: LiveServer
) -> None:
    page = ChatPage(browser, live_server.url)
    page.start_session()
    browser.execute_script(WATCH)
    page.say("/surface all")
    page.dock()
    wait_until(browser, lambda d: not d.find_elements(By.ID, "panel-preview"))
    seen = notes(browser)
    shown = [n for n in seen if n["preview"]]
    assert shown, seen
    assert all(n["visible"] and n["controls"] == 0 and n["busy"] == "true" for n in shown)
    assert {(n["live"], n["role"]) for n in seen} == {("polite", "status")}
    assert shown[0]["title"] == DEMOS["all"]["title"] and not shown[0]["dock"]
    assert not any(n["preview"] and n["dock"] for n in seen)  # replaced, never both at once
    assert seen[-1]["dock"] and not seen[-1]["preview"]


def test_a_refused_call_leaves_no_preview_and_shows_its_refusal(
    browser: WebDriver, live_server: LiveServer
) -> None:
    model = {**DEMOS["compare"], "fields": [{"kind": "slider", "id": "x", "label": "Level"}] * 3}
    page = ChatPage(browser, live_server.url)
    page.start_session()
    browser.execute_script(WATCH)
    page.say("/tool show_task_surface " + json.dumps({"model": model}))
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".tool-note.tool-error"))
    page.wait_for_agent_text("failed")
    assert any(n["preview"] for n in notes(browser))
    assert not browser.find_elements(By.ID, "panel-preview")
    assert not browser.find_elements(By.ID, "task-surface-dock")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_preview_has_no_serious_violation(browser: WebDriver, live_server: LiveServer, scheme: str) -> None:
    page = ChatPage(browser, live_server.url)
    page.start_session()
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )
    # A phone's width: the preview outgrows its height and scrolls, as a long panel does.
    metrics = {"width": 360, "height": 600, "deviceScaleFactor": 1, "mobile": True}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    # Hold a grown preview still (its second section's table is in): from then on the page
    # stops listening, so the dock never comes.
    browser.execute_script(
        "const p = window.TaskSurfacePage;"
        "p.onMessage((m) => {"
        "  if (m.type === 'preview' && m.html.includes('3 rows')) p.dispatch = () => {};"
        "});"
    )
    page.say("/surface all")
    wait_until(
        browser, lambda d: "3 rows" in str(d.find_element(By.ID, "preview-slot").get_attribute("textContent"))
    )
    body = browser.find_element(By.CSS_SELECTOR, "#panel-preview .dock-body")
    # Selenium types a property as text, a flag, an element or a dict; these two are numbers.
    scroll_height = cast(int, body.get_property("scrollHeight"))
    client_height = cast(int, body.get_property("clientHeight"))
    assert int(scroll_height) > int(client_height)
    _no_serious_violation(browser)
