"""The offline scripted agent: deterministic, so the demo needs no network and tests drive real tools.

- `/surface <demo>` shows a shipped demo panel;
- `/ask <question>` asks a short blocking question (`/ask Which region? | EU | US` offers
  suggested answers), and the answer is read back when it arrives;
- `/tool <name> <json>` calls any tool with that JSON verbatim;
- several commands, one per line, become several calls in one reply, in that order;
- a Task Surface submission gets an acknowledgement quoting the submitted values;
- anything else gets a short prose reply.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence

from ..agent.ports import ModelReply, ToolCallRequest, ToolDefinition
from ..domain.events import SessionEvent, content_text, read_action, read_correlation
from ..domain.question import QUESTION_TOOL
from .demos import DEMOS

HELP = (
    "I am the scripted demo agent. Try `/surface all` (or `compare`, `plan`, `review`, `fields`) "
    "to see a Task Surface, `/ask <question>` for a short question in the composer, or "
    "`/tool <name> <json>` to call a tool directly."
)


COMMANDS = ("/surface", "/ask", "/tool")


class ScriptedBackend:
    def respond(self, history: Sequence[SessionEvent], tools: Sequence[ToolDefinition]) -> ModelReply:
        last = history[-1] if history else None
        if last is None:
            return ModelReply(HELP)
        if last.kind == "tool/result" and last.payload.get("name") == QUESTION_TOOL:
            answer = content_text(last.payload.get("content"))
            if not last.payload.get("ok"):
                return ModelReply("No answer then; tell me what you would like instead.")
            return ModelReply("You answered:\n\n" + "\n".join("> " + line for line in answer.split("\n")))
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
        if read_action(last.payload.get("source")) is not None:
            quoted = "\n".join("> " + line for line in text.split("\n"))
            return ModelReply(f"On it; the panel stays open. You asked:\n\n{quoted}")
        names = {t.name for t in tools}
        lines = [line.strip() for line in text.split("\n") if line.strip()]
        if len(lines) > 1 and all(line.startswith(COMMANDS) for line in lines):
            replies = [self._command(line, names) for line in lines]
            said = " ".join(r.text for r in replies if r.text)
            return ModelReply(said or None, [call for r in replies for call in r.tool_calls])
        return self._command(text, names)

    def _command(self, text: str, tool_names: set[str]) -> ModelReply:
        if text.startswith("/ask"):
            question, *options = [part.strip() for part in text.removeprefix("/ask").split("|")]
            if not question:
                return ModelReply("Usage: `/ask <question>` or `/ask <question> | <answer> | <answer>`")
            if QUESTION_TOOL not in tool_names:
                return ModelReply(question)  # no question tool here: ask in plain chat
            asked = json.dumps(
                {"question": question, "options": [o for o in options if o]}, ensure_ascii=False
            )
            return ModelReply(None, [_call(QUESTION_TOOL, asked)])
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
