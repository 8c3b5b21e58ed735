"""What cannot be drawn is never half drawn: the readable result and the bypass hint instead."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

import pytest

from tasksurface.backends.demos import DEMOS
from tasksurface.domain.events import NewEvent, tool_result
from tasksurface.domain.ids import CallId, SessionId
from tasksurface.services.container import Services
from tasksurface.store import log

from ..support import Api

HINT = "This panel cannot be shown here. Answer with an ordinary message instead."
RESULT_TEXT = "Task Surface ts_fallback01 is shown to the user."


def _good_meta() -> dict[str, Any]:
    return {
        "kind": "dsh/task-surface",
        "version": 1,
        "surfaceId": "ts_fallback01",
        "model": copy.deepcopy(DEMOS["all"]),
    }


def _broken(change: str) -> dict[str, Any] | None:
    meta = _good_meta()
    if change == "missing meta":
        return None
    if change == "unsupported version":
        meta["version"] = 2
    elif change == "unknown block kind":
        meta["model"]["sections"][0]["blocks"].append({"kind": "chart", "series": [1, 2, 3]})
    elif change == "unknown field kind":
        meta["model"]["fields"].append({"kind": "slider", "id": "volume", "label": "Volume"})
    elif change == "model version 3":
        meta["model"]["version"] = 3
    elif change == "extra meta key":
        meta["extra"] = True
    elif change == "meta not an object":
        return ["dsh/task-surface"]  # type: ignore[return-value]
    return meta


CHANGES = [
    "missing meta",
    "unsupported version",
    "unknown block kind",
    "unknown field kind",
    "model version 3",
    "extra meta key",
    "meta not an object",
]


def _log_result(services: Services, session_id: str, meta: Any) -> None:
    """Write the result as another version of the host might have: straight into the log."""
    payload = tool_result(CallId("call_fallback1"), "show_task_surface", True, RESULT_TEXT)
    if meta is not None:
        payload["meta"] = meta
    with services.database.write() as db:
        log.append(db, SessionId(session_id), NewEvent("tool/result", payload), datetime.now(UTC))


@pytest.mark.parametrize("change", CHANGES)
def test_a_result_that_cannot_be_drawn_falls_back_to_its_text(
    api: Api, services: Services, change: str
) -> None:
    sid = api.create_session()
    _log_result(services, sid, _broken(change))
    assert api.projection(sid)["active"] is None
    assert api.get_active(sid, "ts_fallback01") == {"active": False, "reason": "not-open"}
    html = api.get(f"/sessions/{sid}").text
    assert RESULT_TEXT in html and HINT in html
    assert 'id="task-surface-dock"' not in html and "surface-row" not in html
    # Nothing of the model is drawn, not even the parts that would have parsed.
    assert "Everything a Task Surface can show" not in html and "block-metrics" not in html


def test_a_valid_result_is_drawn_and_has_no_hint(api: Api, services: Services) -> None:
    sid = api.create_session()
    _log_result(services, sid, _good_meta())
    assert api.projection(sid)["active"]["surfaceId"] == "ts_fallback01"
    html = api.get(f"/sessions/{sid}").text
    assert 'id="task-surface-dock"' in html and '<article class="surface-row' in html and HINT not in html


def test_the_tool_result_text_names_the_surface_and_the_bypass(api: Api) -> None:
    sid = api.create_session()
    api.show_surface(sid, "compare")
    [result] = [e for e in api.events(sid) if e["kind"] == "tool/result"]
    text = result["payload"]["content"][0]["text"]
    assert result["payload"]["meta"]["surfaceId"] in text
    assert "ordinary message" in text
