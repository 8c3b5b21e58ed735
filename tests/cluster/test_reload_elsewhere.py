"""A tab reloaded onto another process (one address in front, as a load balancer gives)
finds its draft and the open panel, and submits through the process it reached."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from ..browser.conftest import browser  # noqa: F401  (the fixture)
from ..browser.pages import ChatPage, browse_as, wait_until
from ..support import Api, wait_for
from .processes import FrontDoor, Gunicorn

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


@pytest.fixture
def front_door(pair: list[Gunicorn]) -> Iterator[FrontDoor]:
    door = FrontDoor(pair[0].port)
    yield door
    door.close()


def test_a_tab_reloaded_onto_another_process_keeps_its_draft_and_its_panel(
    browser: WebDriver,  # noqa: F811
    pair: list[Gunicorn],
    front_door: FrontDoor,
) -> None:
    a, b = pair
    api = Api(front_door.url)
    sid = api.create_session()
    api.show_surface(sid, "fields")
    browse_as(browser, api)
    page = ChatPage(browser, front_door.url)
    page.open(sid)
    page.dock()
    page.field("name").find_element(By.TAG_NAME, "input").send_keys("Typed on the first process")
    # The draft is saved as the person types; wait until it is, then the first process goes away.
    wait_until(
        browser,
        lambda d: d.execute_script(
            "return Object.keys(localStorage).some(k => k.includes(arguments[0]) &&"
            " localStorage.getItem(k).includes('Typed on the first'))",
            sid,
        ),
    )
    a.kill()
    front_door.switch(b.port)
    page.open(sid)
    page.dock()
    assert page.field("name").find_element(By.TAG_NAME, "input").get_attribute("value") == (
        "Typed on the first process"
    )
    # The live connection is to the second process now: submitting closes the dock from there.
    page.field("channel").find_element(By.CSS_SELECTOR, "input[value=stable]").send_keys(Keys.SPACE)
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    page.wait_dock_gone()
    direct = Api(b.url)
    direct.http = api.http
    events = wait_for(lambda: [e for e in direct.events(sid) if e["kind"] == "user/message"][1:], 20)
    [submitted] = events
    assert "Typed on the first process" in str(submitted["payload"]["content"])
