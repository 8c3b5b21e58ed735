"""The composer takeover: the agent's question hides the dock and the composer, never unmounts them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from ..conftest import LiveServer
from ..support import Api, wait_for
from .pages import ChatPage, browse_as, wait_until

pytestmark = pytest.mark.browser

PANEL_AND_QUESTION = "/surface fields\n/ask Should the release include staging? | yes | no"


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """Page behaviour does not depend on the database; SQLite keeps these quick."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def _displayed(driver: WebDriver, element_id: str) -> bool:
    return bool(driver.find_element(By.ID, element_id).is_displayed())


def _attached(element: WebElement) -> bool:
    try:
        element.is_enabled()
        return True
    except StaleElementReferenceException:
        return False


def _active_id(driver: WebDriver) -> str:
    return str(driver.switch_to.active_element.get_attribute("id") or "")


def _open_with_question(browser: WebDriver, live_server: LiveServer) -> tuple[Api, str, ChatPage]:
    api = Api(live_server.url)
    sid = api.create_session()
    api.ask(sid, PANEL_AND_QUESTION)
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    return api, sid, page


def test_the_question_takes_the_composer_area_over_and_the_dock_comes_back_with_its_draft(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open_with_question(browser, live_server)
    takeover = wait_until(browser, lambda d: d.find_element(By.ID, "question-takeover"))
    assert "Should the release include staging?" in takeover.text
    dock = browser.find_element(By.ID, "task-surface-dock")  # mounted, though hidden
    assert not dock.is_displayed()
    assert not _displayed(browser, "composer")

    # "Answer later" gives the dock and the composer back for a while and sends nothing.
    before = api.events(sid)
    browser.find_element(By.CSS_SELECTOR, ".question-later").click()
    wait_until(browser, lambda d: dock.is_displayed())
    assert _displayed(browser, "composer")
    assert _active_id(browser) == "dock-title"
    name = page.field("name").find_element(By.TAG_NAME, "input")
    name.clear()
    name.send_keys("2.1-draft")
    assert api.events(sid) == before

    # Back to the question: the dock hides again, the same element, draft and all.
    browser.find_element(By.CSS_SELECTOR, ".question-resume").click()
    wait_until(browser, lambda d: not dock.is_displayed())
    assert _active_id(browser) == "question-answer"
    browser.find_element(By.CSS_SELECTOR, "button.question-option[value=yes]").click()

    wait_until(browser, lambda d: not d.find_elements(By.ID, "question-takeover"))
    wait_until(browser, lambda d: dock.is_displayed())
    assert _attached(dock)  # never unmounted
    assert name.get_attribute("value") == "2.1-draft"
    assert _displayed(browser, "composer")
    assert _active_id(browser) == "dock-title"
    result = wait_for(lambda: [e for e in api.events(sid) if e["kind"] == "tool/result"][-1:])[0]
    assert result["payload"]["meta"] == {"answer": "yes"}
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".question-answer"))
    assert "yes" in browser.find_element(By.CSS_SELECTOR, ".question-answer").text
    assert api.projection(sid)["active"] is not None  # the panel is still the user's to answer

    browser.refresh()
    page.wait_connected()
    assert page.field("name").find_element(By.TAG_NAME, "input").get_attribute("value") == "2.1-draft"


def test_keyboard_only_answer_with_escape_for_later(browser: WebDriver, live_server: LiveServer) -> None:
    api = Api(live_server.url)
    sid = api.create_session()
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    page.say("/ask What should the codename be?")
    wait_until(browser, lambda d: _active_id(d) == "question-answer")  # focus moves to the answer
    assert not _displayed(browser, "composer")
    outline = browser.execute_script(
        "return getComputedStyle(arguments[0]).outlineStyle", browser.switch_to.active_element
    )
    assert outline != "none"
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_until(browser, lambda d: _displayed(d, "composer") and _active_id(d) == "composer-text")
    browser.find_element(By.CSS_SELECTOR, ".question-resume").send_keys(Keys.ENTER)
    wait_until(browser, lambda d: _active_id(d) == "question-answer")

    answer = browser.switch_to.active_element
    answer.send_keys(Keys.ENTER)  # empty: refused on the page, nothing sent
    problem = browser.find_element(By.ID, "question-problem")
    wait_until(browser, lambda d: problem.is_displayed())
    answer.send_keys("Aurora")
    answer.send_keys(Keys.ENTER)
    page.wait_for_agent_text("Aurora")
    wait_until(browser, lambda d: _displayed(d, "composer") and _active_id(d) == "composer-text")
    kinds = [e["kind"] for e in api.events(sid)]
    assert kinds == ["user/message", "tool/call", "tool/result", "assistant/message"]


def test_a_question_answered_in_another_tab_ends_the_takeover_here(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, _ = _open_with_question(browser, live_server)
    answer = wait_until(browser, lambda d: d.find_element(By.ID, "question-answer"))
    answer.send_keys("x" * 4001)  # the box stops where the server's limit is
    assert len(answer.get_attribute("value") or "") == 4000
    question = api.question(sid)
    assert question is not None
    api.answer(sid, question["callId"], "no")  # the other tab
    wait_until(browser, lambda d: not d.find_elements(By.ID, "question-takeover"))
    assert browser.find_element(By.ID, "task-surface-dock").is_displayed()
    assert _displayed(browser, "composer")
