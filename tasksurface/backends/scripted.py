"""The offline scripted agent: deterministic, so the demo needs no network and tests drive real tools.

- `/surface <demo>` shows a shipped demo panel;
- `/ask <question>` asks a short blocking question (`/ask Which region? | EU | US` offers
  suggested answers), and the answer is read back when it arrives;
- `/tool <name> <json>` calls any tool with that JSON verbatim;
- `/run <command> [<json args>]`, `/delegate <label> | <prompt>`, `/output <task id> [wait [<ms>]]`,
  `/tasks` and `/kill <task id> [<reason>]` start, read, list and stop background tasks;
- a completion notice logged since its last reply is acknowledged in the next reply;
- as a `delegate_task` sub-agent, it answers with a short numbered report of the prompt;
- several commands, one per line, become several calls in one reply, in that order;
- a Task Surface submission gets an acknowledgement quoting the submitted values;
- anything else gets a short prose reply.

With a pause it streams like a real model: its text, then each tool call's arguments, in pieces
of about `PIECE_CHARS`, with the pause between pieces (so the page shows panels as they arrive).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator, Sequence

from ..agent.ports import CallSink, ModelReply, TextSink, ToolCallRequest, ToolDefinition
from ..domain.events import SessionEvent, content_text, read_action, read_correlation
from ..domain.question import QUESTION_TOOL
from ..domain.tasks import NOTICE_KIND, is_delegated, read_notice
from .demos import DEMOS

HELP = (
    "I am the scripted demo agent. Try `/surface all` (or `compare`, `plan`, `review`, `fields`) "
    "to see a Task Surface, `/ask <question>` for a short question in the composer, "
    "`/run count` to start a background task (then `/tasks`, `/output <id>`, `/kill <id>`), or "
    "`/tool <name> <json>` to call a tool directly."
)


COMMANDS = ("/surface", "/ask", "/tool", "/run", "/delegate", "/output", "/tasks", "/kill")
PIECE_CHARS = 160


class ScriptedBackend:
    def __init__(self, pause: float = 0.0, sleep: Callable[[float], None] = time.sleep) -> None:
        self.pause = pause
        """Seconds between streamed pieces; 0 answers whole, at once."""
        self.sleep = sleep

    def respond_streaming(
        self,
        history: Sequence[SessionEvent],
        tools: Sequence[ToolDefinition],
        on_text: TextSink,
        on_call: CallSink | None = None,
    ) -> ModelReply:
        """The same reply as `respond`, reported piece by piece first, as a provider streams it."""
        reply = self.respond(history, tools)
        if self.pause <= 0:
            return reply
        first = True
        for index, name, piece in _stream(reply, on_call is not None):
            if not first:
                self.sleep(self.pause)
            first = False
            if index < 0:
                on_text(piece)
            elif on_call is not None:
                on_call(index, name, piece)
        return reply

    def respond(self, history: Sequence[SessionEvent], tools: Sequence[ToolDefinition]) -> ModelReply:
        if is_delegated(history):
            return ModelReply(subagent_report(content_text(history[0].payload.get("content"))))
        reply = self._respond([e for e in history if e.kind != NOTICE_KIND], tools)
        noticed = _notices_since_last_reply(history)
        if not noticed:
            return reply
        heard = "\n".join("> " + text for text in noticed)
        return ModelReply(
            f"Noted:\n\n{heard}" + (f"\n\n{reply.text}" if reply.text else ""), reply.tool_calls
        )

    def _respond(self, history: Sequence[SessionEvent], tools: Sequence[ToolDefinition]) -> ModelReply:
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
        task_call = _task_command(text)
        if task_call is not None:
            return task_call
        if text.startswith("/tool"):
            parts = text.removeprefix("/tool").strip().split(None, 1)
            if not parts:
                return ModelReply("Usage: `/tool <name> <json>`")
            return ModelReply(None, [_call(parts[0], parts[1] if len(parts) > 1 else "{}")])
        return ModelReply(f"You said: {text}\n\n{HELP}")


def _task_command(text: str) -> ModelReply | None:
    """`/run`, `/delegate`, `/output`, `/tasks` and `/kill`: the background task tools."""
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    if word == "/run":
        name, _, args = rest.partition(" ")
        if not name:
            return ModelReply('Usage: `/run <command> [<json args>]`, e.g. `/run count {"n": 5}`')
        try:
            parsed = json.loads(args) if args.strip() else {}
        except ValueError:
            return ModelReply("The arguments after the command name must be a JSON object.")
        return ModelReply(None, [_call("run_command", json.dumps({"name": name, "args": parsed}))])
    if word == "/delegate":
        label, _, prompt = rest.partition("|")
        if not label.strip() or not prompt.strip():
            return ModelReply("Usage: `/delegate <label> | <prompt>`")
        arguments = {"label": label.strip(), "prompt": prompt.strip()}
        return ModelReply(None, [_call("delegate_task", json.dumps(arguments, ensure_ascii=False))])
    if word in ("/output", "/kill") and not rest:
        return ModelReply(f"Usage: `{word} <task id>`; `/tasks` lists them.")
    if word == "/output":
        task_id, *options = rest.split()
        read: dict[str, object] = {"task_id": task_id}
        if options[:1] == ["wait"]:
            read["wait"] = True
            if len(options) > 1 and options[1].isdigit():
                read["timeout_ms"] = int(options[1])
        return ModelReply(None, [_call("task_output", json.dumps(read))])
    if word == "/tasks":
        return ModelReply(None, [_call("task_list", "{}")])
    if word == "/kill":
        task_id, _, reason = rest.partition(" ")
        killed: dict[str, object] = {"task_id": task_id}
        if reason.strip():
            killed["reason"] = reason.strip()
        return ModelReply(None, [_call("task_kill", json.dumps(killed, ensure_ascii=False))])
    return None


def subagent_report(prompt: str) -> str:
    """What the scripted sub-agent answers: deterministic, a line per step, so its output streams."""
    steps = [part.strip() for part in prompt.replace("\n", ",").split(",") if part.strip()][:20]
    lines = [f"Working on: {prompt.strip()}", ""]
    lines += [f"{i}. looked at {step}" for i, step in enumerate(steps, 1)]
    return "\n".join([*lines, "", "Done."])


def _notices_since_last_reply(history: Sequence[SessionEvent]) -> list[str]:
    noticed: list[str] = []
    for event in reversed(history):
        if event.kind == NOTICE_KIND:
            noticed.append(read_notice(event.payload))
        elif event.kind in ("assistant/message", "tool/call"):
            break
    return list(reversed(noticed))


def _stream(reply: ModelReply, calls: bool) -> Iterator[tuple[int, str, str]]:
    """The reply as a provider streams it: text pieces (index -1), then each call's arguments."""
    yield from ((-1, "", piece) for piece in _pieces(reply.text or ""))
    for index, call in enumerate(reply.tool_calls if calls else ()):
        yield from ((index, call.name, piece) for piece in _pieces(call.arguments))


def _pieces(text: str) -> Iterator[str]:
    for start in range(0, len(text), PIECE_CHARS):
        yield text[start : start + PIECE_CHARS]


def _call(name: str, arguments: str) -> ToolCallRequest:
    return ToolCallRequest("call_" + secrets.token_urlsafe(12), name, arguments)
