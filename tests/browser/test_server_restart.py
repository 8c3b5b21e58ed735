"""A deploy replaces the server process under an open page: the page waits, comes back, loses nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from ..production.gunicorn_process import ProductionServer
from ..support import Api
from .pages import ChatPage, browse_as, wait_until

pytestmark = pytest.mark.browser

TYPED = "only after 18:00"


@pytest.fixture
def servers(database_url: str, tmp_path: Path) -> Iterator[list[ProductionServer]]:
    made: list[ProductionServer] = []
    yield made
    for server in made:
        server.stop()


def _constraints(driver: WebDriver) -> str:
    box = driver.find_element(
        By.CSS_SELECTOR, '#task-surface-dock .field[data-field-id="constraints"] textarea'
    )
    return str(box.get_attribute("value"))


def test_the_page_reconnects_to_the_next_process_with_its_draft_and_panel(
    browser: WebDriver, servers: list[ProductionServer], database_url: str, tmp_path: Path
) -> None:
    first = ProductionServer(database_url, tmp_path / "instance")
    servers.append(first)
    first.start()
    with Api(first.url) as api:
        sid = api.create_session()
        api.show_surface(sid, "plan")
        browse_as(browser, api)
    page = ChatPage(browser, first.url)
    page.open(sid)
    page.dock()
    page.field("constraints").find_element(By.TAG_NAME, "textarea").send_keys(TYPED)
    wait_until(  # the draft is in the browser's storage before the server goes
        browser,
        lambda d: any(TYPED in str(v) for v in d.execute_script("return Object.values(localStorage)")),
    )

    first.terminate()
    wait_until(
        browser,
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connection") == "restarting",
    )
    assert browser.find_element(By.ID, "connection").text == "The server is restarting. Reconnecting…"
    assert first.wait(60) == 0
    assert _constraints(browser) == TYPED

    successor = ProductionServer(database_url, tmp_path / "instance", port=first.port)
    servers.append(successor)
    successor.start()
    page.wait_connected()
    assert browser.find_element(By.ID, "connection").text == ""
    assert page.dock().is_displayed()
    assert _constraints(browser) == TYPED

    browser.refresh()  # a reload onto the new process: the panel from the log, the draft from the browser
    page.wait_connected()
    page.dock()
    wait_until(browser, lambda d: _constraints(d) == TYPED)
