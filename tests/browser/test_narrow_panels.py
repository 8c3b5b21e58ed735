"""A panel fits the width it is given, not the viewport's: a section's grid keeps its columns while
it is wide enough and stacks its blocks in one column below that (620px for three columns, 480px
for two), in the dock and in the transcript's read-only replay alike; a narrow dock gives its
status a line of its own above Dismiss and Submit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from .pages import open_panel

pytestmark = pytest.mark.browser

GRIDS = """
document.querySelectorAll('#events details').forEach((d) => (d.open = true));
return [...document.querySelectorAll('.layout-grid')].map((grid) => ({
  where: grid.closest('#dock-slot') ? 'dock' : 'replay',
  width: grid.getBoundingClientRect().width,
  columns: new Set([...grid.children].map((block) => Math.round(block.getBoundingClientRect().left))).size,
}));
"""

STATUS_AND_SUBMIT = """
const status = document.getElementById('dock-status');
status.textContent = arguments[0];  // the words a queued answer shows; only their place is tested
const submit = document.querySelector('.dock-actions [data-action=submit]').getBoundingClientRect();
const box = status.getBoundingClientRect();
const dock = document.querySelector('.dock').getBoundingClientRect();
return {statusBottom: box.bottom, submitTop: submit.top, dock: dock.width};
"""


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """Layout does not depend on the database; SQLite keeps this quick."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


def _width(browser: WebDriver, width: int) -> None:
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 500},
    )


@pytest.mark.parametrize(
    ("demo", "columns", "collapse_below", "widths"),
    [
        ("all", 3, 620, (1280, 640, 360)),  # three columns; stacked in a 640px window's dock
        ("compare", 2, 480, (1280, 640, 420)),  # two columns still fit there; stacked at 420
    ],
)
def test_a_sections_grid_keeps_its_columns_only_while_it_has_room(
    browser: WebDriver,
    live_server: LiveServer,
    demo: str,
    columns: int,
    collapse_below: int,
    widths: tuple[int, ...],
) -> None:
    _width(browser, widths[0])
    api, _sid, _page = open_panel(browser, live_server.url, demo)
    seen = set()
    for width in widths:
        _width(browser, width)
        grids = browser.execute_script(GRIDS)
        assert {g["where"] for g in grids} == {"dock", "replay"}
        for grid in grids:
            expected = columns if grid["width"] >= collapse_below else 1
            assert grid["columns"] == expected, (width, grid)
            seen.add(expected)
    assert seen == {columns, 1}  # both sides of the line were looked at
    api.http.close()


@pytest.mark.parametrize(("width", "own_line"), [(1280, False), (540, True)])  # a 492px dock
def test_a_narrow_docks_status_takes_its_own_line(
    browser: WebDriver, live_server: LiveServer, width: int, own_line: bool
) -> None:
    _width(browser, width)
    api, _sid, _page = open_panel(browser, live_server.url, "compare")  # short buttons: room beside them
    placed = browser.execute_script(STATUS_AND_SUBMIT, "Submitted: waiting for the agent to read it…")
    assert (placed["dock"] < 520) is own_line
    assert (placed["statusBottom"] <= placed["submitTop"]) is own_line, placed
    api.http.close()
