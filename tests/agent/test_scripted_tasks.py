"""The scripted agent's task commands, its sub-agent answer and its acknowledgement of notices."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from tasksurface.agent.ports import ToolDefinition
from tasksurface.backends.scripted import ScriptedBackend
from tasksurface.domain.events import SessionEvent, text_content

AT = datetime(2026, 12, 1, tzinfo=UTC)
TOOLS = [
    ToolDefinition(n, "", {})
    for n in ("run_command", "delegate_task", "task_output", "task_list", "task_kill")
]


def said(text: str, source: dict[str, Any] | None = None, seq: int = 1) -> SessionEvent:
    payload = {"messageId": "msg_0001", "source": source or {"kind": "user"}, "content": text_content(text)}
    return SessionEvent(seq, "user/message", AT, payload)


def call_of(text: str) -> tuple[str, Any]:
    reply = ScriptedBackend().respond([said(text)], TOOLS)
    [call] = reply.tool_calls
    return call.name, json.loads(call.arguments)


@pytest.mark.parametrize(
    ("text", "name", "arguments"),
    [
        ('/run count {"n": 5}', "run_command", {"name": "count", "args": {"n": 5}}),
        ("/run python-info", "run_command", {"name": "python-info", "args": {}}),
        ("/delegate Notes | read the plan", "delegate_task", {"label": "Notes", "prompt": "read the plan"}),
        ("/output t_abcdefghijk", "task_output", {"task_id": "t_abcdefghijk"}),
        (
            "/output t_abcdefghijk wait 500",
            "task_output",
            {"task_id": "t_abcdefghijk", "wait": True, "timeout_ms": 500},
        ),
        ("/tasks", "task_list", {}),
        ("/kill t_abcdefghijk too slow", "task_kill", {"task_id": "t_abcdefghijk", "reason": "too slow"}),
    ],
)
def test_each_task_command_becomes_its_tool_call(text: str, name: str, arguments: Any) -> None:
    assert call_of(text) == (name, arguments)


@pytest.mark.parametrize(
    ("text", "usage"),
    [
        ("/run", "Usage: `/run <command> [<json args>]`"),
        ("/run count {n: 5}", "The arguments after the command name must be a JSON object."),
        ("/output", "Usage: `/output <task id>`"),
        ("/kill", "Usage: `/kill <task id>`"),
        ("/delegate no prompt", "Usage: `/delegate <label> | <prompt>`"),
    ],
)
def test_a_task_command_without_what_it_needs_is_answered_with_its_usage(text: str, usage: str) -> None:
    reply = ScriptedBackend().respond([said(text)], TOOLS)
    assert reply.tool_calls == () and (reply.text or "").startswith(usage)


def test_as_a_sub_agent_it_answers_with_a_numbered_report() -> None:
    reply = ScriptedBackend().respond([said("alpha, beta", {"kind": "delegate"})], ())
    assert reply.text == "Working on: alpha, beta\n\n1. looked at alpha\n2. looked at beta\n\nDone."


def test_a_notice_since_its_last_reply_is_acknowledged_once() -> None:
    notice = SessionEvent(2, "task/notice", AT, {"text": "background task t_1 finished."})
    history = [
        said("first"),
        SessionEvent(3, "assistant/message", AT, {"text": "hi"}),
        notice,
        said("next", seq=4),
    ]
    assert (ScriptedBackend().respond(history, TOOLS).text or "").startswith(
        "Noted:\n\n> background task t_1 finished."
    )
    later = [*history, SessionEvent(5, "assistant/message", AT, {"text": "ok"}), said("again", seq=6)]
    assert not (ScriptedBackend().respond(later, TOOLS).text or "").startswith("Noted:")
