"""The session log and the tool definitions in the shape of the Chat Completions API.

What the model reads, event by event:

- `user/message` → a `user` message with the content text. A Task Surface submission is
  the same readable summary the user sees in their bubble; its structured source never goes.
- `assistant/message` → an `assistant` message with that text. Tool calls that follow it
  directly (no result between them) join it as its `tool_calls`; a call that follows a
  result starts a new `assistant` message. The log does not say whether two calls came in
  one reply, and both readings are valid requests; this one keeps the order in which results
  were seen.
- `tool/call` → an entry `{id, type: "function", function: {name, arguments}}` with the
  arguments string exactly as the model sent it.
- `tool/result` → a `tool` message with the call's id and the result text, in the order of
  the calls: the answer to a question (`ask_user_question`) is logged after the results of
  the calls that followed it, and still goes first. A call whose result was never logged
  (the host stopped mid-tool) gets a short error result, because the API refuses a call
  without an answer.
- `task-surface/dismissed` → a short `user` note that the panel was closed unanswered, so a
  later message is not read as the panel's answer.
- `task/notice` → a `user` message with the notice's text (a background task finished). A notice
  logged while calls wait for their results follows those results, so no call goes unanswered.
- `agent/error` → nothing: host and provider failures are for the person, not the model.
- `session/rewound` → nothing: the rewound events are already out of the history.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, assert_never

from ..agent.ports import ToolDefinition
from ..domain.events import SessionEvent, content_text
from ..domain.tasks import read_notice

Message = dict[str, Any]
MISSING_RESULT = "error: no result was recorded for this call (the host stopped before it finished)"


def dismissal_note(payload: Any) -> str:
    surface = payload.get("surfaceId", "?") if isinstance(payload, dict) else "?"
    return f"(The user closed Task Surface {surface} without submitting it.)"


def tool_specs(definitions: Sequence[ToolDefinition]) -> list[dict[str, Any]]:
    """Provider tools, in the registry's (sorted, stable) order."""
    return [
        {
            "type": "function",
            "function": {"name": d.name, "description": d.description, "parameters": d.parameters},
        }
        for d in definitions
    ]


def history_messages(history: Sequence[SessionEvent]) -> list[Message]:
    """Every message after the system prompt, in log order."""
    out = _Conversation()
    for event in history:
        payload = event.payload
        match event.kind:
            case "user/message":
                out.say("user", content_text(payload.get("content")))
            case "assistant/message":
                out.say("assistant", str(payload.get("text") or ""))
            case "tool/call":
                arguments = _arguments(payload.get("args"))
                out.call(str(payload.get("callId")), str(payload.get("name")), arguments)
            case "tool/result":
                out.result(str(payload.get("callId")), content_text(payload.get("content")))
            case "task-surface/dismissed":
                out.say("user", dismissal_note(dict(payload)))
            case "task/notice":
                out.note(read_notice(payload))
            case "agent/error" | "session/rewound":
                pass
            case _:
                assert_never(event.kind)
    return out.finish()


def _arguments(args: object) -> str:
    """The arguments string as the model sent it; anything else as compact JSON."""
    if isinstance(args, str):
        return args
    return json.dumps(args, ensure_ascii=False, separators=(",", ":"))


class _Conversation:
    """Builds the message list; keeps every tool call answered before the next message."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.unanswered: list[str] = []
        self.held: dict[str, str] = {}
        """Results that wait for the result of an earlier call of the same message."""
        self.open_assistant: Message | None = None
        """The assistant message later calls may join: nothing came after it yet but its own calls."""
        self.notes: list[str] = []
        """Notices that wait for the calls before them to be answered."""

    def note(self, text: str) -> None:
        """Context from the host; it never cuts a call off from its result."""
        if self.unanswered:
            self.notes.append(text)
        else:
            self.say("user", text)

    def say(self, role: str, text: str) -> None:
        self._answer_missing()
        message: Message = {"role": role, "content": text}
        self.messages.append(message)
        self.open_assistant = message if role == "assistant" else None

    def call(self, call_id: str, name: str, arguments: str) -> None:
        entry = {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
        if self.open_assistant is None:
            self._answer_missing()
            self.open_assistant = {"role": "assistant", "content": None}
            self.messages.append(self.open_assistant)
        self.open_assistant.setdefault("tool_calls", []).append(entry)
        self.unanswered.append(call_id)

    def result(self, call_id: str, text: str) -> None:
        if call_id not in self.unanswered or call_id in self.held:
            return  # a result without its call (cannot happen in a log the runner wrote): skip it
        self.held[call_id] = text
        # The answers to earlier calls of the same message must come first.
        while self.unanswered and self.unanswered[0] in self.held:
            first = self.unanswered.pop(0)
            self._tool(first, self.held.pop(first))
        if not self.unanswered:
            self._flush_notes()

    def finish(self) -> list[Message]:
        self._answer_missing()
        self._flush_notes()
        return self.messages

    def _flush_notes(self) -> None:
        notes, self.notes = self.notes, []
        for text in notes:
            self.say("user", text)

    def _tool(self, call_id: str, text: str) -> None:
        self.messages.append({"role": "tool", "tool_call_id": call_id, "content": text})
        self.open_assistant = None

    def _answer_missing(self) -> None:
        while self.unanswered:
            first = self.unanswered.pop(0)
            self._tool(first, self.held.pop(first, MISSING_RESULT))
