"""The colour theme the page starts with, known to the server so no script blocks the first paint.

The theme switch keeps the person's choice in a cookie the server reads (the script also keeps it
in the browser); a page framed by a team's site starts with the theme that site asked for. With
neither, the page follows the system preference through CSS alone.
"""

from __future__ import annotations

from flask import Flask, request, session

THEME_COOKIE = "ts-theme"
CHOSEN = frozenset({"light", "dark"})
"""The themes that need an attribute; `auto` is the stylesheet's own media query."""
THEMES = CHOSEN | {"auto"}


def starting_theme() -> str | None:
    """`light` or `dark` when something chose one, else None (the system decides)."""
    asked = session.get("embed_theme") if "embed_theme" in session else None
    if isinstance(asked, str) and asked in THEMES:
        return asked if asked in CHOSEN else None
    kept = kept_theme()
    return kept if kept in CHOSEN else None


def kept_theme() -> str | None:
    """The theme cookie as this request carried it, if it names a theme: the script compares its
    own record with it instead of reading `document.cookie`, a synchronous call to the browser
    that costs milliseconds while the page starts."""
    kept = request.cookies.get(THEME_COOKIE, "")
    return kept if kept in THEMES else None


def init_theme(app: Flask) -> None:
    app.context_processor(lambda: {"page_theme": starting_theme(), "theme_kept": kept_theme()})
