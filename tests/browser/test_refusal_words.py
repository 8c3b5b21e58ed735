"""A refused request is told in the page's language, and what was typed stays for the retry."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tasksurface.services.container import Services

from ..conftest import LiveServer
from ..support import wait_for
from .pages import ChatPage, owned_panel, wait_until

pytestmark = pytest.mark.browser

SERVER_FAILED = {"zh": "服务器未能完成这个请求", "en": "the server could not complete this request"}
NOT_SENT = {"zh": "未发送：{}。", "en": "Not sent: {}."}


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """Page behaviour does not depend on the database; SQLite keeps these quick."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def _failing(*_args: object, **_kwargs: object) -> None:
    raise RuntimeError("the database went away mid-transaction")


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_server_failure_is_told_in_the_page_language_and_the_answer_stays(
    browser: WebDriver,
    live_server: LiveServer,
    services: Services,
    monkeypatch: pytest.MonkeyPatch,
    language: str,
) -> None:
    api, sid = owned_panel(browser, live_server.url, "plan")
    browser.add_cookie({"name": "lang", "value": language, "path": "/"})
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    constraints = page.field("constraints").find_element(By.TAG_NAME, "textarea")
    constraints.send_keys("keep me")
    monkeypatch.setattr(services.surfaces, "submit", _failing)
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    status = browser.find_element(By.ID, "dock-status")
    wait_until(browser, lambda d: NOT_SENT[language].format(SERVER_FAILED[language]) in status.text)
    assert constraints.get_attribute("value") == "keep me" and constraints.is_enabled()

    # The message the composer could not send is told the same way, and stays in the composer.
    monkeypatch.setattr(services.sessions, "send", _failing)
    composer = browser.find_element(By.ID, "composer-text")
    composer.send_keys("hello")
    browser.find_element(By.CSS_SELECTOR, "#composer button[type=submit]").click()
    connection = browser.find_element(By.ID, "connection")
    wait_until(browser, lambda d: connection.text == SERVER_FAILED[language])
    assert composer.get_attribute("value") == "hello"

    # Once the server works again, the same answer is delivered once.
    monkeypatch.undo()
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    page.wait_dock_gone()
    events = wait_for(lambda: (e := api.events(sid))[-1]["kind"] == "assistant/message" and e)
    answers = [e for e in events if e["kind"] == "user/message" and e["payload"]["source"].get("taskSurface")]
    assert len(answers) == 1
    api.http.close()


@pytest.mark.parametrize("language", ["zh", "en"])
def test_why_a_submission_was_not_taken_is_told_in_the_page_language(
    browser: WebDriver, live_server: LiveServer, language: str
) -> None:
    api, sid = owned_panel(browser, live_server.url, "fields")
    browser.add_cookie({"name": "lang", "value": language, "path": "/"})
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()  # the name is required
    reason = {"zh": "请检查标出的字段", "en": "please check the highlighted fields"}[language]
    status = browser.find_element(By.ID, "dock-status")
    wait_until(browser, lambda d: NOT_SENT[language].format(reason) in status.text)
    api.http.close()
