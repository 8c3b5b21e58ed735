"""The theme switch: auto → light → dark, kept across reloads, and nothing without script."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from .pages import open_panel, wait_until

pytestmark = pytest.mark.browser


def _kept_theme(driver: WebDriver) -> str:
    """The theme the browser sends the server (its cookie), which the test expects to be set."""
    cookie = driver.get_cookie("ts-theme")
    assert cookie is not None
    return str(cookie["value"])


def _background(driver: WebDriver) -> str:
    return str(driver.execute_script("return getComputedStyle(document.body).backgroundColor"))


def test_the_theme_switch_cycles_and_persists(browser: WebDriver, live_server: LiveServer) -> None:
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]}
    )
    browser.get(live_server.url + "/")
    toggle = wait_until(browser, lambda d: d.find_element(By.ID, "theme-toggle"))
    assert toggle.is_displayed() and toggle.text == "Theme: auto"
    light = _background(browser)
    toggle.send_keys(Keys.ENTER)  # auto → light
    assert browser.find_element(By.ID, "theme-toggle").text == "Theme: light"
    assert browser.execute_script("return document.documentElement.dataset.theme") == "light"
    toggle.send_keys(Keys.SPACE)  # light → dark
    assert browser.execute_script("return document.documentElement.dataset.theme") == "dark"
    dark = _background(browser)
    assert dark != light
    browser.refresh()
    wait_until(browser, lambda d: d.find_element(By.ID, "theme-toggle").text == "Theme: dark")
    assert _background(browser) == dark
    # The server knows the choice: the page is dark as it arrives, before any script runs.
    assert _kept_theme(browser) == "dark"
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    browser.refresh()
    assert browser.execute_script("return document.documentElement.dataset.theme") == "dark"
    assert _background(browser) == dark
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    browser.refresh()
    wait_until(browser, lambda d: d.find_element(By.ID, "theme-toggle").text == "Theme: dark")
    browser.find_element(By.ID, "theme-toggle").click()  # dark → auto: the system preference again
    assert browser.execute_script("return document.documentElement.dataset.theme") is None
    assert _background(browser) == light


def test_the_system_preference_decides_in_auto(browser: WebDriver, live_server: LiveServer) -> None:
    browser.get(live_server.url + "/")
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]}
    )
    light = _background(browser)
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}
    )
    assert _background(browser) != light


def test_without_script_the_switch_is_not_offered(browser: WebDriver, live_server: LiveServer) -> None:
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    browser.get(live_server.url + "/")
    assert not browser.find_element(By.ID, "theme-toggle").is_displayed()


def test_the_chat_page_offers_the_switch_from_its_bundle(browser: WebDriver, live_server: LiveServer) -> None:
    api, sid, page = open_panel(browser, live_server.url, "plan")
    toggle = wait_until(browser, lambda d: d.find_element(By.ID, "theme-toggle"))
    assert toggle.is_displayed() and toggle.text == "Theme: auto"
    toggle.send_keys(Keys.ENTER)  # auto → light
    assert browser.execute_script("return document.documentElement.dataset.theme") == "light"
    assert _kept_theme(browser) == "light"
    page.open(sid)
    assert browser.execute_script("return document.documentElement.dataset.theme") == "light"
    assert browser.find_element(By.ID, "theme-toggle").text == "Theme: light"
    api.http.close()


# Counts reads and writes of document.cookie by the page's own scripts.
COUNT_COOKIE_USE = """
window.__cookie = { reads: 0, writes: [] };
const native = Object.getOwnPropertyDescriptor(Document.prototype, "cookie");
Object.defineProperty(Document.prototype, "cookie", {
  configurable: true,
  get() { window.__cookie.reads += 1; return native.get.call(this); },
  set(value) { window.__cookie.writes.push(String(value).split(";")[0]); native.set.call(this, value); },
});
"""


def test_the_chat_page_starts_without_reading_the_cookie(browser: WebDriver, live_server: LiveServer) -> None:
    """Reading document.cookie is a synchronous call to the browser, milliseconds while the page
    starts, and so is writing it: the page knows from the server which theme cookie it came with
    (none means auto), and writes the cookie only when the browser's own record differs."""
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_COOKIE_USE})
    api, sid, page = open_panel(browser, live_server.url, "plan")
    page.wait_connected()
    first = browser.execute_script("return window.__cookie")
    assert first == {"reads": 0, "writes": []}  # no cookie means auto: nothing to send
    page.open(sid)
    page.wait_connected()
    assert browser.execute_script("return window.__cookie") == {"reads": 0, "writes": []}
    browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    api.http.close()


def test_a_theme_kept_only_in_this_browser_is_sent_from_then_on(
    browser: WebDriver, live_server: LiveServer
) -> None:
    browser.get(live_server.url + "/")
    browser.execute_script("localStorage.setItem('ts-theme', 'dark')")
    browser.delete_cookie("ts-theme")
    browser.refresh()
    wait_until(browser, lambda d: d.find_element(By.ID, "theme-toggle").text == "Theme: dark")
    assert browser.execute_script("return document.documentElement.dataset.theme") == "dark"
    assert _kept_theme(browser) == "dark"
    browser.refresh()  # now the server knows it: the page arrives dark, with nothing to send
    assert browser.execute_script("return document.documentElement.dataset.themeKept") == "dark"
