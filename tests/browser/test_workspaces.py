"""The rich workspaces in a real Chromium: a comparison searched, grouped, sorted and
shortlisted; a dashboard explored; an itinerary reordered by keyboard and by dragging; a
workspace whose script fails, with the rest of the panel working and Retry restoring it."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tasksurface.backends.demos import COMPARE_CARDS

from ..conftest import LiveServer
from ..support import Api
from .pages import ChatPage, browse_as, wait_until
from .test_accessibility import _no_serious_violation, _open_in
from .test_panels_v2 import _messages, click

pytestmark = pytest.mark.browser


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """Browser behaviour does not depend on the database; SQLite keeps these quick."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def _open(
    browser: WebDriver, live_server: LiveServer, demo: str, model: dict[str, Any] | None = None
) -> tuple[Api, str, ChatPage]:
    api = Api(live_server.url)
    sid = api.create_session()
    if model is None:
        api.show_surface(sid, demo)
    else:
        api.show_model(sid, model)
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    page.open(sid)
    page.dock()
    return api, sid, page


def _ready(browser: WebDriver, kind: str) -> None:
    wait_until(
        browser,
        lambda d: (
            d.find_element(By.CSS_SELECTOR, f'#task-surface-dock [data-workspace="{kind}"]').get_attribute(
                "data-workspace-state"
            )
            == "ready"
        ),
    )


def _shown_cards(browser: WebDriver) -> list[str]:
    return [
        str(c.get_attribute("data-candidate-id"))
        for c in browser.find_elements(By.CSS_SELECTOR, "#task-surface-dock .candidate")
        if c.is_displayed()
    ]


def test_a_comparison_is_searched_grouped_sorted_and_shortlisted(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server, "compare-cards")
    _ready(browser, "comparison")
    search = browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .candidate-search")
    search.send_keys("14-inch")
    wait_until(browser, lambda d: _shown_cards(d) == ["x13", "p14", "fw14"])  # x13 stays: it is chosen
    browser.execute_script("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input'))", search)
    sort = browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .candidate-sort")
    browser.execute_script(
        "arguments[0].value = 'price'; arguments[0].dispatchEvent(new Event('change'))", sort
    )
    wait_until(browser, lambda d: _shown_cards(d) == ["fw14", "air13", "x13", "p14"])
    browser.execute_script(
        "arguments[0].value = 'p:weight'; arguments[0].dispatchEvent(new Event('change'))", sort
    )
    wait_until(browser, lambda d: _shown_cards(d) == ["x13", "air13", "fw14", "p14"])
    group = browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .candidate-group")
    browser.execute_script(
        "arguments[0].value = 'group'; arguments[0].dispatchEvent(new Event('change'))", group
    )
    headings = [
        h.text for h in browser.find_elements(By.CSS_SELECTOR, "#task-surface-dock .candidate-group-heading")
    ]
    assert [h.upper() for h in headings] == ["13-INCH", "14-INCH"]
    click(browser, '#task-surface-dock .candidate[data-candidate-id="fw14"] .shortlist-toggle')
    click(browser, '#task-surface-dock .candidate[data-candidate-id="air13"] .shortlist-toggle')
    click(browser, "#task-surface-dock .shortlist-filter")
    wait_until(browser, lambda d: set(_shown_cards(d)) == {"air13", "fw14", "x13"})
    page.open(sid)  # the shortlist is kept while exploring, across a reload
    _ready(browser, "comparison")
    pressed = browser.find_element(
        By.CSS_SELECTOR, '#task-surface-dock .candidate[data-candidate-id="fw14"] .shortlist-toggle'
    )
    assert pressed.get_attribute("aria-pressed") == "true"
    click(browser, '#task-surface-dock label[for="dock-f-laptop-c4"]')
    click(browser, "button[data-action=submit]")
    page.wait_dock_gone()
    assert _messages(api, sid)[-1]["payload"]["content"][0]["text"].startswith(
        "Task Surface: Pick a laptop for the new hire\n- Laptop: Frame 14\n"
    )


def test_a_dashboard_is_explored_and_its_summary_follows(browser: WebDriver, live_server: LiveServer) -> None:
    api, sid, _ = _open(browser, live_server, "dashboard")
    _ready(browser, "dashboard")
    assert not browser.find_element(By.CSS_SELECTOR, ".dashboard-controls .no-script-only").is_displayed()
    controls = {
        name: browser.find_element(By.CSS_SELECTOR, f'#task-surface-dock select[name$=".{name}"]')
        for name in ("metric", "from", "to")
    }
    for name, value in (("metric", "active"), ("from", "6"), ("to", "9")):
        browser.execute_script(
            "arguments[0].value = arguments[1];"
            "arguments[0].dispatchEvent(new Event('change', {bubbles: true}))",
            controls[name],
            value,
        )
    wait_until(
        browser,
        lambda d: (
            "Activated, W7 to W10"
            in d.find_element(By.CSS_SELECTOR, "#task-surface-dock .dashboard-caption").text
        ),
    )
    summary = browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .dashboard-summary").text
    assert "454" in summary and "151.333" in summary and "133" in summary and "171" in summary
    assert len(_messages(api, sid)) == 1  # exploring sent nothing


def _stops(browser: WebDriver) -> list[str]:
    return [
        str(li.get_attribute("data-option-id"))
        for li in browser.find_elements(By.CSS_SELECTOR, "#task-surface-dock .stops .stop")
    ]


def test_an_itinerary_is_reordered_by_keyboard_and_dragging_and_stops_come_and_go(
    browser: WebDriver, live_server: LiveServer
) -> None:
    api, sid, page = _open(browser, live_server, "itinerary")
    _ready(browser, "itinerary")
    assert _stops(browser) == ["belem", "pasteis", "timeout", "castle"]
    click(browser, '#task-surface-dock .stop[data-option-id="castle"] [data-move=up]')
    wait_until(browser, lambda d: _stops(d) == ["belem", "pasteis", "castle", "timeout"])
    click(browser, '#task-surface-dock .place[data-place-id="monte"] .place-add')
    wait_until(browser, lambda d: _stops(d)[-1] == "monte")
    number = browser.find_element(
        By.CSS_SELECTOR, '#task-surface-dock .map-place[data-place-id="monte"] .map-stop-number'
    )
    assert number.text == "5"
    click(browser, '#task-surface-dock .stop[data-option-id="pasteis"] [data-itinerary=remove]')
    wait_until(browser, lambda d: _stops(d) == ["belem", "castle", "timeout", "monte"])
    points = (
        browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .map-route").get_attribute("points") or ""
    )
    assert len(points.split()) == 4
    # Drag the first stop below the last one.
    handle = browser.find_element(
        By.CSS_SELECTOR, '#task-surface-dock .stop[data-option-id="belem"] .order-text'
    )
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", handle)
    target = browser.find_element(By.CSS_SELECTOR, '#task-surface-dock .stop[data-option-id="monte"]')
    distance = int(
        target.rect["y"] + target.rect["height"] - 4 - (handle.rect["y"] + handle.rect["height"] / 2)
    )
    actions = ActionChains(browser, duration=40).click_and_hold(handle)
    for n in range(6):
        actions.move_by_offset(0, distance * (n + 1) // 6 - distance * n // 6)
    actions.release().perform()
    wait_until(browser, lambda d: _stops(d) == ["castle", "timeout", "monte", "belem"])
    click(browser, "button[data-action=submit]")
    page.wait_dock_gone()
    text = _messages(api, sid)[-1]["payload"]["content"][0]["text"]
    assert text.endswith(
        "- The day's stops: 1. São Jorge Castle, 2. Time Out Market, 3. Miradouro da Senhora do Monte, "
        "4. Belém Tower"
    )


def test_a_workspace_whose_script_fails_keeps_its_form_and_retry_restores_it(
    browser: WebDriver, live_server: LiveServer
) -> None:
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/assets/workspaces.*"]})
    api, sid, _ = _open(browser, live_server, "compare-cards")
    workspace = browser.find_element(By.CSS_SELECTOR, '#task-surface-dock [data-workspace="comparison"]')
    wait_until(browser, lambda d: workspace.get_attribute("data-workspace-state") == "failed")
    note = browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .workspace-failed")
    assert "still works as a plain form" in note.text
    assert not browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .workspace-tools").is_displayed()
    browser.find_element(By.ID, "dock-f-why").send_keys("Must run Linux")  # the rest of the panel works
    assert browser.find_element(By.ID, "dock-f-why").get_attribute("value") == "Must run Linux"
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    click(browser, "#task-surface-dock .workspace-retry")
    wait_until(browser, lambda d: workspace.get_attribute("data-workspace-state") == "ready")
    assert browser.find_element(By.CSS_SELECTOR, "#task-surface-dock .workspace-tools").is_displayed()
    assert len(_messages(api, sid)) == 1  # nothing was submitted


def test_a_workspace_that_throws_stays_inside_its_panel(browser: WebDriver, live_server: LiveServer) -> None:
    model = copy.deepcopy(COMPARE_CARDS)
    _, _, page = _open(browser, live_server, "", model)
    workspace = browser.find_element(By.CSS_SELECTOR, '#task-surface-dock [data-workspace="comparison"]')
    wait_until(browser, lambda d: workspace.get_attribute("data-workspace-state") == "ready")
    # Break its markup and start it again: its init throws, the failure stays in the workspace.
    browser.execute_script(
        "const w = arguments[0]; w.querySelector('.candidates').remove(); delete w.dataset.workspaceState;"
        "window.TaskSurfacePage.workspaces.scan();",
        workspace,
    )
    wait_until(browser, lambda d: workspace.get_attribute("data-workspace-state") == "failed")
    assert browser.find_element(By.ID, "task-surface-dock").is_displayed()
    page.say("still here")
    page.wait_for_agent_text("You said: still here")


IMAGE_FAILED = "return [...document.images].some((img) => img.complete && img.naturalWidth === 0)"


@pytest.mark.parametrize("script_last", [False, True], ids=["as-it-comes", "image-failed-before-the-script"])
def test_a_missing_image_keeps_its_card_and_selection(
    browser: WebDriver, live_server: LiveServer, script_last: bool
) -> None:
    model = copy.deepcopy(COMPARE_CARDS)
    model["fields"][0]["candidates"][0]["image"] = {"path": "nowhere/aero.png", "alt": "Aero 13, closed"}
    if not script_last:
        _open(browser, live_server, "", model)
    else:  # hold the page script back until the image has failed, then let it run
        api = Api(live_server.url)
        sid = api.create_session()
        api.show_model(sid, model)
        browse_as(browser, api)
        browser.execute_cdp_cmd("Network.enable", {})
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/assets/session.*"]})
        browser.get(f"{live_server.url}/sessions/{sid}")
        wait_until(browser, lambda d: d.execute_script(IMAGE_FAILED))
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        browser.execute_script(
            "const late = document.createElement('script');"
            "late.src = document.querySelector('script[src*=\"/assets/session.\"]').src;"
            "document.body.append(late);"
        )
    missing = wait_until(
        browser,
        lambda d: d.find_element(
            By.CSS_SELECTOR, '#task-surface-dock .candidate[data-candidate-id="air13"] .image-missing'
        ),
    )
    assert missing.text == "Aero 13, closed"
    click(browser, '#task-surface-dock label[for="dock-f-laptop-c1"]')
    assert browser.find_element(By.ID, "dock-f-laptop-c1").is_selected()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("demo", ["compare-cards", "dashboard", "itinerary"])
def test_workspaces_have_no_serious_violation(
    browser: WebDriver, live_server: LiveServer, scheme: str, demo: str
) -> None:
    api = Api(live_server.url)
    sid = api.create_session()
    api.show_surface(sid, demo)
    _open_in(browser, api, f"{live_server.url}/sessions/{sid}", scheme)
    wait_until(
        browser,
        lambda d: (
            d.find_element(By.CSS_SELECTOR, "#task-surface-dock [data-workspace]").get_attribute(
                "data-workspace-state"
            )
            == "ready"
        ),
    )
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    _no_serious_violation(browser)
    api.http.close()
