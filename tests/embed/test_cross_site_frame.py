"""The chat in a real cross-site frame: it keeps its user, and only listed sites may frame it."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from ..browser.pages import ChatPage, wait_until
from ..conftest import LiveServer
from ..domain.builders import model_with_fields, text_field
from .frames import enter_chat, received, start_session_in_frame
from .host_site import HostSite, host_page

pytestmark = pytest.mark.browser


RELEASE_PANEL = model_with_fields(text_field("release", "Release name"))


def submit_fields_panel(driver: WebDriver, page: ChatPage) -> None:
    page.say("/tool show_task_surface " + json.dumps({"model": RELEASE_PANEL}))
    dock = page.dock()
    page.field("release").find_element(By.TAG_NAME, "input").send_keys("Aurora 1.4")
    dock.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    page.wait_for_agent_text("Thanks, I have your answers")
    page.wait_dock_gone()


def test_a_session_in_a_cross_site_frame_survives_a_reload_of_the_host_page(
    browser: WebDriver, live_server: LiveServer, host_site: HostSite
) -> None:
    host_site.pages["/"] = host_page(live_server.url)
    browser.get(host_site.url("/"))
    enter_chat(browser)
    session_id = start_session_in_frame(browser, live_server.url)
    page = ChatPage(browser, live_server.url)
    submit_fields_panel(browser, page)
    history = page.user_bubbles()
    assert history[0].startswith("/tool show_task_surface") and "Aurora 1.4" in history[1]

    browser.get(host_site.url("/"))  # the host page again: the frame is a new page load
    enter_chat(browser)
    link = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, f'a[href="/sessions/{session_id}"]'))
    link.click()
    page.wait_connected()
    assert page.user_bubbles() == history


def test_a_second_host_site_gets_its_own_partition(
    browser: WebDriver, live_server: LiveServer, host_site: HostSite
) -> None:
    host_site.pages["/"] = host_page(live_server.url)
    browser.get(host_site.url("/"))
    enter_chat(browser)
    session_id = start_session_in_frame(browser, live_server.url)

    browser.get(host_site.url("/", host="second.localhost"))
    enter_chat(browser)
    assert browser.find_elements(By.CSS_SELECTOR, ".new-session")  # the app is there, framed
    assert not browser.find_elements(By.CSS_SELECTOR, f'a[href="/sessions/{session_id}"]')

    browser.get(host_site.url("/"))  # and the first site still has its own
    enter_chat(browser)
    wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, f'a[href="/sessions/{session_id}"]'))


def test_a_page_on_an_unlisted_origin_cannot_frame_it(
    browser: WebDriver, live_server: LiveServer, host_site: HostSite
) -> None:
    host_site.pages["/"] = host_page(live_server.url)
    browser.get(host_site.url("/", host="unlisted.localhost"))
    frame = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#chat iframe"))
    # Chromium replaces a refused frame by an error page; a listed page would draw the chat.
    browser.switch_to.frame(frame)
    wait_until(browser, lambda d: d.execute_script("return document.readyState") == "complete")
    assert not browser.find_elements(By.CSS_SELECTOR, ".topbar")
    assert received(browser) == []
