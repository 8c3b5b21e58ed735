"""A panel the scripted agent is still writing is pushed as a read-only preview, never logged."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tasksurface.backends.demos import DEMOS

from ..support import Api

Message = dict[str, Any]
CONTROLS = re.compile(r"<(input|button|textarea|select|form|a)\b")


@pytest.fixture
def app_config(database_url: str) -> dict[str, Any]:
    # The pause makes the scripted agent stream: 160-character pieces 30 ms apart, so a busy
    # push worker that merges waiting previews still shows a panel growing.
    return {"database_url": database_url, "secret_key": "test-secret-key", "scripted_pause": 0.03}


def logged(kind: str) -> Any:
    return lambda m: m["type"] == "change" and any(e["kind"] == kind for e in m["events"])


def position(messages: list[Message], kind: str) -> int:
    """Where the first message carrying an event of this kind is (news that waits is merged)."""
    return next(i for i, m in enumerate(messages) if logged(kind)(m))


def labels(messages: list[Message]) -> list[str]:
    return [
        m["type"] if m["type"] != "change" else ",".join(e["kind"] for e in m["events"]) for m in messages
    ]


def test_previews_grow_before_the_change_that_commits_the_panel(api: Api) -> None:
    sid = api.create_session()
    with api.socket(sid) as socket:
        socket.receive_until(lambda m: m["type"] == "hello")
        api.send(sid, "/surface all")
        committed = socket.receive_until(logged("tool/result"))
    seen = labels(socket.seen)
    previews = [m for m in socket.seen if m["type"] == "preview"]
    assert len(previews) >= 2, seen  # pieces 30 ms apart, pushes at least 50 ms apart
    assert seen.index("preview") > position(socket.seen, "user/message")
    last_preview = max(i for i, label in enumerate(seen) if label == "preview")
    assert last_preview < position(socket.seen, "assistant/message")
    model = DEMOS["all"]
    first, last = previews[0]["html"], previews[-1]["html"]
    assert model["title"] in first and 'aria-busy="true"' in first and "Preparing a panel…" in first
    assert all(not CONTROLS.search(m["html"]) for m in previews)  # read-only: nothing to act on
    assert len({m["callKey"] for m in previews}) == 1 and len({m["html"] for m in previews}) == len(previews)
    for section in model["sections"]:
        if section.get("title"):
            assert section["title"] in last
    result = committed["events"][-1]["payload"]
    assert result["ok"] and committed["taskSurface"]["active"]["callId"] == result["callId"]
    # Never logged: the log is the call and its result, as without a preview.
    events = api.settled(sid)
    assert [e["kind"] for e in events] == ["user/message", "assistant/message", "tool/call", "tool/result"]
    assert "Preparing a panel" not in json.dumps(events)


def test_a_refused_call_previews_and_then_nothing_after_its_result(api: Api) -> None:
    model = {**DEMOS["compare"], "fields": [{"kind": "slider", "id": "x", "label": "Level"}] * 3}
    sid = api.create_session()
    with api.socket(sid) as socket:
        socket.receive_until(lambda m: m["type"] == "hello")
        api.send(sid, "/tool show_task_surface " + json.dumps({"model": model}))
        refused = socket.receive_until(logged("tool/result"))
        if not logged("assistant/message")(refused):  # news that waited may come in one message
            socket.receive_until(logged("assistant/message"))  # the agent's words on the refusal
    [result] = [e for e in refused["events"] if e["kind"] == "tool/result"]
    assert result["payload"]["ok"] is False and refused["taskSurface"]["active"] is None
    seen = labels(socket.seen)
    assert "preview" in seen
    assert "preview" not in seen[position(socket.seen, "tool/result") :]
    assert api.projection(sid)["active"] is None


def test_the_preview_speaks_the_subscriber_language(api: Api) -> None:
    api.post("/language", data={"lang": "zh", "next": "/"})
    sid = api.create_session()
    with api.socket(sid) as socket:
        socket.receive_until(lambda m: m["type"] == "hello")
        api.send(sid, "/surface compare")
        shown = socket.receive_until(lambda m: m["type"] == "preview")
        socket.receive_until(logged("tool/result"))
    assert "正在准备面板…" in shown["html"] and "Preparing" not in shown["html"]
    assert DEMOS["compare"]["title"] in shown["html"]  # the model's words stay as written
