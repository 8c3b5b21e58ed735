"""Submissions and dismissals go over the open socket; a socket that fails, or has not opened yet,
hands them to HTTP, once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.wait import WebDriverWait

from ..conftest import LiveServer
from ..support import Api, wait_for
from .pages import ChatPage, browse_as, open_panel, wait_until

pytestmark = pytest.mark.browser

SUBMIT_REQUESTS = (
    "return performance.getEntriesByType('resource').filter(e => e.name.endsWith('/submit')).length"
)
# Each socket trouble is made in the page, on the socket the page already holds.
SEND_THEN_CLOSE = """
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  send.call(this, data);
  if (String(data).includes("taskSurface.submit")) this.close();
};"""
# Until the test lets them through, the page's sockets ask for a path the server does not serve, so
# each closes at once.
HOLD_SOCKETS = """
const Native = window.WebSocket;
window.__socketsHeld = true;
window.__heldClosed = 0;
window.WebSocket = class extends Native {
  constructor(url, protocols) {
    const held = window.__socketsHeld;
    super(held ? "ws://" + location.host + "/ws/held" : url, protocols);
    if (held) this.addEventListener("close", () => (window.__heldClosed += 1));
  }
};"""
HELD_TRIES_BEFORE_RELEASE = 4
"""The page's backoff waits 0.5, 1 and 2 s after its first tries: once the fourth has closed it
waits at least 2 s, so a socket open within `BACK_ONLINE_WITHIN` of the release did not wait."""
BACK_ONLINE_WITHIN = 1.0
CLOSE_INSTEAD = """
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (String(data).includes("taskSurface.submit")) this.close();
  else send.call(this, data);
};"""


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """Which transport carries a request does not depend on the database; SQLite keeps these quick."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def _open_plan(browser: WebDriver, live_server: LiveServer) -> tuple[Api, str, ChatPage]:
    return open_panel(browser, live_server.url, "plan")


def _submissions(api: Api, session_id: str) -> list[str]:
    return [
        e["payload"]["messageId"]
        for e in api.settled(session_id)
        if e["kind"] == "user/message" and "taskSurface" in e["payload"]["source"]
    ]


def _submit(browser: WebDriver) -> None:
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()


def test_with_the_socket_open_a_submission_makes_no_http_request(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, session_id, page = _open_plan(browser, live_server)
    _submit(browser)
    page.wait_for_agent_text("Thanks, I have your answers")
    page.wait_dock_gone()
    assert browser.execute_script(SUBMIT_REQUESTS) == 0
    assert len(_submissions(api, session_id)) == 1
    api.http.close()


@pytest.mark.parametrize("trouble", [SEND_THEN_CLOSE, CLOSE_INSTEAD], ids=["after-sending", "before-sending"])
def test_a_socket_lost_before_its_answer_hands_the_submission_to_http_and_one_message_is_made(
    browser: WebDriver, live_server: LiveServer, trouble: str
) -> None:
    api, session_id, page = _open_plan(browser, live_server)
    browser.execute_script(trouble)
    _submit(browser)
    # The page comes back on a new socket and shows the reply; the submission went out over HTTP
    # too, with the same id, so however far the socket got, the log holds one message.
    page.wait_for_agent_text("Thanks, I have your answers")
    page.wait_dock_gone()
    assert browser.execute_script(SUBMIT_REQUESTS) == 1
    assert len(_submissions(api, session_id)) == 1
    assert page.user_bubbles()[-1].startswith("Task Surface: ")
    api.http.close()


def test_a_refusal_over_the_socket_names_the_field_as_over_http(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, session_id, _ = _open_plan(browser, live_server)
    # An order with its options taken out: the server refuses it, beside the field.
    browser.execute_script(
        "document.querySelectorAll('.field[data-field-id=\"steps\"] input[type=hidden]')"
        ".forEach((input) => input.remove())"
    )
    _submit(browser)
    wait_until(
        browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.field.has-problem[data-field-id="steps"]')
    )
    status = browser.find_element(By.ID, "dock-status").text
    assert status.startswith("Not sent:"), status
    assert browser.execute_script(SUBMIT_REQUESTS) == 0
    assert _submissions(api, session_id) == []
    api.http.close()


def test_a_request_too_large_for_a_frame_goes_over_http_and_gets_its_named_refusal(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, session_id, _ = _open_plan(browser, live_server)
    browser.execute_script(
        "document.querySelector('.field[data-field-id=\"constraints\"] textarea').value = 'x'.repeat(70000)"
    )
    _submit(browser)
    wait_until(browser, lambda d: d.find_element(By.ID, "dock-status").text.startswith("Not sent:"))
    # The refusal HTTP gives (submission.too-large), not the socket's frame limit.
    assert "too large to send" in browser.find_element(By.ID, "dock-status").text
    assert browser.execute_script(SUBMIT_REQUESTS) == 1
    assert _submissions(api, session_id) == []
    api.http.close()


@pytest.mark.parametrize("trouble", [None, SEND_THEN_CLOSE], ids=["socket", "lost-socket"])
def test_dismissing_goes_over_the_socket_and_a_lost_one_still_dismisses_once(
    browser: WebDriver, live_server: LiveServer, trouble: str | None
) -> None:
    api, session_id, page = _open_plan(browser, live_server)
    if trouble:
        browser.execute_script(trouble.replace("taskSurface.submit", "taskSurface.dismiss"))
    browser.find_element(By.CSS_SELECTOR, "button[data-action=dismiss]").click()
    page.wait_dock_gone()
    requests = (
        "return performance.getEntriesByType('resource').filter(e => e.name.endsWith('/dismiss')).length"
    )
    assert browser.execute_script(requests) == (1 if trouble else 0)
    dismissals = [e for e in api.settled(session_id) if e["kind"] == "task-surface/dismissed"]
    assert len(dismissals) == 1
    assert api.projection(session_id)["active"] is None
    api.http.close()


def _body(browser: WebDriver, name: str) -> str | None:
    return browser.find_element(By.TAG_NAME, "body").get_attribute(name)


def test_a_click_before_the_socket_opens_submits_over_http_once(
    browser: WebDriver, live_server: LiveServer
) -> None:
    """The controls take input as soon as the page script has them, before its socket opens: the
    submission goes over HTTP, the dock waits disabled, and the socket, once open, settles it."""
    api = Api(live_server.url)
    session_id = api.create_session()
    surface_id = api.show_surface(session_id, "plan")
    browse_as(browser, api)
    held = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOLD_SOCKETS})
    try:
        browser.get(f"{live_server.url}/sessions/{session_id}")
        wait_until(browser, lambda d: _body(d, "data-live") == "true")
        assert _body(browser, "data-connection") in ("connecting", "lost")
        _submit(browser)
        wait_for(lambda: _submissions(api, session_id) or None)
        # Durable, and nobody has told the page yet: it waits with every control disabled.
        assert browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").get_attribute("disabled")
        assert _body(browser, "data-connection") != "open"
        WebDriverWait(browser, 15, poll_frequency=0.05).until(
            lambda d: d.execute_script("return window.__heldClosed") >= HELD_TRIES_BEFORE_RELEASE
        )
        # Back online: the page tries at once instead of waiting out its backoff.
        browser.execute_script("window.__socketsHeld = false; window.dispatchEvent(new Event('online'))")
        WebDriverWait(browser, BACK_ONLINE_WITHIN, poll_frequency=0.05).until(
            lambda d: _body(d, "data-connection") == "open"
        )
    finally:
        browser.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": held["identifier"]}
        )
    page = ChatPage(browser, live_server.url)
    page.wait_for_agent_text("Thanks, I have your answers")
    page.wait_dock_gone()
    assert _body(browser, "data-connection") == "open"
    # The panel closed while the page had no socket: the socket's first message draws its row again.
    row = f'.surface-row[data-surface-id="{surface_id}"]'
    wait_until(
        browser,
        lambda d: "state-submitted" in str(d.find_element(By.CSS_SELECTOR, row).get_attribute("class")),
    )
    assert browser.execute_script(SUBMIT_REQUESTS) == 1
    assert len(_submissions(api, session_id)) == 1
    api.http.close()
