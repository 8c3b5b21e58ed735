"""Task Surface can be switched off for a deployment and on again; the log never changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tasksurface.web.factory import create_app

from ..conftest import LiveServer, services_of
from ..support import Api

HINT = "This panel cannot be shown here. Answer with an ordinary message instead."


def _serve(config: dict[str, Any], on: bool) -> LiveServer:
    return LiveServer(create_app({**config, "task_surface": on}))


def test_off_hides_everything_and_on_restores_the_open_surface(
    app_config: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    server = _serve(app_config, on=True)
    with Api(server.url) as api:
        sid = api.create_session()
        surface = api.show_surface(sid, "plan")
        log_before = api.events(sid)
        cookies = api.http.cookies.copy()
    services_of(server.app).stop()
    server.stop()

    server = _serve(app_config, on=False)
    try:
        with Api(server.url) as api:
            api.http.cookies.update(cookies)
            names = [d.name for d in services_of(server.app).runner.tools.definitions()]
            assert "show_task_surface" not in names and "ask_user_question" in names
            assert api.projection(sid)["active"] is None
            assert api.get_active(sid, surface) == {"active": False, "reason": "not-open"}
            assert api.submit(
                sid, surface, {"steps": ["backup", "schema", "switch", "verify"], "constraints": ""}
            ) == {
                "accepted": False,
                "reason": "not-open",
            }
            assert api.dismiss(sid, surface) == {"dismissed": False, "reason": "not-open"}
            page = api.get(f"/sessions/{sid}").text
            assert 'id="task-surface-dock"' not in page and "surface-row" not in page
            assert HINT in page and 'data-task-surface="off"' in page
            assert api.events(sid) == log_before  # the log is untouched
            # Asking for a panel now gets prose: the tool is not offered.
            other = api.create_session()
            api.send(other, "/surface compare")
            events = api.settled(other)
            assert events[-1]["kind"] == "assistant/message"
            assert "not available" in events[-1]["payload"]["text"]
            cookies = api.http.cookies.copy()
    finally:
        services_of(server.app).stop()
        server.stop()

    server = _serve(app_config, on=True)
    try:
        with Api(server.url) as api:
            api.http.cookies.update(cookies)
            # The still-open surface is back, actionable, with its row.
            assert api.projection(sid)["active"]["surfaceId"] == surface
            page = api.get(f"/sessions/{sid}").text
            assert '<article class="surface-row state-open' in page and 'id="task-surface-dock"' in page
            values = {"steps": ["backup", "schema", "switch", "verify"], "constraints": ""}
            assert api.submit(sid, surface, values)["accepted"] is True
    finally:
        services_of(server.app).stop()
        server.stop()
