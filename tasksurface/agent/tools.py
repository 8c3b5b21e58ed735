"""The tool registry: definitions the model sees, and dispatch by name."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..domain.ids import CallId, SessionId
from ..store.db import Database
from .ports import ToolDefinition


@dataclass(frozen=True)
class ToolOutcome:
    ok: bool
    text: str
    """What the model reads back."""
    meta: dict[str, Any] | None = None
    """Presentation metadata persisted with the result for replay."""
    conclude_turn: bool = False
    """The turn ends after this call: a human checkpoint was requested."""
    waits_for_user: bool = False
    """No result yet: the user's answer will be the result, and the turn waits for it."""


@dataclass(frozen=True)
class ToolContext:
    session_id: SessionId
    call_id: CallId
    database: Database
    depth: int = 0
    """0 when the model called the tool; more when another tool dispatched it."""
    dispatch: Callable[[str, str], ToolOutcome] | None = field(default=None, repr=False)
    """Lets a tool call another tool; such calls are nested (depth + 1)."""


class Tool(Protocol):
    asks_user: bool
    """The tool only puts a question to the user, so it may still run after a call ended the turn."""

    @property
    def definition(self) -> ToolDefinition: ...

    def execute(self, context: ToolContext, arguments: str) -> ToolOutcome: ...


class ToolRegistry:
    def __init__(self, tools: Sequence[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        name = tool.definition.name
        if name in self._tools:
            raise ValueError(f"tool {name!r} registered twice")
        self._tools[name] = tool

    def definitions(self) -> list[ToolDefinition]:
        return [self._tools[name].definition for name in sorted(self._tools)]

    def asks_user(self, name: str) -> bool:
        tool = self._tools.get(name)
        return tool is not None and tool.asks_user

    def execute(self, context: ToolContext, name: str, arguments: str) -> ToolOutcome:
        tool = self._tools.get(name)
        if tool is None:
            return ToolOutcome(False, f"error: there is no tool named {name!r}")

        def nested(inner_name: str, inner_arguments: str) -> ToolOutcome:
            inner = ToolContext(context.session_id, context.call_id, context.database, context.depth + 1)
            return self.execute(
                ToolContext(inner.session_id, inner.call_id, inner.database, inner.depth, nested),
                inner_name,
                inner_arguments,
            )

        scoped = ToolContext(context.session_id, context.call_id, context.database, context.depth, nested)
        try:
            return tool.execute(scoped, arguments)
        except Exception as exc:  # a broken tool must not break the turn
            return ToolOutcome(False, f"error: tool {name!r} failed: {type(exc).__name__}")
