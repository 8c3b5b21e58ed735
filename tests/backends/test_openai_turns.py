"""Tool calls as models make them, over the real wire: the backend, runner, tools, store and API."""

from __future__ import annotations

import json

import pytest

from tasksurface.agent.replies import NOT_RUN

from ..support import Api
from .scenes import (
    SURFACE_ARGS,
    assistant_calls,
    kinds,
    system_for,
    text_of,
    tool,
    tools_for,
    user,
)
from .wire import API_KEY, MODEL, Call, Stream, WireServer


def test_a_valid_surface_call_opens_the_panel_and_ends_the_turn(api: Api, wire: WireServer) -> None:
    wire.script(
        Stream(
            text=["Here is ", "a panel."], calls=[Call("call_colour_001", "show_task_surface", SURFACE_ARGS)]
        )
    )
    sid = api.create_session()
    api.send(sid, "which colour?")
    events = api.settled(sid)

    assert kinds(events) == ["user/message", "assistant/message", "tool/call", "tool/result"]
    assert text_of(events[1]) == "Here is a panel."
    assert events[2]["payload"] == {
        "callId": "call_colour_001",
        "name": "show_task_surface",
        "args": SURFACE_ARGS,
    }
    assert events[3]["payload"]["ok"] is True
    assert api.projection(sid)["active"]["callId"] == "call_colour_001"
    (request,) = wire.requests  # the call ended the turn: no second request
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    assert request.body == {
        "model": MODEL,
        "stream": True,
        "messages": [system_for("native"), user("which colour?")],
        "tools": tools_for("native"),
    }


def test_an_invalid_surface_is_refused_and_fixed_in_the_same_turn(api: Api, wire: WireServer) -> None:
    duplicated = SURFACE_ARGS[:-1] + ', "model": {}}'  # two "model" keys: refused, never guessed
    wire.script(
        Stream(calls=[Call("call_first_0001", "show_task_surface", duplicated)]),
        Stream(text=["Fixed."], calls=[Call("call_again_0002", "show_task_surface", SURFACE_ARGS)]),
    )
    sid = api.create_session()
    api.send(sid, "which colour?")
    events = api.settled(sid)

    assert kinds(events) == [
        "user/message",
        "tool/call",
        "tool/result",
        "assistant/message",
        "tool/call",
        "tool/result",
    ]
    refusal = text_of(events[2])
    assert events[2]["payload"]["ok"] is False
    assert json.loads(refusal.removeprefix("error: "))["code"] == "surface.duplicate-key"
    assert events[5]["payload"]["ok"] is True
    assert api.projection(sid)["active"]["callId"] == "call_again_0002"
    first, second = wire.requests
    assert first.messages == [system_for("native"), user("which colour?")]
    assert second.body == {
        "model": MODEL,
        "stream": True,
        "messages": [
            system_for("native"),
            user("which colour?"),
            assistant_calls(("call_first_0001", "show_task_surface", duplicated)),
            tool("call_first_0001", refusal),
        ],
        "tools": tools_for("native"),
    }


def test_two_calls_in_one_response_meet_the_barrier_and_the_answer_reads_as_text(
    api: Api, wire: WireServer
) -> None:
    wire.script(
        Stream(
            text=["Two panels?"],
            calls=[
                Call("call_one_000001", "show_task_surface", SURFACE_ARGS),
                Call("call_two_000002", "show_task_surface", SURFACE_ARGS),
            ],
        )
    )
    sid = api.create_session()
    api.send(sid, "which colour?")
    events = api.settled(sid)

    assert kinds(events) == ["user/message", "assistant/message", *["tool/call", "tool/result"] * 2]
    first, second = events[3], events[5]
    assert (first["payload"]["callId"], first["payload"]["ok"]) == ("call_one_000001", True)
    assert (second["payload"]["callId"], second["payload"]["ok"]) == ("call_two_000002", False)
    assert text_of(second) == NOT_RUN
    active = api.projection(sid)["active"]
    assert active["callId"] == "call_one_000001"
    assert len(wire.requests) == 1

    wire.script(Stream(text=["Blue it is."]))
    assert api.submit(sid, active["surfaceId"], {"colour": "blue"}, note="for the logo")["accepted"]
    events = api.settled(sid)
    answer = events[-2]
    assert answer["kind"] == "user/message" and answer["payload"]["source"].get("taskSurface")
    readable = text_of(answer)
    assert "Blue" in readable and "for the logo" in readable
    assert text_of(events[-1]) == "Blue it is."
    assert wire.requests[1].messages == [
        system_for("native"),
        user("which colour?"),
        assistant_calls(("call_one_000001", "show_task_surface", SURFACE_ARGS), text="Two panels?"),
        tool("call_one_000001", text_of(first)),
        assistant_calls(("call_two_000002", "show_task_surface", SURFACE_ARGS)),
        tool("call_two_000002", NOT_RUN),
        user(readable),  # the same text the user sees, never the structured source
    ]
    assert "taskSurface" not in wire.requests[1].raw.decode()


@pytest.mark.parametrize("tool_mode", ["code"])
def test_code_mode_offers_only_the_dispatcher_and_no_panel(api: Api, wire: WireServer) -> None:
    nested = json.dumps({"name": "show_task_surface", "arguments": json.loads(SURFACE_ARGS)})
    wire.script(
        Stream(calls=[Call("call_nested_001", "call_tool", nested)]),
        Stream(text=["Let us do it in chat, then."]),
    )
    sid = api.create_session()
    api.send(sid, "which colour?")
    events = api.settled(sid)

    assert kinds(events) == ["user/message", "tool/call", "tool/result", "assistant/message"]
    assert events[2]["payload"]["ok"] is False
    assert text_of(events[2]) == "error: there is no tool named 'show_task_surface'"
    assert api.projection(sid)["active"] is None
    first, second = wire.requests
    assert first.tool_names == ["call_tool"]
    assert "show_task_surface" not in first.raw.decode()  # not in the tools, not in the prompt
    assert second.messages[-2:] == [
        assistant_calls(("call_nested_001", "call_tool", nested)),
        tool("call_nested_001", text_of(events[2])),
    ]


@pytest.mark.parametrize("tool_mode", ["both"])
def test_both_mode_shows_a_panel_directly_but_never_through_the_dispatcher(
    api: Api, wire: WireServer
) -> None:
    nested = json.dumps({"name": "show_task_surface", "arguments": json.loads(SURFACE_ARGS)})
    wire.script(
        Stream(calls=[Call("call_nested_001", "call_tool", nested)]),
        Stream(calls=[Call("call_direct_01", "show_task_surface", SURFACE_ARGS)]),
    )
    sid = api.create_session()
    api.send(sid, "which colour?")
    events = api.settled(sid)

    assert kinds(events) == ["user/message", *["tool/call", "tool/result"] * 2]
    refusal = text_of(events[2])
    assert json.loads(refusal.removeprefix("error: "))["code"] == "surface.nested-call"
    assert "meta" not in events[2]["payload"]
    assert events[4]["payload"]["ok"] is True
    assert api.projection(sid)["active"]["callId"] == "call_direct_01"
    assert [r.tool_names for r in wire.requests] == [
        [
            *["ask_user_question", "call_tool", "delegate_task", "run_command", "show_task_surface"],
            *["task_kill", "task_list", "task_output"],
        ]
    ] * 2
    assert wire.requests[1].body["tools"] == tools_for("both")
