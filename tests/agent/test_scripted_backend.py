"""The offline scripted agent on hand-made histories: demos, verbatim tool calls, replies."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from tasksurface.agent.ports import ModelReply, ToolDefinition
from tasksurface.backends.demos import DEMOS
from tasksurface.backends.scripted import ScriptedBackend
from tasksurface.domain.events import (
    SessionEvent,
    TaskSurfaceCorrelation,
    text_content,
    user_message,
    user_source,
)
from tasksurface.domain.ids import CallId, MessageId, RpcId, TaskSurfaceId, TaskSurfaceSubmissionId
from tasksurface.domain.parser import parse_arguments
from tasksurface.tools.show_task_surface import ShowTaskSurface

DEMO_NAMES = ["compare", "plan", "review", "fields", "all"]
AT = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
WITH_SURFACE = [ShowTaskSurface().definition]
OTHER_TOOL = ToolDefinition("lookup", "Look something up.", {"type": "object"})


def said(text: str, source: dict[str, Any] | None = None, seq: int = 1) -> SessionEvent:
    """A user message event as the log holds it."""
    source = source or user_source(RpcId("rpc_scripted_01"))
    payload = user_message(MessageId(f"msg_scripted_{seq:03d}"), source, text_content(text))
    return SessionEvent(seq, "user/message", AT, payload)


def history_of(*texts: str) -> list[SessionEvent]:
    """Earlier chat, then the last message the backend answers."""
    events: list[SessionEvent] = []
    for n, text in enumerate(texts, start=1):
        if events:
            events.append(SessionEvent(len(events) + 1, "assistant/message", AT, {"text": f"reply {n}"}))
        events.append(said(text, seq=len(events) + 1))
    return events


def respond(*texts: str, tools: list[ToolDefinition] = WITH_SURFACE) -> ModelReply:
    return ScriptedBackend().respond(history_of(*texts), tools)


def demo_model(name: str) -> dict[str, Any]:
    reply = respond(f"/surface {name}")
    (request,) = reply.tool_calls
    assert request.name == "show_task_surface"
    normal: dict[str, Any] = parse_arguments(request.arguments).normalised()
    return normal


def blocks(model: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for section in model["sections"]:
        yield from section["blocks"]


# -- /surface ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", DEMO_NAMES)
def test_each_demo_is_one_show_task_surface_call_with_parseable_arguments(name: str) -> None:
    reply = respond("hello", f"/surface {name}")
    assert len(reply.tool_calls) == 1
    request = reply.tool_calls[0]
    assert request.name == "show_task_surface"
    assert request.call_id
    model = parse_arguments(request.arguments)  # raises a refusal if the demo is not valid
    assert json.loads(request.arguments) == {"model": DEMOS[name]}
    assert model.title == DEMOS[name]["title"]


def test_the_demos_together_use_every_block_layout_and_field_kind() -> None:
    models = [demo_model(name) for name in DEMO_NAMES]
    block_kinds = {b["kind"] for m in models for b in blocks(m)}
    layouts = {(s["layout"]["kind"], s["layout"].get("columns")) for m in models for s in m["sections"]}
    explicit_layouts = {
        (s["layout"]["kind"], s["layout"].get("columns"))
        for name in DEMO_NAMES
        for s in DEMOS[name]["sections"]
        if "layout" in s
    }
    fields = [f for m in models for f in m["fields"]]
    field_kinds = {f["kind"] for f in fields}
    texts = [f for f in fields if f["kind"] == "text"]
    tones = {b["tone"] for m in models for b in blocks(m) if b["kind"] == "notice"}

    assert block_kinds == {"markdown", "metrics", "table", "diff", "notice"}
    assert layouts == {("stack", None), ("grid", 2), ("grid", 3)}
    assert ("stack", None) in explicit_layouts  # written out once, not only by default
    assert field_kinds == {"text", "choice", "multi-choice", "toggle", "order"}
    assert any(f["multiline"] for f in texts) and any(not f["multiline"] for f in texts)
    assert tones == {"neutral", "info", "warning"}


def test_surface_without_a_name_shows_the_all_demo() -> None:
    (request,) = respond("/surface").tool_calls
    assert json.loads(request.arguments) == {"model": DEMOS["all"]}


def test_an_unknown_demo_gets_a_prose_answer() -> None:
    reply = respond("/surface spaceship")
    assert not reply.tool_calls
    assert reply.text and "spaceship" in reply.text
    assert all(name in reply.text for name in DEMO_NAMES)


@pytest.mark.parametrize("name", DEMO_NAMES)
def test_without_show_task_surface_a_demo_is_answered_in_prose(name: str) -> None:
    for tools in ([], [OTHER_TOOL]):
        reply = respond(f"/surface {name}", tools=tools)
        assert not reply.tool_calls
        assert reply.text


# -- /tool ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        '{"model": {"version": 1}}',
        '{ "a" :1,\n  "a": 2 }',
        "not json at all",
        '{"model": {"title": "caf\\u00e9 ☕"}}',
    ],
    ids=["json", "duplicate-keys-and-spacing", "not-json", "escapes-and-unicode"],
)
def test_tool_passes_the_json_text_through_verbatim(raw: str) -> None:
    reply = respond(f"/tool show_task_surface {raw}")
    (request,) = reply.tool_calls
    assert request.name == "show_task_surface"
    assert request.arguments == raw
    assert not reply.text


def test_tool_calls_any_named_tool_even_one_not_advertised() -> None:
    (request,) = respond('/tool lookup {"q": 1}', tools=[]).tool_calls
    assert (request.name, request.arguments) == ("lookup", '{"q": 1}')


def test_tool_without_json_sends_an_empty_object() -> None:
    (request,) = respond("/tool lookup").tool_calls
    assert (request.name, request.arguments) == ("lookup", "{}")


def test_every_tool_call_gets_a_distinct_call_id() -> None:
    ids = {respond("/tool lookup {}").tool_calls[0].call_id for _ in range(5)}
    assert len(ids) == 5


# -- replies ----------------------------------------------------------------------------


def test_a_task_surface_submission_is_acknowledged_quoting_the_submitted_text() -> None:
    submitted = "Release checklist\n- Release name: 1.4.0\n- Channel: Beta\nNote: ship it"
    correlation = TaskSurfaceCorrelation(
        TaskSurfaceSubmissionId("sub_scripted_01"),
        CallId("call_scripted_01"),
        TaskSurfaceId("ts_scripted_001"),
        {"name": "1.4.0", "channel": "beta"},
    )
    source = user_source(RpcId("rpc_scripted_02"), correlation)
    history = [*history_of("/surface fields"), said(submitted, source, seq=2)]
    reply = ScriptedBackend().respond(history, WITH_SURFACE)

    assert not reply.tool_calls
    assert reply.text
    for line in submitted.split("\n"):
        assert f"> {line}" in reply.text
    # The same text without the correlation is an ordinary message, not an acknowledgement.
    plain = ScriptedBackend().respond([said(submitted)], WITH_SURFACE)
    assert plain.text != reply.text


def test_a_submission_that_looks_like_a_command_is_still_acknowledged() -> None:
    correlation = TaskSurfaceCorrelation(
        TaskSurfaceSubmissionId("sub_scripted_02"),
        CallId("call_scripted_02"),
        TaskSurfaceId("ts_scripted_002"),
        {"why": "/surface all"},
    )
    source = user_source(RpcId("rpc_scripted_03"), correlation)
    reply = ScriptedBackend().respond([said("/surface all", source)], WITH_SURFACE)
    assert not reply.tool_calls
    assert reply.text and "> /surface all" in reply.text


def test_a_plain_message_gets_a_short_prose_reply() -> None:
    reply = respond("what can you do?")
    assert not reply.tool_calls
    assert reply.text and "what can you do?" in reply.text
    assert len(reply.text) < 600


def test_an_empty_history_gets_a_prose_greeting() -> None:
    reply = ScriptedBackend().respond([], WITH_SURFACE)
    assert reply.text and not reply.tool_calls


def test_after_a_tool_result_it_reports_in_prose_and_stops() -> None:
    result = SessionEvent(
        3,
        "tool/result",
        AT,
        {
            "callId": "call_scripted_03",
            "name": "lookup",
            "ok": False,
            "content": text_content("error: nothing found"),
        },
    )
    reply = ScriptedBackend().respond([*history_of("/tool lookup {}"), result], WITH_SURFACE)
    assert not reply.tool_calls
    assert reply.text and "lookup" in reply.text and "nothing found" in reply.text
