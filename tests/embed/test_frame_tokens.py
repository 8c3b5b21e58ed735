"""The team names its user in the host page's token: the same user finds the same sessions in
another browser profile; a refused token shows its page inside the frame and creates nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from ..browser.conftest import CHROMEDRIVER, chromium_options
from ..browser.pages import wait_until
from ..conftest import LiveServer
from .frames import enter_chat, start_session_in_frame
from .host_site import HostSite, host_page
from .tokens import SECRET, mint, unsigned

pytestmark = pytest.mark.browser


@pytest.fixture
def app_config(database_url: str, listed_origins: list[str]) -> dict[str, Any]:
    return {
        "database_url": database_url,
        "secret_key": "test-secret-key",
        "frame_ancestors": " ".join(["'self'", *listed_origins]),
        "embed_secret": SECRET,
    }


@pytest.fixture
def second_browser(tmp_path: Path) -> Iterator[WebDriver]:
    """Another browser profile: no cookie, no storage in common with the first."""
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=chromium_options(tmp_path / "second"))
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


def test_the_same_user_finds_the_same_sessions_in_another_profile(
    browser: WebDriver, second_browser: WebDriver, live_server: LiveServer, host_site: HostSite
) -> None:
    host_site.pages["/ada"] = host_page(live_server.url, token=mint("ada", name="Ada Lovelace"))
    host_site.pages["/bob"] = host_page(live_server.url, token=mint("bob"))
    browser.get(host_site.url("/ada"))
    enter_chat(browser)
    assert "Ada Lovelace" in browser.find_element(By.CSS_SELECTOR, ".topbar").text
    session_id = start_session_in_frame(browser, live_server.url)

    second_browser.get(host_site.url("/ada"))
    enter_chat(second_browser)
    wait_until(second_browser, lambda d: d.find_element(By.CSS_SELECTOR, f'a[href="/sessions/{session_id}"]'))
    second_browser.get(host_site.url("/bob"))  # another user of the team, same browser
    enter_chat(second_browser)
    assert second_browser.find_elements(By.CSS_SELECTOR, ".new-session")
    assert not second_browser.find_elements(By.CSS_SELECTOR, f'a[href="/sessions/{session_id}"]')


def test_a_refused_token_shows_its_code_in_the_frame(
    browser: WebDriver, live_server: LiveServer, host_site: HostSite
) -> None:
    host_site.pages["/"] = host_page(live_server.url, token=unsigned("ada"))
    browser.get(host_site.url("/"))
    enter_chat(browser)
    code = browser.find_element(By.CSS_SELECTOR, "[data-code]")
    assert code.get_attribute("data-code") == "token.algorithm"
    assert not browser.get_cookies()  # nothing was made for anyone


def test_the_host_signs_its_user_out_of_the_chat(
    browser: WebDriver, live_server: LiveServer, host_site: HostSite
) -> None:
    host_site.pages["/"] = host_page(live_server.url, token=mint("ada", name="Ada"))
    host_site.pages["/logged-out"] = host_page(live_server.url)
    browser.get(host_site.url("/"))
    enter_chat(browser)
    session_id = start_session_in_frame(browser, live_server.url)
    browser.switch_to.default_content()
    browser.execute_script("TaskSurface.chat.signOut()")
    enter_chat(browser)
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".new-session"))
    assert not browser.find_elements(By.CSS_SELECTOR, f'a[href="/sessions/{session_id}"]')
    assert "Ada" not in browser.find_element(By.CSS_SELECTOR, ".topbar").text
    browser.get(host_site.url("/logged-out"))  # the host names nobody now: the chat says so
    enter_chat(browser)
    assert browser.find_element(By.CSS_SELECTOR, "[data-code]").get_attribute("data-code") == "token.missing"


TITLE_SHOWN_WHOLE = """
const title = document.querySelector('.session-title');
return title.getBoundingClientRect().width > 0 && title.scrollWidth <= title.clientWidth;
"""
WHOLE = "return arguments[0].scrollWidth <= arguments[0].clientWidth"


@pytest.mark.parametrize("width", [360, 420, 1000])  # a phone's frame, the floating widget's, a page's
def test_the_users_name_is_whole_and_never_takes_the_sessions_titles_room(
    browser: WebDriver, live_server: LiveServer, host_site: HostSite, width: int
) -> None:
    frame = f"<style>#chat {{ width: {width}px }}</style>"
    host_site.pages["/sized"] = host_page(
        live_server.url, token=mint("ada", name="Ada Lovelace"), extra=frame
    )
    browser.get(host_site.url("/sized"))
    enter_chat(browser)
    signed_in = browser.find_element(By.CSS_SELECTOR, ".topbar .signed-in")
    # On the sessions page, one line with the whole name: a line of its own where the bar is narrow.
    assert signed_in.is_displayed() and signed_in.size["height"] < 24
    assert browser.execute_script(WHOLE, signed_in)
    start_session_in_frame(browser, live_server.url)
    assert browser.execute_script(TITLE_SHOWN_WHOLE)
    signed_in = browser.find_element(By.CSS_SELECTOR, ".topbar .signed-in")
    if width > 720:  # room for both: the name is shown whole
        assert signed_in.is_displayed() and browser.execute_script(WHOLE, signed_in)
    else:
        assert not signed_in.is_displayed()
