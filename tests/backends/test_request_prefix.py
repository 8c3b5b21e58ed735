"""The request prefix — model, system prompt and tools — is byte-identical for every session and task.

The golden files hold it per tool mode. After an intended change to the prompt or a tool
definition, regenerate them and review the diff:

    TASKSURFACE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/backends/test_request_prefix.py -k "golden and sqlite"
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from ..support import Api
from .scenes import SURFACE_ARGS, kinds, tools_for
from .wire import Call, Request, Stream, WireServer

GOLDEN = Path(__file__).parent / "golden"
UPDATE_GOLDEN = os.environ.get("TASKSURFACE_UPDATE_GOLDEN") == "1"
MODES = ["native", "both", "code"]
ADVERTISED = {
    "native": [
        *["ask_user_question", "delegate_task", "run_command", "show_task_surface"],
        *["task_kill", "task_list", "task_output"],
    ],
    "both": [
        *["ask_user_question", "call_tool", "delegate_task", "run_command", "show_task_surface"],
        *["task_kill", "task_list", "task_output"],
    ],
    "code": ["call_tool"],
}


def prefix(request: Request) -> dict[str, Any]:
    body = request.body
    assert set(body) == {"model", "stream", "messages", "tools"}  # no tool_choice, no sampling settings
    return {
        "model": body["model"],
        "stream": body["stream"],
        "system": body["messages"][0],
        "tools": body["tools"],
    }


def raw_prefix(request: Request) -> tuple[str, str, str]:
    """The exact bytes (as text) of the model name, the system message and the tools array.

    The client serialises the body in its own key order and spacing (which differs between
    `openai` versions), so each piece is cut out where its JSON value starts and ends.
    """
    text = request.raw.decode("utf-8")
    decoder = json.JSONDecoder()

    def value_at(start: int) -> str:
        start += len(text[start:]) - len(text[start:].lstrip())
        _, end = decoder.raw_decode(text, start)
        return text[start:end]

    def after_key(key: str) -> int:
        found = re.search(rf'"{key}":\s*', text)
        assert found is not None, key
        return found.end()

    messages = after_key("messages")
    assert text[messages] == "["
    return value_at(after_key("model")), value_at(messages + 1), value_at(after_key("tools"))


@pytest.mark.parametrize("tool_mode", MODES)
def test_the_request_prefix_matches_the_golden_file(api: Api, wire: WireServer, tool_mode: str) -> None:
    wire.script(Stream(text=["Hi."]))
    sid = api.create_session()
    api.send(sid, "hello")
    api.settled(sid)

    text = json.dumps(prefix(wire.requests[0]), indent=2, ensure_ascii=False) + "\n"
    path = GOLDEN / f"request_prefix_{tool_mode}.json"
    if UPDATE_GOLDEN:
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, (
        f"the {tool_mode} request prefix changed; if that is intended, regenerate the golden files "
        "with TASKSURFACE_UPDATE_GOLDEN=1 (see this module's docstring)"
    )
    assert wire.requests[0].tool_names == ADVERTISED[tool_mode]
    system = wire.requests[0].messages[0]["content"]
    assert ("show_task_surface" in system) is (tool_mode != "code")


@pytest.mark.parametrize("tool_mode", MODES)
def test_the_prefix_bytes_do_not_depend_on_the_session_or_the_task(
    api: Api, wire: WireServer, tool_mode: str
) -> None:
    first_session = api.create_session()
    wire.script(Stream(text=["Hi."]))
    api.send(first_session, "hello")
    api.settled(first_session)

    other = api.create_session()
    name = "call_tool" if tool_mode == "code" else "show_task_surface"
    arguments = SURFACE_ARGS if name == "show_task_surface" else '{"name": "x", "arguments": {}}'
    wire.script(
        Stream(text=["Let me look."], calls=[Call("call_other_0001", name, arguments)]),
        Stream(text=["Done."]),
        Stream(text=["Still the same prefix."]),
    )
    api.send(other, "a different task, with ünïcode and a panel")
    api.settled(other)
    if api.projection(other)["active"] is None:
        api.send(other, "and one more message")
        api.settled(other)

    assert len(wire.requests) >= 2
    prefixes = {raw_prefix(r) for r in wire.requests}
    assert len(prefixes) == 1, "the prefix bytes differ between requests"
    model, system, tools = prefixes.pop()
    assert json.loads(model) == wire.requests[0].body["model"]
    assert json.loads(system) == wire.requests[0].messages[0] and json.loads(tools) == tools_for(tool_mode)
    assert kinds(api.events(other))[0] == "user/message"
