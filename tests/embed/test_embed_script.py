"""`/embed.js` on a host page: the chat appears, the host hears what happens in order, and
messages from anyone but the chat (or, inside the chat, from anyone but its host) change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from ..browser.pages import ChatPage, wait_until
from ..conftest import LiveServer
from ..domain.builders import model_with_fields, text_field
from .frames import enter_chat, received, start_session_in_frame
from .host_site import RECORDER, HostSite, host_page

pytestmark = pytest.mark.browser

PANEL = model_with_fields(text_field("release", "Release name"))


def show_panel(page: ChatPage) -> None:
    page.say("/tool show_task_surface " + json.dumps({"model": PANEL}))
    page.dock()


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def test_the_host_page_hears_every_step_in_order(
    browser: WebDriver, live_server: LiveServer, host_site: HostSite
) -> None:
    host_site.pages["/"] = host_page(live_server.url)
    browser.get(host_site.url("/"))
    wait_until(browser, lambda d: types(received(d)) == ["ready"])
    enter_chat(browser)
    session_id = start_session_in_frame(browser, live_server.url)
    page = ChatPage(browser, live_server.url)
    show_panel(page)
    page.field("release").find_element(By.TAG_NAME, "input").send_keys("Aurora 1.4")
    page.dock().find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    page.wait_dock_gone()
    enter_chat(browser)
    show_panel(page)
    page.dock().find_element(By.CSS_SELECTOR, "button[data-action=dismiss]").click()
    page.wait_dock_gone()

    opened = ["surface-opened"]
    expected = ["ready", "ready", "session-created", *opened, "submitted", *opened, "dismissed"]
    events = wait_until(browser, lambda d: (found := received(d)) and types(found) == expected and found)
    assert isinstance(events, list)
    assert events[0]["page"] == "index" and events[1]["page"] == "session"
    assert all(e["sessionId"] == session_id for e in events[1:])
    first, second = events[3]["surfaceId"], events[5]["surfaceId"]
    assert first != second
    assert events[4]["surfaceId"] == first and events[4]["values"] == {"release": "Aurora 1.4"}
    assert events[6]["surfaceId"] == second

    browser.refresh()  # reopening the session is no new session
    enter_chat(browser)
    browser.find_element(By.CSS_SELECTOR, f'a[href="/sessions/{session_id}"]').click()
    wait_until(browser, lambda d: types(received(d)) == ["ready", "ready"])


EVIL = """<!doctype html><html><body><script>
  // Another site's frame on the host page pretends to be the chat, and tries to steer the chat.
  window.sent = 0;
  setInterval(function () {
    parent.postMessage({ source: "tasksurface", type: "submitted", sessionId: "s_fake", values: {} }, "*");
    for (var i = 0; i < parent.frames.length; i++) {
      parent.frames[i].postMessage({ source: "tasksurface-host", type: "prefill", text: "evil" }, "*");
      parent.frames[i].postMessage({ source: "tasksurface-host", type: "theme", theme: "dark" }, "*");
    }
    window.sent += 1;
  }, 50);
</script></body></html>"""


def test_messages_from_a_frame_of_another_origin_change_nothing(
    browser: WebDriver, live_server: LiveServer, host_site: HostSite
) -> None:
    host_site.pages["/evil"] = EVIL
    evil = host_site.url("/evil", host="unlisted.localhost")
    host_site.pages["/"] = host_page(live_server.url, extra=f'<iframe id="other" src="{evil}"></iframe>')
    browser.get(host_site.url("/"))
    enter_chat(browser)
    start_session_in_frame(browser, live_server.url)
    browser.switch_to.default_content()
    browser.switch_to.frame(browser.find_element(By.ID, "other"))
    start = int(browser.execute_script("return window.sent"))
    wait_until(browser, lambda d: int(d.execute_script("return window.sent")) > start + 20)

    assert "submitted" not in types(received(browser))
    enter_chat(browser)
    assert browser.find_element(By.ID, "composer-text").get_attribute("value") == ""
    assert browser.execute_script("return document.documentElement.dataset.theme || 'auto'") == "auto"

    # The host itself may: the same messages from the embedding page do take effect.
    browser.switch_to.default_content()
    browser.execute_script("TaskSurface.chat.prefill('from the host'); TaskSurface.chat.setTheme('dark')")
    enter_chat(browser)
    composer = browser.find_element(By.ID, "composer-text")
    wait_until(browser, lambda d: composer.get_attribute("value") == "from the host")
    assert browser.execute_script("return document.documentElement.dataset.theme") == "dark"


def test_the_frame_talks_only_to_the_origin_it_was_given(
    browser: WebDriver, live_server: LiveServer, host_site: HostSite
) -> None:
    """A page that claims to be another listed site gets the chat, but not a word of its events."""
    claimed = host_site.url("/").removesuffix("/")
    host_site.pages["/liar"] = f"""<!doctype html><html><body>{RECORDER}
<script>window.raw = []; addEventListener("message", function (e) {{ window.raw.push(e.origin); }});</script>
<iframe id="chat-frame" src="{live_server.url}/embed?origin={claimed}"></iframe></body></html>"""
    browser.get(host_site.url("/liar", host="second.localhost"))
    enter_chat(browser, "#chat-frame")
    assert browser.find_elements(By.CSS_SELECTOR, ".new-session")
    # The frame has told its "ready" (to the origin it was given, which is not this page's).
    wait_until(browser, lambda d: d.execute_script("return document.documentElement.dataset.embedTold"))
    browser.switch_to.default_content()
    # A control: the page does get messages when the frame posts to it (here, from itself).
    browser.execute_script("window.postMessage('ping', '*')")
    wait_until(browser, lambda d: d.execute_script("return window.raw.length") >= 1)
    assert browser.execute_script("return window.raw") == [host_site.url("/", "second.localhost")[:-1]]


def test_the_script_is_small_and_loads_nothing_else(live_server: LiveServer) -> None:
    response = requests.get(live_server.url + "/embed.js", headers={"Accept-Encoding": "gzip"}, timeout=10)
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/javascript")
    assert int(response.headers.get("Content-Length", "0")) < 3000  # compressed on the wire
    source = response.text
    for loader in ("import(", "importScripts", 'createElement("script")', "fetch(", "XMLHttpRequest"):
        assert loader not in source


def test_the_launcher_opens_the_chat_in_a_panel_and_escape_closes_it(
    browser: WebDriver, live_server: LiveServer, host_site: HostSite
) -> None:
    host_site.pages["/"] = host_page(live_server.url, attributes='data-label="Ask us"')
    browser.get(host_site.url("/"))
    launcher = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "button.tasksurface-launcher"))
    assert launcher.text == "Ask us" and launcher.get_attribute("aria-expanded") == "false"
    assert not browser.find_elements(By.CSS_SELECTOR, ".tasksurface-panel iframe")  # loaded on demand
    launcher.click()
    assert launcher.get_attribute("aria-expanded") == "true"
    wait_until(browser, lambda d: types(received(d)) == ["ready"])
    enter_chat(browser, ".tasksurface-panel iframe")
    assert browser.find_elements(By.CSS_SELECTOR, ".new-session")
    browser.switch_to.default_content()
    browser.find_element(By.TAG_NAME, "h1").click()
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    panel = browser.find_element(By.CSS_SELECTOR, ".tasksurface-panel")
    wait_until(browser, lambda d: not panel.is_displayed())
    assert launcher.get_attribute("aria-expanded") == "false"
    assert browser.switch_to.active_element == launcher


def test_the_theme_and_language_the_host_asks_for_are_the_frames(
    browser: WebDriver, live_server: LiveServer, host_site: HostSite
) -> None:
    asked = 'data-target="#chat" data-theme="dark" data-lang="zh"'
    host_site.pages["/"] = host_page(live_server.url, attributes=asked)
    browser.get(host_site.url("/"))
    enter_chat(browser)
    root = browser.find_element(By.TAG_NAME, "html")
    assert root.get_attribute("lang") == "zh-Hans" and root.get_attribute("data-theme") == "dark"
    start_session_in_frame(browser, live_server.url)  # and it stays so on the next page
    root = browser.find_element(By.TAG_NAME, "html")
    assert root.get_attribute("lang") == "zh-Hans" and root.get_attribute("data-theme") == "dark"
