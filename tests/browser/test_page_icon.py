"""A page names its icon, so a browser asks the server for nothing more (no /favicon.ico)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask, request
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from .pages import owned_panel, wait_until

pytestmark = pytest.mark.browser

ICON = """
const href = document.querySelector('link[rel=icon]').href;
const comma = href.indexOf(',');
const svg = new DOMParser().parseFromString(decodeURIComponent(href.slice(comma + 1)), 'image/svg+xml');
return [href.slice(0, comma), svg.documentElement.nodeName, !svg.querySelector('parsererror')];
"""


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def test_the_chat_page_names_its_icon_and_the_browser_asks_for_no_other(
    app: Flask, browser: WebDriver, live_server: LiveServer
) -> None:
    asked: list[str] = []

    def note_the_path() -> None:
        asked.append(request.path)

    app.before_request(note_the_path)
    api, session_id = owned_panel(browser, live_server.url, "fields")
    browser.get(f"{live_server.url}/sessions/{session_id}")
    wait_until(browser, lambda d: d.execute_script("return document.readyState === 'complete'"))
    assert browser.execute_script(ICON) == ["data:image/svg+xml", "svg", True]
    time.sleep(0.5)  # a browser asks for a missing icon after the page has loaded
    since_the_page = asked[asked.index(f"/sessions/{session_id}") :]
    assert "/favicon.ico" not in since_the_page, since_the_page
    api.http.close()
