"""In a real browser: streamed text shows as a provisional agent bubble, then the logged message."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from ..browser.pages import ChatPage, wait_until
from ..conftest import LiveServer
from .wire import Stream, WireServer

pytestmark = pytest.mark.browser


def provisional(driver: WebDriver) -> str | None:
    rows = driver.find_elements(By.ID, "partial-reply")
    return rows[0].find_element(By.CSS_SELECTOR, ".bubble-agent").text if rows else None


def test_the_reply_grows_in_place_and_the_logged_message_replaces_it(
    browser: WebDriver, live_server: LiveServer, wire: WireServer
) -> None:
    wire.script(Stream(text=["Counting: ", "one, ", "two, ", "three."], delay=0.4))
    page = ChatPage(browser, live_server.url)
    page.start_session()
    page.say("count for me")

    seen = wait_until(browser, lambda d: (t := provisional(d)) and t.startswith("Counting: one") and t)
    assert seen != "Counting: one, two, three."  # caught while it was still arriving
    row = browser.find_element(By.ID, "partial-reply")
    assert row.get_attribute("aria-hidden") == "true"  # screen readers hear the final message once

    wait_until(
        browser, lambda d: provisional(d) is None and "Counting: one, two, three." in page.agent_bubbles()
    )
    assert page.agent_bubbles() == ["Counting: one, two, three."]
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-provisional]")
