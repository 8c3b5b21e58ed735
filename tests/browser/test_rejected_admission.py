"""Retry after a rejected admission: the database refuses the admitting transaction mid-way.

PostgreSQL lets the test make that happen for real and on cue: the submission waits in the
queue of a paused session (a free session would log it as it is accepted), a table lock holds
its admission while the page shows `claiming`, and ending the waiting backend (as a failover
or an administrator would) makes the admission fail. The runner reports a discard, the
dock becomes editable again with the person's draft, and a second submit goes through.
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tasksurface.store.engine import normalise_url

from ..conftest import LiveServer
from ..support import Api, wait_for
from .pages import ChatPage, browse_as, wait_until

pytestmark = pytest.mark.browser


def _phase(driver: WebDriver) -> str:
    return str(driver.find_element(By.ID, "task-surface-dock").get_attribute("data-pending-phase") or "")


def test_a_rejected_admission_gives_the_draft_back_and_a_retry_is_delivered_once(
    browser: WebDriver, live_server: LiveServer, database_url: str
) -> None:
    if not database_url.startswith("postgres"):
        pytest.skip("SQLite locks the whole file, so it cannot hold the admission alone")
    api = Api(live_server.url)
    sid = api.create_session()
    surface = api.show_surface(sid, "plan")
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    page.dock()
    constraints = page.field("constraints").find_element(By.TAG_NAME, "textarea")
    constraints.send_keys("only after 18:00")
    api.pause(sid)
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    wait_until(browser, lambda d: _phase(d) == "queued")

    engine = sa.create_engine(normalise_url(database_url))
    try:
        with engine.connect() as lock:
            lock.exec_driver_sql("BEGIN")
            lock.exec_driver_sql("LOCK TABLE session_events IN EXCLUSIVE MODE")
            api.pause(sid, False)
            wait_until(browser, lambda d: _phase(d) == "claiming")
            assert not constraints.is_enabled()
            waiting = wait_for(
                lambda: (
                    lock.exec_driver_sql(
                        # Only the backends that wait for this very lock: the app's admission.
                        "SELECT pid FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))"
                    )
                    .scalars()
                    .all()
                )
            )
            for pid in waiting:
                lock.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
            lock.exec_driver_sql("ROLLBACK")
    finally:
        engine.dispose()

    # The discard: editable again, the draft back, and the reason in words.
    wait_until(browser, lambda d: _phase(d) == "" and constraints.is_enabled())
    assert constraints.get_attribute("value") == "only after 18:00"
    status = browser.find_element(By.ID, "dock-status").text
    assert "not delivered" in status
    assert api.get_active(sid, surface)["pending"] is None
    assert [e for e in api.events(sid) if e["kind"] == "user/message"][1:] == []

    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    page.wait_dock_gone()
    page.wait_for_agent_text("only after 18:00")
    answers = [
        e
        for e in api.events(sid)
        if e["kind"] == "user/message"
        and e["payload"]["source"].get("taskSurface", {}).get("surfaceId") == surface
    ]
    assert len(answers) == 1
    api.http.close()


def test_a_refused_acceptance_leaves_the_panel_editable_and_a_retry_is_delivered_once(
    browser: WebDriver, live_server: LiveServer, database_url: str
) -> None:
    """A free session's submission is logged by the request's own transaction: when the database
    refuses that transaction, the request fails, nothing is logged, and the same submission sent
    again (it keeps its id) is delivered once."""
    if not database_url.startswith("postgres"):
        pytest.skip("SQLite locks the whole file, so it cannot hold the accepting transaction alone")
    api = Api(live_server.url)
    sid = api.create_session()
    surface = api.show_surface(sid, "plan")
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    page.dock()
    constraints = page.field("constraints").find_element(By.TAG_NAME, "textarea")
    constraints.send_keys("only on weekdays")
    submission_id = browser.find_element(By.CSS_SELECTOR, "input[name=submissionId]").get_attribute("value")

    engine = sa.create_engine(normalise_url(database_url))
    try:
        with engine.connect() as lock:
            lock.exec_driver_sql("BEGIN")
            lock.exec_driver_sql("LOCK TABLE session_events IN EXCLUSIVE MODE")
            browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
            waiting = wait_for(
                lambda: (
                    lock.exec_driver_sql(
                        "SELECT pid FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))"
                    )
                    .scalars()
                    .all()
                )
            )
            assert not constraints.is_enabled()
            for pid in waiting:
                lock.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
            lock.exec_driver_sql("ROLLBACK")
    finally:
        engine.dispose()

    # Nothing was accepted: editable again, the draft and the submission's id kept.
    wait_until(browser, lambda d: constraints.is_enabled())
    assert constraints.get_attribute("value") == "only on weekdays"
    assert (
        browser.find_element(By.CSS_SELECTOR, "input[name=submissionId]").get_attribute("value")
        == submission_id
    )
    assert browser.find_element(By.ID, "dock-status").text
    assert api.get_active(sid, surface)["pending"] is None
    assert [e for e in api.events(sid) if e["kind"] == "user/message"][1:] == []

    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    page.wait_dock_gone()
    page.wait_for_agent_text("only on weekdays")
    answers = [
        e
        for e in api.events(sid)
        if e["kind"] == "user/message"
        and e["payload"]["source"].get("taskSurface", {}).get("surfaceId") == surface
    ]
    assert len(answers) == 1
    assert answers[0]["payload"]["source"]["taskSurface"]["submissionId"] == submission_id
    api.http.close()
