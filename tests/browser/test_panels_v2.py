"""Version 2 panels in a real Chromium: constraints shown inline, fields that appear as answers
change, review hunks decided by keyboard, and non-blocking actions sent and withdrawn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import ElementClickInterceptedException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from ..support import Api, wait_for
from .pages import ChatPage, browse_as, wait_until
from .test_accessibility import _no_serious_violation, _open_in

pytestmark = pytest.mark.browser


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """Browser behaviour does not depend on the database; SQLite keeps these quick."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def _open(browser: WebDriver, live_server: LiveServer, demo: str) -> tuple[Api, str, ChatPage]:
    api = Api(live_server.url)
    sid = api.create_session()
    api.show_surface(sid, demo)
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    page.dock()
    return api, sid, page


def click(browser: WebDriver, selector: str) -> None:
    """Scroll the control to the middle of the dock first: the sticky actions cover the bottom."""
    element = browser.find_element(By.CSS_SELECTOR, selector)
    for block in ("center", "start"):
        browser.execute_script("arguments[0].scrollIntoView({block: arguments[1]})", element, block)
        try:
            element.click()
            return
        except ElementClickInterceptedException:
            continue  # near the end of the dock body, the start of the view is clear of the actions
    element.click()


def _messages(api: Api, sid: str) -> list[dict[str, Any]]:
    return [e for e in api.events(sid) if e["kind"] == "user/message"]


def test_constraints_are_shown_beside_their_fields_and_nothing_is_sent(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, _ = _open(browser, live_server, "inputs")
    people = browser.find_element(By.ID, "dock-f-people")
    people.clear()
    people.send_keys("1")
    browser.find_element(By.ID, "dock-f-code").send_keys("ab-12")
    click(browser, "button[data-action=submit]")
    problem = wait_until(
        browser, lambda d: d.find_element(By.CSS_SELECTOR, '[data-field-id="people"] .field-problem')
    )
    assert problem.text == "the smallest allowed is 2"
    code = browser.find_element(By.CSS_SELECTOR, '[data-field-id="code"] .field-problem')
    assert code.text == "this does not have the expected form"
    assert people.get_attribute("aria-invalid") == "true"
    assert browser.switch_to.active_element.get_attribute("id") == "dock-f-people"  # the first problem
    assert len(_messages(api, sid)) == 1  # only the /surface command
    # The pattern never reaches the browser's RegExp: the input carries no pattern attribute.
    code_input = browser.find_element(By.ID, "dock-f-code")
    assert browser.execute_script("return arguments[0].hasAttribute('pattern')", code_input) is False


def test_a_field_appears_when_its_condition_holds_and_only_what_applies_is_sent(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server, "inputs")
    other = browser.find_element(By.CSS_SELECTOR, '[data-field-id="other_stay"]')
    assert not other.is_displayed()
    click(browser, 'label[for="dock-f-stay-o3"]')  # "Something else"
    wait_until(browser, lambda d: other.is_displayed())
    browser.find_element(By.ID, "dock-f-other_stay").send_keys("A tent")
    click(browser, 'label[for="dock-f-stay-o1"]')  # back to the hotel
    wait_until(browser, lambda d: not other.is_displayed())
    for field_id, text in (("budget", "120"), ("start", "05042026")):
        browser.find_element(By.ID, f"dock-f-{field_id}").send_keys(text)
    click(browser, 'label[for="dock-f-city-o7"]')
    click(browser, 'label[for="dock-f-diet-o1"]')
    click(browser, 'label[for="dock-f-terms"]')
    click(browser, "button[data-action=submit]")
    page.wait_dock_gone()
    values = _messages(api, sid)[-1]["payload"]["source"]["taskSurface"]["values"]
    assert "other_stay" not in values and values["stay"] == "hotel"
    assert values["start"] == "2026-05-04" and values["budget"] == 120 and values["people"] == 8
    assert values["city"] == "c7" and values["diet"] == ["veg"] and values["terms"] is True


def test_a_long_list_is_filtered_by_typing(browser: WebDriver, live_server: LiveServer) -> None:
    _open(browser, live_server, "inputs")
    box = browser.find_element(By.ID, "dock-f-city-filter")
    box.send_keys("san")

    def visible(d: WebDriver) -> list[str]:
        options = d.find_elements(By.CSS_SELECTOR, '[data-field-id="city"] .option')
        return [o.text for o in options if o.is_displayed()]

    wait_until(browser, lambda d: visible(d) == ["San Francisco", "Santiago"])
    count = browser.find_element(By.CSS_SELECTOR, '[data-field-id="city"] .option-filter-count')
    assert count.text == "2 of 61 options"
    box.send_keys(Keys.ENTER)  # filtering never submits the panel
    box.send_keys(Keys.ESCAPE)
    wait_until(browser, lambda d: len(visible(d)) == 61)
    assert browser.find_element(By.ID, "task-surface-dock").is_displayed()


def test_review_hunks_are_decided_one_by_one_and_the_choice_submits(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server, "approve")
    click(browser, "button[value=approve]")
    problem = wait_until(
        browser, lambda d: d.find_element(By.CSS_SELECTOR, '[data-field-id="settings"] .field-problem')
    )
    assert problem.text == "3 of 3 changes still need a decision"
    # Keyboard: focus the first hunk's Accept, then arrow keys move within its radio group.
    first = browser.find_element(By.ID, "dock-f-settings-h1-accept")
    browser.execute_script("arguments[0].focus()", first)
    first.send_keys(Keys.SPACE)
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)  # → Reject
    assert browser.switch_to.active_element.get_attribute("id") == "dock-f-settings-h1-reject"
    for hunk in ("h2", "h3"):
        click(browser, f'label[for="dock-f-settings-{hunk}-accept"]')
    browser.find_element(By.ID, "dock-note").send_keys("Keep logs at info")
    click(browser, "button[value=changes]")
    page.wait_dock_gone()
    text = _messages(api, sid)[-1]["payload"]["content"][0]["text"]
    assert "- Decision: Request changes\n" in text and "    rejected: 1 (line 2)" in text
    assert text.endswith("- Reason: Keep logs at info")


def test_actions_are_sent_withdrawn_and_the_panel_stays_open(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server, "approve")
    click(browser, "button[data-panel-action=explain]")
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".action-receipt.receipt-accepted"))
    page.wait_for_agent_text("On it; the panel stays open.")
    assert browser.find_element(By.ID, "task-surface-dock").is_displayed()
    page.pause_agent(api, sid)
    # By keyboard: a key goes to the focused box wherever a late layout moves it; a click could miss.
    steer = browser.find_element(By.CSS_SELECTOR, "input[name=_steer]")
    browser.execute_script("arguments[0].focus()", steer)
    steer.send_keys(Keys.SPACE)
    wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "input[name=_steer]").is_selected())
    click(browser, "button[data-panel-action=dry_run]")
    wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".receipt-queued button[data-withdraw]"))
    assert api.queue(sid)[0]["placement"] == "steering"
    # Found and clicked in one step: a push that redraws the receipts may replace the button between
    # a find and a later click (a person's click lands on the new one at the same place).
    wait_until(browser, _click_withdraw)
    wait_until(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, ".receipt-queued"))
    wait_for(lambda: api.queue(sid) == [])
    assert len(browser.find_elements(By.CSS_SELECTOR, ".action-receipt")) == 1  # the one that was sent


def _click_withdraw(driver: WebDriver) -> bool:
    driver.find_element(By.CSS_SELECTOR, ".receipt-queued button[data-withdraw]").click()
    return True


def test_a_waiting_panel_counts_in_the_tab_title(browser: WebDriver, live_server: LiveServer) -> None:
    api, sid, _ = _open(browser, live_server, "approve")
    wait_until(browser, lambda d: d.title.startswith("(1) "))
    api.dismiss(sid, str(browser.find_element(By.ID, "task-surface-dock").get_attribute("data-surface-id")))
    wait_until(browser, lambda d: not d.title.startswith("("))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("demo", ["inputs", "approve"])
def test_version_two_panels_have_no_serious_violation(
    browser: WebDriver, live_server: LiveServer, scheme: str, demo: str
) -> None:
    api = Api(live_server.url)
    sid = api.create_session()
    api.show_surface(sid, demo)
    _open_in(browser, api, f"{live_server.url}/sessions/{sid}", scheme)
    wait_until(browser, lambda d: d.find_element("id", "task-surface-dock"))
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    _no_serious_violation(browser)
    api.http.close()
