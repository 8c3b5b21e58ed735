"""Actions on background tasks as a client and the scripted agent perform them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..support import Api, wait_for


def run(api: Api, sid: str, command: str, args: dict[str, Any] | None = None) -> str:
    """Ask the scripted agent to run a declared command; returns the new task's id."""
    before = len(api.events(sid))
    api.send(sid, f"/run {command} {json.dumps(args or {})}")
    result = wait_for(lambda: _result_after(api, sid, before, "run_command"))
    assert result["payload"]["ok"], result
    task_id: str = result["payload"]["meta"]["value"]["task"]["id"]
    api.settled(sid)
    return task_id


def tool_text(api: Api, sid: str, command: str, name: str) -> str:
    """Send one scripted tool command and return the text of its result once the turn is over."""
    before = len(api.events(sid))
    api.send(sid, command)
    result = wait_for(lambda: _result_after(api, sid, before, name))
    api.settled(sid)
    return "".join(block["text"] for block in result["payload"]["content"])


def _result_after(api: Api, sid: str, before: int, name: str) -> dict[str, Any] | None:
    for event in api.events(sid)[before:]:
        if event["kind"] == "tool/result" and event["payload"]["name"] == name:
            return event
    return None


def task(api: Api, sid: str, task_id: str) -> dict[str, Any]:
    response = api.get(f"/api/sessions/{sid}/tasks/{task_id}")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def ended(api: Api, sid: str, task_id: str, timeout: float = 20.0) -> dict[str, Any]:
    return wait_for(lambda: (t := task(api, sid, task_id))["endedAt"] and t, timeout=timeout)


def notices(api: Api, sid: str, task_id: str | None = None) -> list[dict[str, Any]]:
    return [
        e
        for e in api.events(sid)
        if e["kind"] == "task/notice" and (task_id is None or e["payload"]["taskId"] == task_id)
    ]


def release(folder: Path, step: int = 1) -> None:
    """Let a `steps` task go past its step number `step`."""
    (folder / str(step)).write_text("go")
