"""The offline scripted agent: deterministic, so the demo needs no network and tests drive real tools.

- `/surface <demo>` shows a shipped demo panel;
- `/tool <name> <json>` calls any tool with that JSON verbatim;
- a Task Surface submission gets an acknowledgement quoting the submitted values;
- anything else gets a short prose reply.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence

from ..agent.ports import ModelReply, ToolCallRequest, ToolDefinition
from ..domain.events import SessionEvent, content_text, read_correlation
from .demos import DEMOS

HELP = (
    "I am the scripted demo agent. Try `/surface all` (or `compare`, `plan`, `review`, `fields`) "
    "to see a Task Surface, or `/tool <name> <json>` to call a tool directly."
)


class ScriptedBackend:
    def respond(self, history: Sequence[SessionEvent], tools: Sequence[ToolDefinition]) -> ModelReply:
        last = history[-1] if history else None
        if last is None:
            return ModelReply(HELP)
        if last.kind == "tool/result":
            ok = "succeeded" if last.payload.get("ok") else "failed"
            return ModelReply(
                f"The tool `{last.payload.get('name')}` {ok}:\n\n{content_text(last.payload.get('content'))}"
            )
        if last.kind != "user/message":
            return ModelReply(None)
        text = content_text(last.payload.get("content")).strip()
        if read_correlation(last.payload.get("source")) is not None:
            quoted = "\n".join("> " + line for line in text.split("\n"))
            return ModelReply(f"Thanks, I have your answers:\n\n{quoted}")
        return self._command(text, {t.name for t in tools})

    def _command(self, text: str, tool_names: set[str]) -> ModelReply:
        if text.startswith("/surface"):
            demo = text.removeprefix("/surface").strip() or "all"
            if demo not in DEMOS:
                return ModelReply(f"There is no demo `{demo}`; try one of: {', '.join(sorted(DEMOS))}.")
            if "show_task_surface" not in tool_names:
                return ModelReply("Task Surface is not available here, so let us continue in chat.")
            arguments = json.dumps({"model": DEMOS[demo]}, ensure_ascii=False)
            return ModelReply("Here is a panel for that.", [_call("show_task_surface", arguments)])
        if text.startswith("/tool"):
            parts = text.removeprefix("/tool").strip().split(None, 1)
            if not parts:
                return ModelReply("Usage: `/tool <name> <json>`")
            return ModelReply(None, [_call(parts[0], parts[1] if len(parts) > 1 else "{}")])
        return ModelReply(f"You said: {text}\n\n{HELP}")


def _call(name: str, arguments: str) -> ToolCallRequest:
    return ToolCallRequest("call_" + secrets.token_urlsafe(12), name, arguments)
