"""The read-only panel inside a transcript row, drawn once per language and shared.

A logged event never changes, so the panel a surface row replays is the same for every push and
every page that shows it: only the row's state around it (open, submitted, the answer) moves.
Drawing a large panel is most of what a push costs when a surface closes, so each process keeps
the drawings it made last. A request that explores a dashboard (its view comes from the request's
values) draws its own, uncached.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request
from flask_babel import get_locale
from markupsafe import Markup

from ..domain.ids import SessionId
from ..services.memo import BoundedMemo

MAX_REPLAYS = 128
"""Drawings kept per process; a large panel draws to about 100 KB of HTML."""


def replay_sections(model: Any, seq: int, session_id: SessionId) -> Markup:
    """The sections of the panel logged at `seq`, read only, as its transcript row shows them."""

    def draw() -> Markup:
        module = current_app.jinja_env.get_template("_surface.html").module
        place = {"sid": session_id, "seq": seq, "in_form": False}
        return Markup(module.sections(model, f"row{seq}", place))  # type: ignore[attr-defined]

    if request.values:
        return draw()
    drawn: BoundedMemo[Markup] = current_app.extensions["tasksurface.replays"]
    return drawn.get_or_compute((str(session_id), seq, str(get_locale() or "en")), draw)


def init_replays(app: Flask) -> None:
    app.extensions["tasksurface.replays"] = BoundedMemo[Markup](MAX_REPLAYS)
    app.jinja_env.globals["replay_sections"] = replay_sections
