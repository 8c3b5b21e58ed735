"""Retry after a rejected admission: the database refuses the admitting transaction mid-way.

PostgreSQL lets the test make that happen for real and on cue: the submission waits in the
queue of a paused session (a free session would log it as it is accepted), a table lock holds
its admission while the page shows `claiming`, and ending the waiting backend (as a failover
or an administrator would) makes the admission fail. The runner reports a discard, the
dock becomes editable again with the person's draft, and a second submit goes through.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from tasksurface.store.engine import normalise_url

from ..conftest import LiveServer
from ..support import Api, wait_for
from .pages import ChatPage, browse_as, wait_until

pytestmark = pytest.mark.browser


def _phase(driver: WebDriver) -> str:
    return str(driver.find_element(By.ID, "task-surface-dock").get_attribute("data-pending-phase") or "")


WAITING_FOR_ME = "SELECT pid FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))"
"""The backends that wait for a lock this connection holds."""


@contextmanager
def log_locked(database_url: str) -> Iterator[Callable[[], None]]:
    """The log's table locked from outside; the function given ends every backend that waits for
    that lock (the app's transaction), as a failover or an administrator would."""
    engine = sa.create_engine(normalise_url(database_url))
    try:
        with engine.connect() as lock:
            lock.exec_driver_sql("BEGIN")
            lock.exec_driver_sql("LOCK TABLE session_events IN EXCLUSIVE MODE")

            def end_waiting() -> None:
                waiting = wait_for(lambda: lock.exec_driver_sql(WAITING_FOR_ME).scalars().all())
                for pid in waiting:
                    lock.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")

            yield end_waiting
            lock.exec_driver_sql("ROLLBACK")
    finally:
        engine.dispose()


def open_plan(
    browser: WebDriver, live_server: LiveServer, draft: str
) -> tuple[Api, ChatPage, str, str, WebElement]:
    """A session with the `plan` panel open in the browser and `draft` typed into it."""
    api = Api(live_server.url)
    sid = api.create_session()
    surface = api.show_surface(sid, "plan")
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    page.dock()
    constraints = page.field("constraints").find_element(By.TAG_NAME, "textarea")
    constraints.send_keys(draft)
    return api, page, sid, surface, constraints


def delivered_once(browser: WebDriver, page: ChatPage, api: Api, sid: str, surface: str, draft: str) -> None:
    """Submit again: the panel closes, the agent reads the draft, and the log holds one answer."""
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    page.wait_dock_gone()
    page.wait_for_agent_text(draft)
    answers = [
        e
        for e in api.events(sid)
        if e["kind"] == "user/message"
        and e["payload"]["source"].get("taskSurface", {}).get("surfaceId") == surface
    ]
    assert len(answers) == 1
    api.http.close()


def test_a_rejected_admission_gives_the_draft_back_and_a_retry_is_delivered_once(
    browser: WebDriver, live_server: LiveServer, database_url: str
) -> None:
    if not database_url.startswith("postgres"):
        pytest.skip("SQLite locks the whole file, so it cannot hold the admission alone")
    api, page, sid, surface, constraints = open_plan(browser, live_server, "only after 18:00")
    page.pause_agent(api, sid)  # the queue bar that appears moves the dock: click after it
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    wait_until(browser, lambda d: _phase(d) == "queued")
    with log_locked(database_url) as end_waiting:
        api.pause(sid, False)
        wait_until(browser, lambda d: _phase(d) == "claiming")
        assert not constraints.is_enabled()
        end_waiting()  # the runner's admission

    # The discard: editable again, the draft back, and the reason in words.
    wait_until(browser, lambda d: _phase(d) == "" and constraints.is_enabled())
    assert constraints.get_attribute("value") == "only after 18:00"
    status = browser.find_element(By.ID, "dock-status").text
    assert "not delivered" in status
    assert api.get_active(sid, surface)["pending"] is None
    assert [e for e in api.events(sid) if e["kind"] == "user/message"][1:] == []
    delivered_once(browser, page, api, sid, surface, "only after 18:00")


def test_a_refused_acceptance_leaves_the_panel_editable_and_a_retry_is_delivered_once(
    browser: WebDriver, live_server: LiveServer, database_url: str
) -> None:
    """A free session's submission is logged by the request's own transaction: when the database
    refuses that transaction, the request fails, nothing is logged, and the same submission sent
    again (it keeps its id) is delivered once."""
    if not database_url.startswith("postgres"):
        pytest.skip("SQLite locks the whole file, so it cannot hold the accepting transaction alone")
    api, page, sid, surface, constraints = open_plan(browser, live_server, "only on weekdays")
    submission_id = browser.find_element(By.CSS_SELECTOR, "input[name=submissionId]").get_attribute("value")
    with log_locked(database_url) as end_waiting:
        browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
        assert not constraints.is_enabled()
        end_waiting()  # the submitting request's own transaction

    # Nothing was accepted: editable again, the draft and the submission's id kept, a reason shown.
    wait_until(browser, lambda d: constraints.is_enabled())
    assert constraints.get_attribute("value") == "only on weekdays"
    assert (
        browser.find_element(By.CSS_SELECTOR, "input[name=submissionId]").get_attribute("value")
        == submission_id
    )
    assert browser.find_element(By.ID, "dock-status").text
    assert api.get_active(sid, surface)["pending"] is None
    assert [e for e in api.events(sid) if e["kind"] == "user/message"][1:] == []
    delivered_once(browser, page, api, sid, surface, "only on weekdays")
    assert [
        e["payload"]["source"]["taskSurface"]["submissionId"]
        for e in api.events(sid)
        if e["kind"] == "user/message" and "taskSurface" in e["payload"]["source"]
    ] == [submission_id]
