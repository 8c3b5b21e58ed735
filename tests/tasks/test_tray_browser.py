"""The tray in a real Chromium: live rows, polite announcements, keyboard Stop, typing kept, axe-clean."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from ..browser.conftest import browser as browser
from ..browser.pages import ChatPage, api_for, wait_until
from ..browser.test_accessibility import _no_serious_violation
from ..conftest import LiveServer
from .helpers import ended, release, run, task

pytestmark = pytest.mark.browser


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """The tray's browser behaviour does not depend on the database."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def _row(driver: WebDriver, task_id: str) -> Any:
    return driver.find_element(By.ID, f"task-{task_id}")


def _announced(driver: WebDriver) -> str:
    return str(
        driver.execute_script(
            "return Array.from(document.querySelectorAll('body > p.visually-hidden[aria-live=polite]'))"
            ".map(p => p.textContent).join('|')"
        )
    )


def test_a_task_appears_streams_and_ends_live_and_each_change_is_announced(
    browser: WebDriver, live_server: LiveServer, tmp_path: Path
) -> None:
    page = ChatPage(browser, live_server.url)
    sid = page.start_session()
    api = api_for(browser, live_server.url)
    assert browser.find_element(By.ID, "task-tray").get_attribute("hidden") is not None
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "1/2,2/2"})
    row = wait_until(browser, lambda d: _row(d, task_id))
    assert browser.find_element(By.ID, "task-tray").get_attribute("open") is not None
    wait_until(browser, lambda d: "Background task started: Steps in" in _announced(d))
    wait_until(
        browser, lambda d: "1/2" in _row(d, task_id).find_element(By.CLASS_NAME, "task-last-line").text
    )
    wait_until(
        browser,
        lambda d: (
            _row(d, task_id).find_element(By.CLASS_NAME, "task-progress").get_attribute("value") == "0.5"
        ),
    )
    release(tmp_path, 1)
    wait_until(
        browser, lambda d: "2/2" in _row(d, task_id).find_element(By.CLASS_NAME, "task-last-line").text
    )
    release(tmp_path, 2)
    wait_until(browser, lambda d: _row(d, task_id).get_attribute("data-status") == "completed")
    row = _row(browser, task_id)
    assert row.find_element(By.CLASS_NAME, "task-status").text == "completed"
    assert row.find_elements(By.CLASS_NAME, "task-stop") == []  # nothing left to stop
    assert row.find_elements(By.CLASS_NAME, "task-progress") == []
    wait_until(browser, lambda d: f"Background task “Steps in {tmp_path}”: completed" in _announced(d))
    # The notice's row arrives in the transcript too.
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".event-task-notice .task-notice"))
    api.http.close()


def test_stop_by_keyboard_keeps_what_was_typed_through_pushes(
    browser: WebDriver, live_server: LiveServer, tmp_path: Path
) -> None:
    page = ChatPage(browser, live_server.url)
    sid = page.start_session()
    api = api_for(browser, live_server.url)
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "first,second"})
    wait_until(browser, lambda d: "first" in _row(d, task_id).text)
    reason = _row(browser, task_id).find_element(By.NAME, "reason")
    reason.send_keys("the plan")
    release(tmp_path, 1)  # a push arrives while the person types
    wait_until(
        browser, lambda d: "second" in _row(d, task_id).find_element(By.CLASS_NAME, "task-last-line").text
    )
    reason.send_keys(" changed")
    assert reason.get_attribute("value") == "the plan changed"
    assert browser.switch_to.active_element == reason
    reason.send_keys(Keys.ENTER)
    done = ended(api, sid, task_id)
    assert done["detail"] == "stopped by the user: the plan changed"
    wait_until(browser, lambda d: _row(d, task_id).get_attribute("data-status") == "cancelled")
    assert (
        _row(browser, task_id).find_element(By.CLASS_NAME, "task-detail").text
        == "stopped by the user: the plan changed"
    )
    # Focus left the removed Stop form for the task's output, not for the page's start.
    active = browser.switch_to.active_element
    assert (
        active.tag_name == "summary"
        and active.find_element(By.XPATH, "..").get_attribute("class") == "task-output"
    )
    api.http.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_tray_has_no_serious_violation(
    browser: WebDriver, live_server: LiveServer, tmp_path: Path, scheme: str
) -> None:
    page = ChatPage(browser, live_server.url)
    sid = page.start_session()
    api = api_for(browser, live_server.url)
    finished = run(api, sid, "emit", {"text": "done", "code": 1})
    ended(api, sid, finished)
    running = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "3/10"})
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )
    page.open(sid)
    wait_until(browser, lambda d: _row(d, running).find_elements(By.CLASS_NAME, "task-progress"))
    browser.execute_script("document.querySelectorAll('#task-tray details').forEach(d => d.open = true)")
    _no_serious_violation(browser)
    assert task(api, sid, running)["status"] == "running"
    release(tmp_path)
    api.http.close()
