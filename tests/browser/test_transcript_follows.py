"""The transcript follows what is new: a pushed reply, and the one after a panel answered (whose
dock closes in the same message), end up in view at the bottom of the page."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from ..support import Api
from .pages import ChatPage, browse_as, wait_until

AT_BOTTOM = "return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;"
NEWEST_IN_VIEW = """
const rows = document.querySelectorAll('#events > .event');
const box = rows[rows.length - 1].getBoundingClientRect();
return box.bottom <= window.innerHeight + 1 && box.bottom > 0;
"""


def long_session(api: Api) -> str:
    sid = api.create_session()
    for n in range(14):
        api.send(sid, f"earlier message {n} " + "with a few more words to fill the line " * 3)
    api.settled(sid)
    return sid


def at_the_newest(driver: WebDriver) -> bool:
    return bool(driver.execute_script(AT_BOTTOM)) and bool(driver.execute_script(NEWEST_IN_VIEW))


def test_a_pushed_reply_is_scrolled_into_view(browser: WebDriver, live_server: LiveServer) -> None:
    api = Api(live_server.url)
    sid = long_session(api)
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    wait_until(browser, at_the_newest)  # the page starts at its newest message
    browser.execute_script("window.scrollTo(0, 0);")
    page.say("and now this")
    page.wait_for_agent_text("and now this")
    wait_until(browser, at_the_newest)


def test_the_reply_to_an_answered_panel_is_in_view_once_the_dock_has_closed(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api = Api(live_server.url)
    sid = long_session(api)
    api.show_surface(sid, "plan")
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    page.dock()
    browser.execute_script("window.scrollTo(0, 0);")
    browser.find_element(By.CSS_SELECTOR, "#task-surface-dock button[data-action=submit]").click()
    page.wait_dock_gone()
    page.wait_for_agent_text("I have your answers")
    wait_until(browser, at_the_newest)
