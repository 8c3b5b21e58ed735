"""The whole way in a real browser: show a surface, fill every field, submit, see one message."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from ..support import wait_for
from .pages import ChatPage, api_for, order_of, owned_panel, wait_until

pytestmark = pytest.mark.browser


def test_fill_and_submit_every_field_kind(browser: WebDriver, live_server: LiveServer) -> None:
    page = ChatPage(browser, live_server.url)
    session_id = page.start_session()
    page.say("/surface fields")
    dock = page.dock()
    wait_until(browser, lambda d: d.switch_to.active_element == d.find_element(By.ID, "dock-title"))
    assert dock.find_element(By.ID, "dock-title").text == "Release checklist"

    page.field("name").find_element(By.TAG_NAME, "input").send_keys("Aurora 1.4")
    notes = page.field("notes").find_element(By.TAG_NAME, "textarea")
    notes.send_keys("Faster start-up")
    notes.send_keys(Keys.SHIFT, Keys.ENTER)
    notes.send_keys("Fewer crashes")
    page.field("channel").find_element(By.CSS_SELECTOR, "input[value=beta]").send_keys(Keys.SPACE)
    for platform in ("linux", "win"):
        page.field("platforms").find_element(By.CSS_SELECTOR, f"input[value={platform}]").send_keys(
            Keys.SPACE
        )
    page.field("announce").find_element(By.CSS_SELECTOR, "input[role=switch]").send_keys(Keys.SPACE)
    # Keyboard reorder: move "Asia" to the top with its "up" button, twice.
    up = page.field("rollout").find_element(By.CSS_SELECTOR, '[data-option-id="asia"] [data-move=up]')
    up.send_keys(Keys.ENTER)
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    assert order_of(browser, "rollout") == ["asia", "eu", "us"]
    browser.find_element(By.ID, "dock-note").send_keys("Ship on Monday")
    dock.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()

    page.wait_for_agent_text("Thanks, I have your answers")
    page.wait_dock_gone()
    expected = [
        "Task Surface: Release checklist",
        "- Release name: Aurora 1.4",
        "- Release notes:",
        "    Faster start-up",
        "    Fewer crashes",
        "- Channel: Beta",
        "- Platforms: Linux, Windows",
        "- Announce on the blog: yes",
        "- Rollout order: 1. Asia, 2. Europe, 3. Americas",
        "- Note: Ship on Monday",
    ]
    assert page.user_bubbles() == ["/surface fields", "\n".join(expected)]
    state_before_reload = page.user_bubbles(), page.agent_bubbles()

    page.open(session_id)
    assert (page.user_bubbles(), page.agent_bubbles()) == state_before_reload
    assert browser.find_elements(By.ID, "task-surface-dock") == []
    row = browser.find_element(By.CSS_SELECTOR, ".surface-row")
    assert "submitted" in row.find_element(By.CSS_SELECTOR, ".state-badge").text

    with api_for(browser, live_server.url) as api:
        events = api.events(session_id)
    submissions = [
        e for e in events if e["kind"] == "user/message" and "taskSurface" in e["payload"]["source"]
    ]
    assert len(submissions) == 1
    assert submissions[0]["payload"]["source"]["taskSurface"]["values"]["rollout"] == ["asia", "eu", "us"]


def test_the_dock_submits_as_a_plain_form_without_javascript(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, session_id = owned_panel(browser, live_server.url, "plan")
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    browser.get(f"{live_server.url}/sessions/{session_id}")
    # Without script, the order's move buttons post the form and the page answers with the moved order.
    browser.find_element(By.CSS_SELECTOR, '[data-option-id="verify"] [data-move=up]').click()
    wait_until(browser, lambda d: order_of(d) == ["backup", "schema", "verify", "switch"])
    browser.find_element(By.CSS_SELECTOR, '.field[data-field-id="constraints"] textarea').send_keys(
        "Not on Friday"
    )
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    # The click starts a navigation; the submission is proven by its message in the log.
    submitted = wait_for(
        lambda: next(
            (
                e["payload"]
                for e in api.events(session_id)
                if e["kind"] == "user/message" and "taskSurface" in e["payload"]["source"]
            ),
            None,
        )
    )
    assert submitted["source"]["taskSurface"]["values"] == {
        "steps": ["backup", "schema", "verify", "switch"],
        "constraints": "Not on Friday",
    }
    browser.get(f"{live_server.url}/sessions/{session_id}")
    assert browser.find_elements(By.ID, "task-surface-dock") == []

    # Without script nothing is pushed: the reader reloads until the agent's reply is there.
    def reloaded_with_reply() -> bool:
        browser.get(f"{live_server.url}/sessions/{session_id}")
        return "Thanks, I have your answers" in browser.page_source

    wait_for(reloaded_with_reply, interval=0.2)
