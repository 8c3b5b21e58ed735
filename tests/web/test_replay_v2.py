"""Stored version 2 panels, as this host wrote them, keep replaying: each fixture in
`replay/v2_panels.json` is a `tool/result` meta frozen when its kind landed. A change to the
model, the parser or the templates that breaks one of them breaks a session people have."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tasksurface.domain.events import NewEvent, tool_result
from tasksurface.domain.ids import CallId, SessionId
from tasksurface.domain.presentation import read_presentation
from tasksurface.services.container import Services
from tasksurface.store import log

from ..support import Api

FIXTURES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "replay" / "v2_panels.json").read_text())


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f["name"] for f in FIXTURES])
def test_a_stored_version_two_panel_replays_as_it_was_written(
    api: Api, services: Services, fixture: dict[str, Any]
) -> None:
    presentation = read_presentation(fixture["meta"])
    assert presentation is not None and presentation.model.normalised() == fixture["meta"]["model"]
    sid = api.create_session()
    payload = tool_result(CallId(fixture["callId"]), "show_task_surface", True, "shown", fixture["meta"])
    with services.database.write() as db:
        log.append(db, SessionId(sid), NewEvent("tool/result", payload), datetime.now(UTC))
    surface = fixture["meta"]["surfaceId"]
    active = api.get_active(sid, surface)
    assert active["active"] is True and active["model"] == fixture["meta"]["model"]
    page = api.get(f"/sessions/{sid}").text
    assert f'<article class="surface-row state-open" data-surface-id="{surface}"' in page
    assert f'data-surface-id="{surface}" data-call-id="{fixture["callId"]}"' in page  # the dock
    assert 'data-code="surface.expired"' not in page and 'data-code="surface.block-failed"' not in page
    api.dismiss(sid, surface)
    assert 'class="surface-row state-dismissed"' in api.get(f"/sessions/{sid}").text
