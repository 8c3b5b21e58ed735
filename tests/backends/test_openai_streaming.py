"""Streamed text reaches the page as it arrives, then the logged message replaces it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from openai.types.chat import ChatCompletionChunk

from tasksurface.backends.openai_chat import OpenAIChatBackend, OpenAIChatConfig

from ..support import Api
from .scenes import SURFACE_ARGS, kinds
from .wire import Call, Stream, WireServer


def _logged(message: dict[str, Any], kind: str) -> bool:
    return message.get("type") == "change" and any(e["kind"] == kind for e in message.get("events", []))


def _label(message: dict[str, Any]) -> str:
    if message["type"] in ("partial", "preview"):
        return str(message["type"])
    return ",".join(e["kind"] for e in message.get("events", []))


def _first(labels: list[str], kind: str) -> int:
    """Where `kind` is first pushed: the push worker may merge several events into one change."""
    return next(i for i, label in enumerate(labels) if kind in label.split(","))


def test_text_is_pushed_piece_by_piece_before_the_final_message(api: Api, wire: WireServer) -> None:
    first_shown = threading.Event()  # newer text replaces a push still waiting: hold the rest
    wire.script(Stream(text=["Hel", "lo, ", "wor", "ld."], delay=0.12, after_first=first_shown))
    sid = api.create_session()
    with api.socket(sid) as socket:
        socket.receive_until(lambda m: m["type"] == "hello")
        api.send(sid, "hi")
        socket.receive_until(lambda m: m["type"] == "partial")
        first_shown.set()
        socket.receive_until(lambda m: _logged(m, "assistant/message"))

    partials = [m["text"] for m in socket.seen if m["type"] == "partial"]
    # Each push is the whole text so far; pieces closer than PARTIAL_INTERVAL may share a push.
    assert partials[0] == "Hel" and len(partials) >= 3
    assert all(later.startswith(earlier) and later != earlier for earlier, later in pairwise(partials))
    assert "Hello, world.".startswith(partials[-1])
    labels = [_label(m) for m in socket.seen]
    assert _first(labels, "user/message") < labels.index("partial") < _first(labels, "assistant/message")
    assert "partial" not in labels[_first(labels, "assistant/message") :]
    assert kinds(api.settled(sid)) == ["user/message", "assistant/message"]


def test_text_before_a_panel_streams_too_and_the_panel_previews_before_its_result(
    api: Api, wire: WireServer
) -> None:
    first_shown = threading.Event()  # newer text replaces a push still waiting: hold the rest
    wire.script(
        Stream(
            text=["One ", "moment."],
            calls=[Call("call_colour_001", "show_task_surface", SURFACE_ARGS, pieces=5)],
            delay=0.08,
            after_first=first_shown,
        )
    )
    sid = api.create_session()
    with api.socket(sid) as socket:
        socket.receive_until(lambda m: m["type"] == "hello")
        api.send(sid, "which colour?")
        socket.receive_until(lambda m: m["type"] == "partial")
        first_shown.set()
        socket.receive_until(lambda m: _logged(m, "tool/result"))

    partials = [m["text"] for m in socket.seen if m["type"] == "partial"]
    assert partials[0] == "One " and all("One moment.".startswith(p) for p in partials)
    assert api.projection(sid)["active"]["callId"] == "call_colour_001"
    labels = [_label(m) for m in socket.seen]
    previews = [i for i, label in enumerate(labels) if label == "preview"]
    assert previews and previews[-1] < _first(labels, "assistant/message")


def test_a_stream_that_breaks_off_becomes_an_error_event(api: Api, wire: WireServer) -> None:
    wire.script(Stream(text=["Half an ans"], truncate=True))
    sid = api.create_session()
    api.send(sid, "hello")
    events = api.settled(sid)
    assert kinds(events) == ["user/message", "agent/error"]
    assert "broke off" in events[1]["payload"]["message"]


def test_an_answer_with_nothing_in_it_is_an_error_not_silence(api: Api, wire: WireServer) -> None:
    wire.script(Stream(text=["\n", "  "]))
    sid = api.create_session()
    api.send(sid, "hello")
    events = api.settled(sid)
    assert kinds(events) == ["user/message", "agent/error"]
    assert "empty answer (finish reason: stop)" in events[1]["payload"]["message"]


class _FakeStream:
    """What `client.chat.completions.create(stream=True)` returns: a closable iterator of chunks."""

    def __init__(self, chunks: list[ChatCompletionChunk]) -> None:
        self.chunks = chunks

    def __enter__(self) -> _FakeStream:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def __iter__(self) -> Iterator[ChatCompletionChunk]:
        return iter(self.chunks)


def _chunk(delta: dict[str, Any], finish: str | None = None) -> ChatCompletionChunk:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return ChatCompletionChunk.model_validate(
        {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m", "choices": [choice]}
    )


def test_each_piece_of_a_streamed_call_goes_to_the_call_sink_as_it_arrives() -> None:
    pieces = [SURFACE_ARGS[:7], SURFACE_ARGS[7:40], SURFACE_ARGS[40:]]
    chunks = [
        _chunk({"role": "assistant", "content": "One moment."}),
        _chunk(
            {"tool_calls": [{"index": 0, "id": "call_edge_0001", "function": {"name": "show_task_surface"}}]}
        ),
        *(_chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]}) for p in pieces),
        _chunk({}, "tool_calls"),
    ]
    backend = OpenAIChatBackend(OpenAIChatConfig(model="m", api_key="sk-edge-test", max_retries=0))
    backend.client.chat.completions.create = lambda **_: _FakeStream(chunks)  # type: ignore[method-assign,assignment]
    heard: list[tuple[int, str, str]] = []
    reply = backend.respond_streaming([], [], lambda _t: None, lambda *c: heard.append(c))
    assert heard == [(0, "show_task_surface", p) for p in pieces]
    assert reply.tool_calls[0].arguments == SURFACE_ARGS
    assert backend.respond_streaming([], [], lambda _t: None).tool_calls[0].arguments == SURFACE_ARGS
