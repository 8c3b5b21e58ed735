"""The seed's browser composition list, walked with the scripted agent (no key, no network)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from ..server_process import ServerProcess
from ..support import wait_for
from .pages import ChatPage, is_connected, open_panel, wait_until

pytestmark = pytest.mark.browser


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """Page behaviour does not depend on the database; SQLite keeps these quick."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def _phase(driver: WebDriver) -> str:
    return str(driver.find_element(By.ID, "task-surface-dock").get_attribute("data-pending-phase") or "")


def _submit_enabled(driver: WebDriver) -> bool:
    return bool(driver.find_element(By.CSS_SELECTOR, "button[data-action=submit]").is_enabled())


def test_queued_then_discarded_by_removing_the_row_gives_the_draft_back(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = open_panel(browser, live_server.url, "plan")
    page.pause_agent(api, sid)
    page.field("constraints").find_element(By.TAG_NAME, "textarea").send_keys("keep me")
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    wait_until(browser, lambda d: _phase(d) == "queued" and not _submit_enabled(d))
    assert not page.field("constraints").find_element(By.TAG_NAME, "textarea").is_enabled()
    # The queued row is visible with its label; removing it is a discard.
    row = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#queue .queue-item"))
    assert "Panel answer" in row.text
    row.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_until(browser, lambda d: _phase(d) == "" and _submit_enabled(d))
    textarea = page.field("constraints").find_element(By.TAG_NAME, "textarea")
    assert textarea.is_enabled() and textarea.get_attribute("value") == "keep me"
    assert "not delivered" in browser.find_element(By.ID, "dock-status").text
    api.http.close()


def test_resuming_hands_off_with_no_editable_moment(browser: WebDriver, live_server: LiveServer) -> None:
    api, sid, page = open_panel(browser, live_server.url, "plan")
    page.pause_agent(api, sid)
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    wait_until(browser, lambda d: _phase(d) == "queued")
    # Record every state the dock goes through until it closes.
    browser.execute_script(
        """
        window.__dockStates = [];
        const slot = document.getElementById('dock-slot');
        const record = () => {
          const dock = document.getElementById('task-surface-dock');
          const submit = dock && dock.querySelector('button[data-action=submit]');
          window.__dockStates.push(dock ? (submit.disabled ? 'disabled' : 'editable') : 'closed');
        };
        new MutationObserver(record).observe(slot, {subtree: true, attributes: true, childList: true});
        """
    )
    api.pause(sid, False)
    page.wait_dock_gone()
    states = browser.execute_script("return window.__dockStates")
    assert "editable" not in states and states[-1] == "closed"
    page.wait_for_agent_text("Thanks, I have your answers")
    api.http.close()


def test_a_double_click_on_submit_makes_one_message(browser: WebDriver, live_server: LiveServer) -> None:
    api, sid, _ = open_panel(browser, live_server.url, "plan")
    browser.execute_script(
        "const b = document.querySelector('button[data-action=submit]'); b.click(); b.click(); b.click();"
    )
    # The acknowledgement follows an admitted submission, and by then the panel is closed: no later
    # click can still add a message, so the log read after it holds every one there will be.
    ChatPage(browser, live_server.url).wait_for_agent_text("Thanks, I have your answers")
    events = api.settled(sid)
    assert (
        sum(1 for e in events if e["kind"] == "user/message" and "taskSurface" in e["payload"]["source"]) == 1
    )
    api.http.close()


def test_forbidden_queue_actions_leave_the_row_alone(browser: WebDriver, live_server: LiveServer) -> None:
    api, sid, page = open_panel(browser, live_server.url, "plan")
    page.pause_agent(api, sid)
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    wait_until(browser, lambda d: _phase(d) == "queued")
    [row] = api.queue(sid)
    for action in ("edit", "steer"):
        refused = api.post(f"/api/sessions/{sid}/queue/{row['id']}", {"action": action, "text": "changed"})
        assert refused.status_code == 409
    assert api.queue(sid) == [row] and _phase(browser) == "queued"
    api.http.close()


def test_reconnect_after_the_server_restarts(browser: WebDriver, database_url: str, tmp_path: Path) -> None:
    server = ServerProcess(database_url, tmp_path / "instance").start()
    try:
        api, sid, page = open_panel(browser, server.url, "plan")
        page.field("constraints").find_element(By.TAG_NAME, "textarea").send_keys("typed before the restart")
        server.kill()
        wait_until(browser, lambda d: "Reconnecting" in d.find_element(By.ID, "connection").text)
        server.start()
        wait_until(browser, is_connected)
        # Nothing the person typed was lost, and the page still follows the log.
        assert page.field("constraints").find_element(By.TAG_NAME, "textarea").get_attribute("value") == (
            "typed before the restart"
        )
        api.send(sid, "never mind")
        page.wait_dock_gone()
        wait_for(lambda: "You said: never mind" in browser.page_source)
        api.http.close()
    finally:
        server.stop()
