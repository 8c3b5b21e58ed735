"""Reordering an order field by dragging (Pointer Events, driven with a real mouse in Chromium)."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from ..conftest import LiveServer
from ..support import Api
from .pages import ChatPage, open_panel, order_of, wait_until

pytestmark = pytest.mark.browser

FIELD = "steps"  # the "plan" demo's order field
START = ["backup", "schema", "switch", "verify"]
DRAGGED = ["schema", "switch", "verify", "backup"]  # the first item dropped below the last


def _open(browser: WebDriver, live_server: LiveServer) -> tuple[Api, str, ChatPage]:
    opened = open_panel(browser, live_server.url, "plan")
    _show_list(browser)
    return opened


def _show_list(browser: WebDriver) -> None:
    """The pointer can only reach what is on screen: bring the list into the dock's view."""
    browser.execute_script(
        "arguments[0].scrollIntoView({block: 'center'})",
        browser.find_element(By.CSS_SELECTOR, f'#task-surface-dock [data-order-field="{FIELD}"]'),
    )


def _item(browser: WebDriver, option_id: str) -> WebElement:
    selector = f'#task-surface-dock .order-item[data-option-id="{option_id}"]'
    return browser.find_element(By.CSS_SELECTOR, selector)


def _press_and_move(browser: WebDriver, grab: str, below: str, steps: int = 6) -> ActionChains:
    """Press on one item's text and move the pointer, in steps, to just above the bottom of another."""
    handle = _item(browser, grab).find_element(By.CSS_SELECTOR, ".order-text")
    target = _item(browser, below)
    start_y = handle.rect["y"] + handle.rect["height"] / 2
    distance = int(target.rect["y"] + target.rect["height"] - 4 - start_y)
    actions = ActionChains(browser, duration=40).click_and_hold(handle)
    for n in range(steps):
        actions.move_by_offset(0, distance * (n + 1) // steps - distance * n // steps)
    return actions


def _announcement(browser: WebDriver) -> str:
    return str(
        browser.find_element(By.CSS_SELECTOR, "body > p.visually-hidden[aria-live=polite]").get_attribute(
            "textContent"
        )
    )


def _dragging(browser: WebDriver) -> list[WebElement]:
    return browser.find_elements(By.CSS_SELECTOR, ".order-item.dragging")


def _touch_action(browser: WebDriver, option_id: str) -> str:
    script = "return getComputedStyle(arguments[0]).touchAction"
    return str(browser.execute_script(script, _item(browser, option_id)))


def _button_disabled(browser: WebDriver, option_id: str, move: str) -> str:
    button = _item(browser, option_id).find_element(By.CSS_SELECTOR, f"[data-move={move}]")
    return str(button.get_attribute("aria-disabled"))


def test_dragging_the_first_item_below_the_last_reorders_and_submits_that_order(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server)
    assert order_of(browser, FIELD) == START
    assert _touch_action(browser, "backup") == "none"  # panning stays with the page elsewhere
    _press_and_move(browser, "backup", below="verify").release().perform()

    assert order_of(browser, FIELD) == DRAGGED
    assert _dragging(browser) == []
    assert _button_disabled(browser, "schema", "up") == "true"
    assert _button_disabled(browser, "backup", "down") == "true"
    assert _button_disabled(browser, "backup", "up") == "false"
    wait_until(browser, lambda d: _announcement(d) == "Take a full backup, position 4 of 4")
    # The hidden inputs moved with their items, so the plain form carries the dragged order too.
    inputs = browser.find_elements(By.CSS_SELECTOR, f'#dock-form input[type=hidden][name="f.{FIELD}"]')
    assert [i.get_attribute("value") for i in inputs] == DRAGGED

    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    page.wait_dock_gone()
    events = api.settled(sid)
    message = [e for e in events if e["kind"] == "user/message"][-1]["payload"]
    assert message["source"]["taskSurface"]["values"][FIELD] == DRAGGED
    wait_until(
        browser,
        lambda d: (
            "1. Apply schema changes, 2. Switch traffic, 3. Verify dashboards, 4. Take a full backup"
            in page.user_bubbles()[-1]
        ),
    )
    api.http.close()


def test_the_dragged_order_is_kept_as_a_draft_across_a_reload(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server)
    _press_and_move(browser, "backup", below="verify").release().perform()
    assert order_of(browser, FIELD) == DRAGGED
    page.open(sid)
    page.dock()
    assert order_of(browser, FIELD) == DRAGGED
    assert _button_disabled(browser, "schema", "up") == "true"
    assert api.queue(sid) == []  # a draft, nothing sent
    api.http.close()


def test_a_click_moves_nothing_and_escape_puts_the_item_back(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, _, _ = _open(browser, live_server)
    text = _item(browser, "switch").find_element(By.CSS_SELECTOR, ".order-text")
    ActionChains(browser).click(text).perform()
    assert order_of(browser, FIELD) == START
    assert _dragging(browser) == []

    # Mid-drag the item already sits in its new slot, lifted.
    _press_and_move(browser, "backup", below="verify").perform()
    assert order_of(browser, FIELD) == DRAGGED
    assert [e.get_attribute("data-option-id") for e in _dragging(browser)] == ["backup"]
    # Focus inside the dock, where Escape would otherwise also collapse it.
    browser.execute_script("document.getElementById('dock-title').focus()")
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    assert order_of(browser, FIELD) == START
    assert _dragging(browser) == []
    # Escape ended the drag only; it did not also collapse the dock.
    assert "collapsed" not in str(browser.find_element(By.ID, "task-surface-dock").get_attribute("class"))
    # Moving on and letting go after the cancel changes nothing either.
    ActionChains(browser, duration=40).move_by_offset(0, -20).release().perform()
    assert order_of(browser, FIELD) == START
    assert _item(browser, "backup").get_attribute("style") in ("", None)
    assert _announcement(browser) == ""
    api.http.close()


def test_nothing_drags_while_a_submission_is_pending(browser: WebDriver, live_server: LiveServer) -> None:
    api, sid, page = _open(browser, live_server)
    page.pause_agent(api, sid)  # the submission stays queued
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    wait_until(
        browser,
        lambda d: d.find_element(By.ID, "task-surface-dock").get_attribute("data-pending-phase") == "queued",
    )
    assert _touch_action(browser, "backup") == "auto"  # a frozen list lets touch scroll the page
    _show_list(browser)
    _press_and_move(browser, "backup", below="verify").perform()
    assert _dragging(browser) == []
    ActionChains(browser).release().perform()
    assert order_of(browser, FIELD) == START
    queued = api.queue(sid)
    assert len(queued) == 1
    # Taking the answer back out of the queue makes the dock editable, and dragging works again.
    response = api.post(f"/api/sessions/{sid}/queue/{queued[0]['id']}", {"action": "remove"})
    assert response.status_code == 200, response.text
    wait_until(
        browser,
        lambda d: d.find_element(By.ID, "task-surface-dock").get_attribute("data-pending-phase") == "",
    )
    _show_list(browser)
    _press_and_move(browser, "backup", below="verify").release().perform()
    assert order_of(browser, FIELD) == DRAGGED
    api.http.close()
