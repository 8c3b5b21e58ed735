"""The page draws its text in a small set of faces: the five sizes of the scale, two weights, no
slant but the writer's own emphasis, and code in one face (one size, one weight). Each family,
size, weight and slant a page draws is a font the renderer must find before its first layout, a
round trip to the browser process on a cold page, so one more weight or size slows every first
view (bench/README.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from ..conftest import LiveServer
from .pages import open_panel, wait_until

pytestmark = pytest.mark.browser

SCALE = {"13px", "14px", "16px", "17px", "24px"}  # --fs-sm, --fs-md, --fs-base, --fs-lg, --fs-xl
CODE_FACE = ("13px", "400")

# Every face the page draws text in: each text node and each control that is laid out. Drawings
# (the charts' and the map's SVG) keep their own scale, and the writer's emphasis keeps its slant.
FACES = """
const faces = {};
const note = (el, what) => {
  if (el.closest('svg')) return;
  const box = el.getBoundingClientRect();
  if (!box.width || !box.height) return;
  const cs = getComputedStyle(el);
  const emphasis = !!el.closest('em, i, cite, var, dfn');
  const kind = /monospace/.test(cs.fontFamily) ? 'code' : 'text';
  const key = [kind, cs.fontSize, cs.fontWeight, cs.fontStyle, emphasis].join('|');
  faces[key] = faces[key] || what;
};
const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walk.nextNode(); n; n = walk.nextNode()) {
  if (n.nodeValue.trim()) note(n.parentElement, n.nodeValue.trim().slice(0, 40));
}
for (const el of document.querySelectorAll('input, textarea, button, select')) {
  note(el, el.outerHTML.slice(0, 60));
}
return Object.entries(faces).map(([key, what]) => [...key.split('|'), what]);
"""
WORKSPACES_READY = """
return [...document.querySelectorAll('#task-surface-dock [data-workspace]')]
  .every((w) => w.dataset.workspaceState === 'ready');
"""


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """Which faces the page draws does not depend on the database; SQLite keeps this quick."""
    yield f"sqlite:///{tmp_path / 'browser.sqlite3'}"


@pytest.mark.parametrize("demo", ["all", "inputs", "approve", "compare-cards", "dashboard", "itinerary"])
def test_the_page_draws_five_sizes_two_weights_and_code_in_one_face(
    browser: WebDriver, live_server: LiveServer, demo: str
) -> None:
    api, _, _ = open_panel(browser, live_server.url, demo)
    wait_until(browser, lambda d: d.execute_script(WORKSPACES_READY))
    faces = browser.execute_script(FACES)
    assert len(faces) > 4, faces  # the walk found the page's text
    for kind, size, weight, style, emphasis, where in faces:
        face = (kind, size, weight, style, where)
        assert size in SCALE, face
        assert weight in {"400", "600"}, face
        assert style == "normal" or emphasis == "true", face
        assert kind == "text" or (size, weight) == CODE_FACE, face
    api.http.close()
