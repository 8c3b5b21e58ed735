"""While the agent waits for the person, a real Chromium tab says so: the title carries the count,
and a browser notification announces a new panel once, only after the person opted in and only
while the tab is in the background. What was already open at load is not news."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from ..support import Api
from .pages import ChatPage, browse_as, wait_until
from .test_panels_v2 import click

pytestmark = pytest.mark.browser

# The notification itself leaves the page for the desktop; this records each one the page
# creates, then lets the real Notification show it.
RECORD_NOTIFICATIONS = """
window.shownNotifications = [];
const RealNotification = window.Notification;
window.Notification = class extends RealNotification {
  constructor(title, options) {
    super(title, options);
    window.shownNotifications.push({ title, body: (options || {}).body, tag: (options || {}).tag });
  }
};
"""


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


@pytest.fixture
def app_config(database_url: str) -> dict[str, Any]:
    return {"database_url": database_url, "secret_key": "test-secret-key", "agent_name": "Planner"}


def _open(browser: WebDriver, live_server: LiveServer) -> tuple[Api, str, ChatPage]:
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_NOTIFICATIONS})
    browser.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": live_server.url, "permissions": ["notifications"]}
    )
    api = Api(live_server.url)
    sid = api.create_session()
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    return api, sid, page


def _in_background(browser: WebDriver) -> str:
    """Open a second tab in front; returns the chat tab's handle."""
    chat = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get("about:blank")
    return chat


def test_a_panel_in_a_background_tab_is_announced_once_after_opting_in(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, _ = _open(browser, live_server)
    toggle = browser.find_element(By.ID, "notify-toggle")
    assert toggle.is_displayed() and toggle.get_attribute("aria-pressed") == "false"
    click(browser, "#notify-toggle")
    wait_until(browser, lambda d: toggle.get_attribute("aria-pressed") == "true")
    chat = _in_background(browser)
    api.show_surface(sid, "fields")
    browser.switch_to.window(chat)
    shown = wait_until(browser, lambda d: d.execute_script("return window.shownNotifications"))
    assert len(shown) == 1
    assert shown[0]["title"] == "Planner is waiting for you"
    assert shown[0]["tag"].startswith("surface:")
    assert shown[0]["body"]  # the panel's title, cut short
    assert browser.title.startswith("(1) ")
    # The same panel is not announced again once the person looks and leaves again.
    _in_background(browser)
    browser.switch_to.window(chat)
    assert len(browser.execute_script("return window.shownNotifications")) == 1


def test_without_opting_in_the_title_counts_but_nothing_is_announced(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server)
    untitled = browser.title
    chat = _in_background(browser)
    api.show_surface(sid, "plan")
    browser.switch_to.window(chat)
    page.dock()
    wait_until(browser, lambda d: d.title == "(1) " + untitled)
    assert browser.execute_script("return window.shownNotifications") == []
    click(browser, "button[data-action=submit]")
    page.wait_dock_gone()
    wait_until(browser, lambda d: d.title == untitled)


def test_a_panel_open_at_load_is_not_news(browser: WebDriver, live_server: LiveServer) -> None:
    api, sid, page = _open(browser, live_server)
    click(browser, "#notify-toggle")
    api.show_surface(sid, "fields")
    page.dock()
    page.open(sid)  # reloaded with the panel already there
    page.dock()
    assert browser.title.startswith("(1) ")
    chat = _in_background(browser)
    browser.switch_to.window(chat)
    assert browser.execute_script("return window.shownNotifications") == []


def test_the_switch_shows_a_choice_made_in_another_tab_once_this_one_is_shown_again(
    browser: WebDriver, live_server: LiveServer
) -> None:
    _open(browser, live_server)
    toggle = browser.find_element(By.ID, "notify-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    chat = _in_background(browser)
    browser.get(live_server.url + "/")  # another page of the same site, where the person opts in
    browser.execute_script("localStorage.setItem('ts-notify', 'on')")
    browser.close()
    browser.switch_to.window(chat)
    wait_until(browser, lambda d: toggle.get_attribute("aria-pressed") == "true")


COUNT_CHOICE_READS = """
window.choiceReads = 0;
const getItem = Storage.prototype.getItem;
Storage.prototype.getItem = function (key) {
  if (key === "ts-notify") window.choiceReads += 1;
  return getItem.call(this, key);
};
"""


def test_a_submission_does_not_read_the_stored_choice(browser: WebDriver, live_server: LiveServer) -> None:
    """The title follows every change to the dock; the stored choice is read only for news (each
    read is a synchronous call to the browser, on the way from the click to the agent's reply)."""
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_CHOICE_READS})
    api, sid, page = _open(browser, live_server)
    api.show_surface(sid, "plan")
    page.dock()
    wait_until(browser, lambda d: d.title.startswith("(1) "))
    before = browser.execute_script("return window.choiceReads")
    click(browser, "button[data-action=submit]")
    page.wait_dock_gone()
    wait_until(browser, lambda d: not d.title.startswith("(1) "))
    assert browser.execute_script("return window.choiceReads") == before
