"""`call_tool`: the one dispatcher of the `code` and `both` tool modes.

It reaches the other registered tools by name through `ToolContext.dispatch`, so every call
it makes is nested (depth + 1). A nested result carries no presentation metadata to the
outer result, which is why `show_task_surface` refuses to be called this way.
"""

from __future__ import annotations

import json
from typing import Any

from ..agent.ports import ToolDefinition
from ..agent.tools import ToolContext, ToolOutcome
from ..domain import strict_json

NAME = "call_tool"
DESCRIPTION = (
    "Call another tool by its name. `arguments` holds that tool's arguments as a JSON object. "
    "You get that tool's result back. A tool that must be called directly refuses when called "
    "through here."
)
PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "The name of the tool to call."},
        "arguments": {"type": "object", "description": "The arguments of that tool."},
    },
    "required": ["name", "arguments"],
    "additionalProperties": False,
}


class CallTool:
    """Decodes `{"name", "arguments"}` strictly and dispatches one nested call."""

    asks_user = False

    def __init__(self) -> None:
        self._definition = ToolDefinition(NAME, DESCRIPTION, PARAMETERS)

    @property
    def definition(self) -> ToolDefinition:
        return self._definition

    def execute(self, context: ToolContext, arguments: str) -> ToolOutcome:
        try:
            decoded = strict_json.loads(arguments)
        except ValueError as exc:  # DuplicateKey is a ValueError too
            return _refuse(f"the arguments are not valid JSON: {exc}")
        if not isinstance(decoded, dict) or set(decoded) != {"name", "arguments"}:
            return _refuse('arguments must be exactly {"name": "...", "arguments": {...}}')
        name, inner = decoded["name"], decoded["arguments"]
        if not isinstance(name, str) or not name:
            return _refuse("name must be a tool name")
        if name == NAME:
            return _refuse("call_tool cannot call itself")
        if isinstance(inner, str):
            raw = inner  # some models encode the arguments as a JSON string; the tool decodes it
        elif isinstance(inner, dict):
            raw = json.dumps(inner, ensure_ascii=False)
        else:
            return _refuse("arguments must be a JSON object")
        if context.dispatch is None:
            return _refuse("nested calls are not available here")
        outcome = context.dispatch(name, raw)
        # Presentation metadata belongs to direct calls only; a requested checkpoint still ends the turn.
        return ToolOutcome(outcome.ok, outcome.text, conclude_turn=outcome.conclude_turn)


def _refuse(message: str) -> ToolOutcome:
    return ToolOutcome(False, "error: " + message)
