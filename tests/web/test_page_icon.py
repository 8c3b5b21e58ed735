"""The page's icon is drawn in the page's accent, light and dark. The icon is a data URL in the
page's head, where the stylesheet's custom properties cannot reach, so its colours are written
twice; this keeps the two copies the same."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from ..support import Api

STYLESHEET = Path(__file__).resolve().parents[2] / "static" / "css" / "app.css"
ACCENT = re.compile(r"--accent:\s*light-dark\((#[0-9a-fA-F]{6}),\s*(#[0-9a-fA-F]{6})\)")


def _accent() -> tuple[str, str]:
    found = ACCENT.search(STYLESHEET.read_text())
    assert found, "the stylesheet names its accent for both themes"
    return found.group(1).lower(), found.group(2).lower()


def test_the_icon_has_the_accent_of_each_theme(api: Api) -> None:
    html = api.get(f"/sessions/{api.create_session()}").text
    href = re.search(r'<link rel="icon" href="data:image/svg\+xml,([^"]+)">', html)
    assert href, "the page names its icon in its head"
    svg = unquote(href.group(1))
    light = re.search(r"^[^@]*path\{fill:(#[0-9a-fA-F]{6})\}", svg)
    dark = re.search(r"@media \(prefers-color-scheme:dark\)\{path\{fill:(#[0-9a-fA-F]{6})\}\}", svg)
    assert light and dark, svg
    assert (light.group(1).lower(), dark.group(1).lower()) == _accent()
