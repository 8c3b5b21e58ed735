"""What the runner needs from the world, as small protocols."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from ..domain.events import SessionEvent
from ..domain.ids import SessionId
from ..store.records import InboxItem


@dataclass(frozen=True)
class ToolDefinition:
    """What the model is told about a tool; byte-stable so the prompt prefix is stable."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class ToolCallRequest:
    call_id: str
    name: str
    arguments: str
    """Raw JSON text, as a model produces it; each tool decodes it strictly."""


@dataclass(frozen=True)
class ModelReply:
    text: str | None = None
    tool_calls: Sequence[ToolCallRequest] = field(default_factory=tuple)


class ModelBackend(Protocol):
    def respond(self, history: Sequence[SessionEvent], tools: Sequence[ToolDefinition]) -> ModelReply: ...


TextSink = Callable[[str], None]
"""Receives each piece of the assistant's text as it arrives, before the reply is logged."""

CallSink = Callable[[int, str, str], None]
"""Receives each piece of a tool call's arguments as it arrives: the call's index in the reply,
its name (once known; empty before) and the piece."""


@runtime_checkable
class StreamingModelBackend(Protocol):
    """A backend that can also report its text while it streams; the final reply still counts."""

    def respond(self, history: Sequence[SessionEvent], tools: Sequence[ToolDefinition]) -> ModelReply: ...

    def respond_streaming(
        self,
        history: Sequence[SessionEvent],
        tools: Sequence[ToolDefinition],
        on_text: TextSink,
        on_call: CallSink | None = None,
    ) -> ModelReply: ...


class ModelError(Exception):
    """The backend could not answer; the turn ends with an `agent/error` event."""


Outcome = Literal["committed", "discarded"]


class Notifier(Protocol):
    """Tells subscribers of a session what changed, after the change is committed."""

    def changed(
        self,
        session_id: SessionId,
        events: Sequence[SessionEvent] = (),
        queue: bool = False,
        reset: bool = False,
    ) -> None:
        """`reset` means the history itself changed (a rewind): reload rather than append."""


@runtime_checkable
class ProgressSink(Protocol):
    """Shows work in progress that is not in the log yet; a notifier may also be one."""

    def partial(self, session_id: SessionId, text: str) -> None:
        """The assistant's text so far in this model step; the logged event replaces it."""


@runtime_checkable
class CallProgressSink(Protocol):
    """Shows a tool call while the model still writes it; never logged, the call itself counts."""

    def preview(self, session_id: SessionId, call_key: str, name: str, arguments: str) -> None:
        """`arguments` is all of the call's text so far; `call_key` tells the calls of a step apart."""


class InboxObserver(Protocol):
    """Learns the one terminal outcome of every claimed inbox item."""

    def outcome(self, item: InboxItem, outcome: Outcome, reason: str) -> None: ...
