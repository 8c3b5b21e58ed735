"""A model backend for any OpenAI-compatible Chat Completions endpoint (OpenAI, DeepSeek, vLLM, Ollama…).

Every request is `{model, stream: true, messages: [system, …history], tools}`: no sampling
settings and no `tool_choice`, so each provider's defaults apply and the prefix (model,
system prompt, tools) is byte-identical for every session in one tool mode. The reply
streams; text pieces go to `on_text` as they arrive. Retries with backoff on timeouts,
408, 409, 429 and 5xx are the `openai` client's own (`max_retries`); anything the
provider still refuses becomes a `ModelError`, which the runner logs as `agent/error`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import openai

from ..agent.ports import CallSink, ModelError, ModelReply, TextSink, ToolCallRequest, ToolDefinition
from ..domain.events import SessionEvent
from ..domain.ids import is_wire_id
from ..domain.presentation import TOOL_NAME
from ..domain.tasks import is_delegated
from .call_tool import NAME as DISPATCHER
from .openai_messages import Message, history_messages, tool_specs
from .prompt import SUBAGENT, system_prompt


@dataclass(frozen=True)
class OpenAIChatConfig:
    model: str
    api_key: str
    base_url: str | None = None
    timeout: float = 60.0
    max_retries: int = 2


class OpenAIChatBackend:
    """One `openai.OpenAI` client per process; it is thread-safe, so runners share it."""

    def __init__(self, config: OpenAIChatConfig) -> None:
        self.config = config
        self.client = openai.OpenAI(
            api_key=config.api_key,
            base_url=config.base_url,
            timeout=config.timeout,
            max_retries=config.max_retries,
        )

    def respond(self, history: Sequence[SessionEvent], tools: Sequence[ToolDefinition]) -> ModelReply:
        return self.respond_streaming(history, tools, lambda _piece: None)

    def respond_streaming(
        self,
        history: Sequence[SessionEvent],
        tools: Sequence[ToolDefinition],
        on_text: TextSink,
        on_call: CallSink | None = None,
    ) -> ModelReply:
        messages = request_messages(history, tools)
        specs = tool_specs(tools)
        try:
            stream = self.client.chat.completions.create(
                model=self.config.model,
                messages=cast(Any, messages),
                tools=cast(Any, specs if specs else openai.NOT_GIVEN),
                stream=True,
            )
            with stream:
                reply = _collect(stream, on_text, on_call)
        except ModelError:
            raise
        except openai.APIError as exc:
            raise ModelError(self._explain(exc)) from exc
        except Exception as exc:  # the connection broke mid-stream, or the stream was not what we expect
            raise ModelError(f"the model's answer broke off: {type(exc).__name__}: {exc}") from exc
        return reply.finish(_used_call_ids(history))

    def _explain(self, exc: openai.APIError) -> str:
        """A short, actionable message for the person; never the key."""
        where = self.config.base_url or "the OpenAI API"
        tries = self.config.max_retries
        retried = f" after {tries} {'retry' if tries == 1 else 'retries'}" if tries else ""
        if isinstance(exc, openai.AuthenticationError):
            return f"the model provider at {where} refused the API key (401); check OPENAI_API_KEY"
        if isinstance(exc, openai.PermissionDeniedError):
            return f"the API key may not use model {self.config.model!r} at {where} (403)"
        if isinstance(exc, openai.NotFoundError):
            return f"the model provider at {where} does not know model {self.config.model!r} (404)"
        if isinstance(exc, openai.RateLimitError):
            return f"the model provider at {where} is rate limiting us (429){retried}; try again later"
        if isinstance(exc, openai.APITimeoutError):
            return f"the model provider at {where} did not answer within {self.config.timeout:g} s{retried}"
        if isinstance(exc, openai.APIConnectionError):
            return f"could not reach the model provider at {where}{retried}"
        if isinstance(exc, openai.APIStatusError):
            return f"the model provider at {where} failed ({exc.status_code}){retried}: {_brief(exc)}"
        return f"the model provider at {where} failed: {_brief(exc)}"


def request_messages(history: Sequence[SessionEvent], tools: Sequence[ToolDefinition]) -> list[Message]:
    """The system prompt for the advertised tools, then the history."""
    names = {t.name for t in tools}
    if is_delegated(history):
        return [{"role": "system", "content": SUBAGENT}, *history_messages(history)]
    prompt = system_prompt(TOOL_NAME in names, DISPATCHER in names, "task_output" in names)
    return [{"role": "system", "content": prompt}, *history_messages(history)]


@dataclass
class _PendingCall:
    call_id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


@dataclass
class _Reply:
    text: list[str] = field(default_factory=list)
    calls: dict[int, _PendingCall] = field(default_factory=dict)
    finish_reason: str | None = None
    """Why the provider stopped; a stream that ends without saying so broke off."""

    def finish(self, used_ids: set[str]) -> ModelReply:
        requests = []
        for index in sorted(self.calls):
            pending = self.calls[index]
            call_id = pending.call_id
            # Ids go to the page and back to the provider; mint one when the provider's is unusable.
            if not is_wire_id(call_id) or call_id in used_ids:
                call_id = "call_" + secrets.token_urlsafe(12)
            used_ids.add(call_id)
            requests.append(ToolCallRequest(call_id, pending.name, "".join(pending.arguments)))
        text = "".join(self.text)
        return ModelReply(text if text.strip() else None, tuple(requests))


def _collect(chunks: Iterable[Any], on_text: TextSink, on_call: CallSink | None = None) -> _Reply:
    """Fold the streamed chunks into one reply: text pieces, and tool calls by index (each piece
    of a call's arguments also goes to `on_call` as it arrives)."""
    reply = _Reply()
    for chunk in chunks:
        for choice in chunk.choices or ():
            if choice.index != 0:
                continue
            if choice.finish_reason:
                reply.finish_reason = str(choice.finish_reason)
            delta = choice.delta
            if delta is None:
                continue
            if delta.content:
                reply.text.append(delta.content)
                on_text(delta.content)
            for piece in delta.tool_calls or ():
                pending = reply.calls.setdefault(piece.index, _PendingCall())
                if piece.id:
                    pending.call_id = piece.id
                if piece.function is not None:
                    if piece.function.name and not pending.name:
                        pending.name = piece.function.name
                    if piece.function.arguments:
                        pending.arguments.append(piece.function.arguments)
                        if on_call is not None:
                            on_call(piece.index, pending.name, piece.function.arguments)
    if reply.finish_reason is None:
        raise ModelError("the model's answer broke off before the provider finished it")
    if not "".join(reply.text).strip() and not reply.calls:
        raise ModelError(f"the model gave an empty answer (finish reason: {reply.finish_reason})")
    return reply


def _used_call_ids(history: Sequence[SessionEvent]) -> set[str]:
    return {str(e.payload.get("callId")) for e in history if e.kind == "tool/call"}


def _brief(exc: openai.APIError) -> str:
    """The provider's own error message, bounded."""
    body = exc.body
    message: object = None
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
    text = str(message) if message else exc.message
    return text if len(text) <= 300 else text[:297] + "..."
