"""The dock as people use it: keyboard only, focus, collapse, rejection, drafts, narrow screens."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from ..support import Api
from .pages import ChatPage, browse_as, wait_until

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


def _active_id(browser: WebDriver) -> str:
    return str(browser.switch_to.active_element.get_attribute("id") or "")


def test_keyboard_only_submit_and_focus_returns_to_the_composer(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server, "plan")
    title = browser.find_element(By.ID, "dock-title")
    title.click()  # start where the dock puts focus when it opens
    # Tab forward until the constraints textarea, type, then Tab to the submit button and press Enter.
    for _ in range(30):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        if _active_id(browser) == "dock-f-constraints":
            break
    assert _active_id(browser) == "dock-f-constraints"
    browser.switch_to.active_element.send_keys("Only after 18:00")
    for _ in range(10):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        if browser.switch_to.active_element.get_attribute("data-action") == "submit":
            break
    focused = browser.switch_to.active_element
    assert focused.get_attribute("data-action") == "submit"
    outline = browser.execute_script("return getComputedStyle(arguments[0]).outlineStyle", focused)
    assert outline != "none"  # visible focus
    browser.execute_script(
        """
        window.__focusTimes = {};
        const slot = document.getElementById('dock-slot');
        new MutationObserver(() => {
          if (!slot.querySelector('#task-surface-dock')) window.__focusTimes.closed ??= performance.now();
        }).observe(slot, {childList: true});
        document.getElementById('composer-text').addEventListener(
          'focus', () => (window.__focusTimes.composer ??= performance.now()));
        """
    )
    focused.send_keys(Keys.ENTER)
    wait_until(browser, lambda d: _active_id(d) == "composer-text")
    page.wait_dock_gone()
    # The panel's close hands focus on in the frame after it, not a waiting panel's moment later.
    times = browser.execute_script("return window.__focusTimes")
    assert 0 <= times["composer"] - times["closed"] < 200, times
    events = api.settled(sid)
    values = [e for e in events if e["kind"] == "user/message"][-1]["payload"]["source"]["taskSurface"][
        "values"
    ]
    assert values["constraints"] == "Only after 18:00"
    api.http.close()


def _pending_submission(browser: WebDriver) -> str:
    """The id of the submission the server acknowledged, once it has; the dock still waits."""
    dock = browser.find_element(By.ID, "task-surface-dock")
    return str(dock.get_attribute("data-pending-submission") or "")


def test_a_panel_waiting_for_a_busy_agent_hands_focus_to_the_composer(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server, "plan")
    page.pause_agent(api, sid)  # the submission is queued: the panel stays, waiting
    submit = browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]")
    browser.execute_script("arguments[0].focus()", submit)
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait_until(browser, lambda d: _active_id(d) == "composer-text")
    dock = browser.find_element(By.ID, "task-surface-dock")
    assert dock.get_attribute("data-pending-phase") == "queued" and _pending_submission(browser)
    api.pause(sid, False)
    page.wait_dock_gone()
    assert _active_id(browser) == "composer-text"
    api.http.close()


def test_focus_the_person_moved_away_from_a_submitted_panel_stays_there(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server, "plan")
    page.pause_agent(api, sid)
    # Submitted, and at once on to the theme switch, before the acknowledgement can arrive.
    browser.execute_script(
        "document.querySelector('button[data-action=submit]').click();"
        "document.getElementById('theme-toggle').focus();"
    )
    wait_until(browser, _pending_submission)
    time.sleep(0.6)  # twice the moment after which a waiting panel hands focus on
    assert _active_id(browser) == "theme-toggle"
    api.pause(sid, False)  # the panel closes, and the reply follows
    page.wait_dock_gone()
    page.wait_for_agent_text("Thanks, I have your answers")
    time.sleep(0.2)  # a frame and more after the close
    assert _active_id(browser) == "theme-toggle"
    api.http.close()


def test_escape_collapses_and_the_button_expands(browser: WebDriver, live_server: LiveServer) -> None:
    api, _, _ = _open(browser, live_server, "review")
    dock = browser.find_element(By.ID, "task-surface-dock")
    toggle = dock.find_element(By.CSS_SELECTOR, ".dock-collapse")
    assert toggle.is_displayed() and toggle.get_attribute("aria-expanded") == "true"
    browser.find_element(By.ID, "dock-title").send_keys(Keys.ESCAPE)
    assert "collapsed" in str(dock.get_attribute("class"))
    assert not browser.find_element(By.ID, "dock-body").is_displayed()
    assert toggle.get_attribute("aria-expanded") == "false" and _active_id(browser) == ""  # focus on toggle
    assert browser.switch_to.active_element == toggle
    toggle.send_keys(Keys.ENTER)
    assert browser.find_element(By.ID, "dock-body").is_displayed()
    api.http.close()


def test_a_rejection_keeps_the_values_and_names_the_field(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server, "fields")
    page.field("notes").find_element(By.TAG_NAME, "textarea").send_keys("kept after the rejection")
    page.field("channel").find_element(By.CSS_SELECTOR, "input[value=beta]").send_keys(Keys.SPACE)
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()  # the name is required
    wait_until(browser, lambda d: "has-problem" in str(page.field("name").get_attribute("class")))
    assert "required" in page.field("name").text
    assert page.field("notes").find_element(By.TAG_NAME, "textarea").get_attribute("value") == (
        "kept after the rejection"
    )
    assert "Not sent: please check the highlighted fields." in browser.find_element(By.ID, "dock-status").text
    assert _active_id(browser) == "dock-f-name"  # focus moves to the first problem
    assert api.queue(sid) == []
    # Fixing it and sending again works, with the values still there.
    browser.switch_to.active_element.send_keys("Aurora")
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    page.wait_dock_gone()
    api.http.close()


def test_a_draft_survives_a_reload_and_stays_in_its_session(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server, "fields")
    page.field("name").find_element(By.TAG_NAME, "input").send_keys("Draft name")
    page.field("announce").find_element(By.CSS_SELECTOR, "input[role=switch]").send_keys(Keys.SPACE)
    page.open(sid)
    page.dock()
    assert page.field("name").find_element(By.TAG_NAME, "input").get_attribute("value") == "Draft name"
    assert page.field("announce").find_element(By.CSS_SELECTOR, "input[role=switch]").is_selected()
    # Nothing of the draft reached the server.
    assert all("Draft name" not in str(e["payload"]) for e in api.events(sid)) and api.queue(sid) == []
    # Another session with the same demo starts clean.
    other = api.create_session()
    api.show_surface(other, "fields")
    page.open(other)
    page.dock()
    assert page.field("name").find_element(By.TAG_NAME, "input").get_attribute("value") == ""
    # Once the submission is durable, the draft is gone.
    page.open(sid)
    page.dock()
    page.field("channel").find_element(By.CSS_SELECTOR, "input[value=stable]").send_keys(Keys.SPACE)
    browser.find_element(By.CSS_SELECTOR, "button[data-action=submit]").click()
    page.wait_dock_gone()
    keys = browser.execute_script(
        "return Object.keys(localStorage).filter(k => k.includes(arguments[0]))", sid
    )
    assert keys == []
    api.http.close()


# Whether the dock's title is as wide as its widest word, so no word is broken across lines.
TITLE_KEEPS_WHOLE_WORDS = """
const title = document.getElementById('dock-title');
const words = title.textContent.trim().split(/\\s+/);
const probe = title.appendChild(document.createElement('span'));
probe.style.whiteSpace = 'nowrap';
const widest = Math.max(...words.map((word) => { probe.textContent = word; return probe.offsetWidth; }));
probe.remove();
return title.getBoundingClientRect().width >= widest;
"""


def test_the_narrow_layout_has_no_sideways_scroll(browser: WebDriver, live_server: LiveServer) -> None:
    browser.set_window_size(360, 800)
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 360, "height": 800, "deviceScaleFactor": 1, "mobile": True},
    )
    api, _, _ = _open(browser, live_server, "all")
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 360
    grid = browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .layout-grid")
    columns = browser.execute_script("return getComputedStyle(arguments[0]).gridTemplateColumns", grid)
    assert len(str(columns).split()) == 1  # the 3-column grid collapsed
    # The title keeps whole words beside its buttons, which stay together, at normal and full height.
    assert browser.execute_script(TITLE_KEEPS_WHOLE_WORDS)
    tools = browser.find_elements(By.CSS_SELECTOR, "#task-surface-dock .dock-tools button")
    assert len(tools) == 2 and len({tool.rect["y"] for tool in tools}) == 1
    browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .dock-expand").click()
    expanded = "return document.body.classList.contains('dock-expanded')"
    wait_until(browser, lambda d: d.execute_script(expanded))
    assert browser.execute_script(TITLE_KEEPS_WHOLE_WORDS)
    api.http.close()


def test_drafts_are_bounded_and_the_oldest_go_first(browser: WebDriver, live_server: LiveServer) -> None:
    api, sid, page = _open(browser, live_server, "fields")
    # Five old drafts of about 60 KB each (as UTF-16 in storage): together over the 256 KB budget.
    browser.execute_script(
        """
        for (let n = 0; n < 5; n++) {
          const draft = {values: {name: 'x'.repeat(30000)}, note: '', savedAt: 1000 + n};
          localStorage.setItem('ts-draft:s_other' + n + ':ts_old', JSON.stringify(draft));
        }
        """
    )
    page.field("name").find_element(By.TAG_NAME, "input").send_keys("fresh")  # saving a draft evicts
    keys = browser.execute_script(
        "return Object.keys(localStorage).filter(k => k.startsWith('ts-draft:')).sort()"
    )
    total = browser.execute_script(
        "return Object.keys(localStorage).filter(k => k.startsWith('ts-draft:'))"
        ".reduce((n, k) => n + (k.length + localStorage.getItem(k).length) * 2, 0)"
    )
    assert total <= 256 * 1024
    assert "ts-draft:s_other0:ts_old" not in keys  # the oldest went first
    assert "ts-draft:s_other4:ts_old" in keys  # the newest old one stayed
    assert any(k.startswith(f"ts-draft:{sid}:") for k in keys)  # and so did the one being edited
    api.http.close()


def _in_view(browser: WebDriver, selector: str) -> bool:
    """The element's box lies inside the visible part of the window and its top is not covered."""
    return bool(
        browser.execute_script(
            "const el = document.querySelector(arguments[0]); const r = el.getBoundingClientRect();"
            "const h = window.visualViewport ? window.visualViewport.height : innerHeight;"
            "const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 12));"
            "return r.top >= 0 && r.bottom <= h && r.height > 0 && hit !== null"
            " && el.contains(hit);",
            selector,
        )
    )


def test_full_height_keeps_the_focused_field_and_submit_in_view_above_a_phone_keyboard(
    browser: WebDriver, live_server: LiveServer
) -> None:
    browser.set_window_size(390, 844)
    api, _, _ = _open(browser, live_server, "fields")
    expand = browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .dock-expand")
    assert expand.is_displayed() and expand.get_attribute("aria-pressed") == "false"
    expand.click()
    wait_until(browser, lambda d: expand.get_attribute("aria-pressed") == "true")
    assert expand.text == "Normal height"
    dock = browser.find_element(By.ID, "task-surface-dock").rect
    window_height = browser.execute_script("return innerHeight")
    assert dock["height"] > 0.8 * window_height  # the panel has the window, not a 250 px scroll box
    # The on-screen keyboard takes the lower 360 px: the visible viewport shrinks to 484 px.
    browser.set_window_size(390, 484)
    name = browser.find_element(By.CSS_SELECTOR, "#dock-f-name")
    name.send_keys("Aurora", Keys.TAB)
    assert _active_id(browser) == "dock-f-notes"
    browser.switch_to.active_element.send_keys("Ships on Friday")
    wait_until(browser, lambda d: _in_view(d, "#dock-f-notes"))
    assert browser.find_element(By.ID, "task-surface-dock").rect["y"] < 16  # no empty band above it
    assert _in_view(browser, "#task-surface-dock button[data-action=submit]")
    expand.click()
    wait_until(browser, lambda d: expand.get_attribute("aria-pressed") == "false")
    api.http.close()


LAST_FIELD = '#task-surface-dock [data-field-id="terms"]'
"""The inputs panel's last field: scrolled to, it takes the first fields out of view."""


def _focus_out_of_view(browser: WebDriver, field: str) -> None:
    """Scrolls the last field into view, then focuses `field` without the browser's own scroll
    to it: only the dock's keep-in-view can then bring the field back."""
    browser.execute_script(
        "document.querySelector(arguments[1]).scrollIntoView({block: 'start'});"
        "document.querySelector(arguments[0]).focus({preventScroll: true});",
        field,
        LAST_FIELD,
    )


def test_with_a_mouse_the_panel_stays_where_the_person_scrolled_it(
    browser: WebDriver, live_server: LiveServer
) -> None:
    """Keeping a focused field above the on-screen keyboard is for touch screens: with a mouse, a
    late scroll back to the field would move another option under the pointer."""
    api, _, _ = _open(browser, live_server, "inputs")
    _focus_out_of_view(browser, "#dock-f-budget")
    assert not _in_view(browser, "#dock-f-budget")

    def top() -> float:
        return float(
            browser.execute_script(
                "return document.querySelector(arguments[0]).getBoundingClientRect().top", LAST_FIELD
            )
        )

    before = top()
    time.sleep(0.6)  # past the delay a touch screen waits for its keyboard
    assert top() == before
    assert _active_id(browser) == "dock-f-budget"
    api.http.close()


def test_on_a_touch_screen_the_focused_field_comes_back_into_view(
    browser: WebDriver, live_server: LiveServer
) -> None:
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    try:
        api, _, _ = _open(browser, live_server, "inputs")
        _focus_out_of_view(browser, "#dock-f-budget")
        assert not _in_view(browser, "#dock-f-budget")
        wait_until(browser, lambda d: _in_view(d, "#dock-f-budget"))  # where the keyboard leaves room
        api.http.close()
    finally:
        browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
