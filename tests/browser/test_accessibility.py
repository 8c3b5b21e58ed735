"""axe-core finds no serious or critical violation on the chat page with every kind docked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from ..support import Api
from .pages import browse_as, wait_until

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def _no_serious_violation(driver: WebDriver) -> None:
    serious = [v for v in _axe(driver) if v["impact"] in ("serious", "critical")]
    assert serious == [], [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in serious]


def _open_in(driver: WebDriver, api: Api, url: str, scheme: str) -> None:
    browse_as(driver, api)
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )
    driver.get(url)


def _axe(driver: WebDriver) -> list[dict[str, Any]]:
    if not AXE.exists():
        pytest.fail("axe-core is missing: the README's test command installs it with npm")
    driver.execute_script(AXE.read_text())
    result: dict[str, Any] = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r), e => done({error: String(e)}));"
    )
    assert "error" not in result, result
    violations: list[dict[str, Any]] = result["violations"]
    return violations


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_docked_all_demo_has_no_serious_violation(
    browser: WebDriver, live_server: LiveServer, scheme: str
) -> None:
    api = Api(live_server.url)
    sid = api.create_session()
    api.show_surface(sid, "all")
    _open_in(browser, api, f"{live_server.url}/sessions/{sid}", scheme)
    wait_until(browser, lambda d: d.find_element("id", "task-surface-dock"))
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    _no_serious_violation(browser)
    api.http.close()


def test_the_index_page_has_no_serious_violation(browser: WebDriver, live_server: LiveServer) -> None:
    browser.get(live_server.url + "/")
    _no_serious_violation(browser)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_question_takeover_has_no_serious_violation(
    browser: WebDriver, live_server: LiveServer, scheme: str
) -> None:
    api = Api(live_server.url)
    sid = api.create_session()
    api.ask(sid, "/surface all\n/ask Should the release include staging? | yes | no")
    _open_in(browser, api, f"{live_server.url}/sessions/{sid}", scheme)
    wait_until(browser, lambda d: d.find_element("id", "question-takeover").is_displayed())
    _no_serious_violation(browser)
    browser.find_element("css selector", ".question-later").click()  # the folded bar, too
    wait_until(browser, lambda d: d.find_element("css selector", ".question-bar").is_displayed())
    _no_serious_violation(browser)
    api.http.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_refusal_page_has_no_serious_violation(
    browser: WebDriver, live_server: LiveServer, scheme: str
) -> None:
    api = Api(live_server.url)
    _open_in(browser, api, f"{live_server.url}/sessions/s_doesNotExist01", scheme)
    wait_until(browser, lambda d: d.find_element("css selector", "[data-code=session-not-found]"))
    _no_serious_violation(browser)
    api.http.close()
