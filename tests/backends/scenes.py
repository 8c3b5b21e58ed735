"""Shared pieces of the wire tests: a small panel, the expected request pieces, waiting helpers."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from tasksurface.agent.ports import ToolDefinition
from tasksurface.backends.openai_chat import request_messages
from tasksurface.backends.openai_messages import tool_specs
from tasksurface.backends.scripted import ScriptedBackend
from tasksurface.config import Settings
from tasksurface.services.container import build_tools
from tasksurface.store.db import Database
from tasksurface.store.engine import make_engine
from tasksurface.tasks.web import build_web_tasks

COLOURS: dict[str, Any] = {
    "version": 1,
    "title": "Pick a colour",
    "sections": [{"id": "intro", "blocks": [{"kind": "markdown", "text": "Which one fits the logo?"}]}],
    "fields": [
        {
            "kind": "choice",
            "id": "colour",
            "label": "Colour",
            "options": [{"id": "red", "label": "Red"}, {"id": "blue", "label": "Blue"}],
        }
    ],
    "submit": {"label": "Choose"},
}
SURFACE_ARGS = json.dumps({"model": COLOURS})


class _Silent:
    def changed(self, session_id: Any, events: Any = (), queue: bool = False, reset: bool = False) -> None:
        pass


def definitions(mode: str) -> list[ToolDefinition]:
    """The tools a mode advertises, task tools included; their definitions need no database."""
    settings = Settings(database_url="sqlite://", secret_key="k", tool_mode=mode)
    database = Database(make_engine("sqlite://"))
    try:
        tasks = build_web_tasks(
            settings, database, ScriptedBackend(), _Silent(), lambda _s: None, datetime.now
        )
        return build_tools(settings, tasks).definitions()
    finally:
        database.dispose()


def tools_for(mode: str) -> list[dict[str, Any]]:
    """The `tools` array a request in this mode must carry."""
    specs: list[dict[str, Any]] = json.loads(json.dumps(tool_specs(definitions(mode))))
    return specs


def system_for(mode: str) -> dict[str, Any]:
    return request_messages([], definitions(mode))[0]


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def assistant_calls(*calls: tuple[str, str, str], text: str | None = None) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": text,
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls
        ],
    }


def tool(call_id: str, text: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events]


def text_of(event: dict[str, Any]) -> str:
    payload = event["payload"]
    if "text" in payload:
        return str(payload["text"])
    return "".join(b["text"] for b in payload["content"])
