"""The chat page's top bar on a phone: the session's title is what it has room for, and the
product's mark stays as the way home, named and large enough to hit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from ..support import Api
from .pages import ChatPage, browse_as

pytestmark = pytest.mark.browser

TITLE_SHOWN_WHOLE = """
const title = document.querySelector('.session-title');
const box = title.getBoundingClientRect();
return box.width > 0 && title.scrollWidth <= title.clientWidth;
"""


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """The top bar does not depend on the database; SQLite keeps this quick."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def _chat_page(browser: WebDriver, live_server: LiveServer, width: int) -> Api:
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 740, "deviceScaleFactor": 1, "mobile": width < 500},
    )
    api = Api(live_server.url)
    sid = api.create_session()
    browse_as(browser, api)
    ChatPage(browser, live_server.url).open(sid)
    return api


@pytest.mark.parametrize(("width", "name_shown"), [(360, False), (1000, True)])  # a phone, a desk
def test_the_sessions_title_is_shown_whole_and_the_brand_still_leads_home(
    browser: WebDriver, live_server: LiveServer, width: int, name_shown: bool
) -> None:
    api = _chat_page(browser, live_server, width)
    assert browser.execute_script(TITLE_SHOWN_WHOLE)
    brand = browser.find_element(By.CSS_SELECTOR, ".topbar .brand")
    assert brand.accessible_name == "Task Surface"  # the mark alone is not its name
    assert brand.get_attribute("href") == live_server.url + "/"
    assert brand.rect["width"] >= 24 and brand.rect["height"] >= 24  # a finger's target
    assert browser.find_element(By.CSS_SELECTOR, ".brand-name").is_displayed() is name_shown
    api.http.close()
