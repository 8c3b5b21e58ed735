"""The read-only panel of a transcript row is drawn once per language and shared: by the page,
by the push that closes the panel, by every later page. A request with values of its own (a
dashboard explored without script) draws its own."""

from __future__ import annotations

import re

from flask import Flask

from tasksurface.domain.events import SessionEvent
from tasksurface.domain.ids import SessionId
from tasksurface.domain.submission import initial_values
from tasksurface.services.memo import BoundedMemo

from ..conftest import services_of
from ..support import Api

REPLAY_BODY = re.compile(r'<div class="surface-replay-body">(.*?)</details>', re.S)


def _drawings(app: Flask) -> BoundedMemo[object]:
    found: BoundedMemo[object] = app.extensions["tasksurface.replays"]
    return found


def _replay(page: str) -> str:
    found = REPLAY_BODY.search(page)
    assert found, "the page has a surface row with its read-only panel"
    return found.group(1)


def test_a_panel_row_is_drawn_once_per_language_and_the_closing_push_reuses_it(app: Flask, api: Api) -> None:
    sid = api.create_session()
    surface_id = api.show_surface(sid, "all")
    drawings = _drawings(app)
    before = len(drawings)
    english = api.get(f"/sessions/{sid}", headers={"Accept-Language": "en"}).text
    assert len(drawings) == before + 1
    assert _replay(api.get(f"/sessions/{sid}", headers={"Accept-Language": "en"}).text) == _replay(english)
    assert len(drawings) == before + 1
    chinese = api.get(f"/sessions/{sid}", headers={"Accept-Language": "zh"}).text
    assert len(drawings) == before + 2
    assert _replay(chinese) != _replay(english), "each language has its own drawing"

    model = api.get_active(sid, surface_id)["model"]
    services = services_of(app)
    active = services.surfaces.get_active(SessionId(sid), surface_id)  # type: ignore[arg-type]
    assert api.submit(sid, surface_id, initial_values(active.model))["accepted"] is True  # type: ignore[union-attr]
    api.settled(sid)
    closed = api.get(f"/sessions/{sid}", headers={"Accept-Language": "en"}).text
    assert len(drawings) == before + 2, "closing the panel redrew nothing but its row's state"
    assert 'class="surface-row state-submitted"' in closed
    assert model["title"] in closed


def test_a_request_with_values_of_its_own_draws_its_own(app: Flask, api: Api) -> None:
    sid = api.create_session()
    api.show_surface(sid, "all")
    drawings = _drawings(app)
    before = len(drawings)
    page = api.get(f"/sessions/{sid}?d.0-metric=x", headers={"Accept-Language": "en"}).text
    assert len(drawings) == before
    assert _replay(page) == _replay(api.get(f"/sessions/{sid}", headers={"Accept-Language": "en"}).text)
    assert len(drawings) == before + 1


def test_a_logged_panel_is_validated_once_until_the_limits_change(app: Flask, api: Api) -> None:
    sid = api.create_session()
    api.show_surface(sid, "fields")
    services = services_of(app)
    events = services.sessions.events_after(SessionId(sid), 0, 100)
    result: SessionEvent = next(e for e in events if e.kind == "tool/result")
    first = services.surfaces.presentation_of(result)
    assert first is not None
    assert services.surfaces.presentation_of(result) is first
    services.surfaces.limits = services.surfaces.limits.model_copy()
    again = services.surfaces.presentation_of(result)
    assert again == first and again is not first
