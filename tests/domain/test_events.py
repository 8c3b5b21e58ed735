"""Event payloads as the log stores them: the production builders must write exactly these shapes.

The shapes are written out here, so a change to a builder that its own reader would still
accept fails anyway: logs already stored keep the old shape, and every fold must read them.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tasksurface.domain.events import (
    EVENT_KINDS,
    SessionEvent,
    TaskSurfaceCorrelation,
    content_text,
    read_correlation,
    surface_dismissed,
    text_content,
    tool_call,
    tool_result,
    user_message,
    user_source,
)
from tasksurface.domain.ids import (
    CallId,
    MessageId,
    RpcId,
    TaskSurfaceDismissalId,
    TaskSurfaceId,
    TaskSurfaceSubmissionId,
)

CORRELATION = TaskSurfaceCorrelation(
    TaskSurfaceSubmissionId("sub_00000001"),
    CallId("call_00000001"),
    TaskSurfaceId("surf_00000001"),
    {"channel": "beta"},
)
STORED_CORRELATION = {
    "version": 1,
    "submissionId": "sub_00000001",
    "callId": "call_00000001",
    "surfaceId": "surf_00000001",
    "values": {"channel": "beta"},
}


def test_the_event_kinds_are_the_logged_strings() -> None:
    assert sorted(EVENT_KINDS) == [
        "agent/error",
        "assistant/message",
        "session/rewound",
        "task-surface/dismissed",
        "task/notice",
        "tool/call",
        "tool/result",
        "user/message",
    ]


def test_an_event_on_the_wire() -> None:
    event = SessionEvent(3, "agent/error", datetime(2026, 8, 4, 12, 0, 5, tzinfo=UTC), {"message": "down"})
    assert event.to_wire() == {
        "seq": 3,
        "kind": "agent/error",
        "at": "2026-08-04T12:00:05+00:00",
        "payload": {"message": "down"},
    }


def test_a_user_message_as_stored() -> None:
    ordinary = user_message(MessageId("msg_00000001"), user_source(RpcId("rpc_00000001")), text_content("hi"))
    assert ordinary == {
        "messageId": "msg_00000001",
        "source": {"kind": "user", "rpcId": "rpc_00000001"},
        "content": [{"type": "text", "text": "hi"}],
    }
    answer = user_source(RpcId("rpc_00000002"), CORRELATION)
    assert answer == {"kind": "user", "rpcId": "rpc_00000002", "taskSurface": STORED_CORRELATION}


def test_tool_events_as_stored() -> None:
    assert tool_call(CallId("call_00000001"), "show_task_surface", '{"model": {}}') == {
        "callId": "call_00000001",
        "name": "show_task_surface",
        "args": '{"model": {}}',
    }
    assert tool_result(CallId("call_00000001"), "run", False, "error: no") == {
        "callId": "call_00000001",
        "name": "run",
        "ok": False,
        "content": [{"type": "text", "text": "error: no"}],
    }
    assert tool_result(
        CallId("call_00000002"), "show_task_surface", True, "shown", {"k": 1}, ends_turn=True
    ) == {
        "callId": "call_00000002",
        "name": "show_task_surface",
        "ok": True,
        "content": [{"type": "text", "text": "shown"}],
        "meta": {"k": 1},
        "endsTurn": True,
    }


def test_a_dismissal_as_stored() -> None:
    stored = surface_dismissed(
        TaskSurfaceId("surf_00000001"), CallId("call_00000001"), TaskSurfaceDismissalId("dis_00000001")
    )
    assert stored == {"surfaceId": "surf_00000001", "callId": "call_00000001", "dismissalId": "dis_00000001"}


def test_a_stored_correlation_reads_back() -> None:
    assert read_correlation({"kind": "user", "rpcId": "rpc_00000001", "taskSurface": STORED_CORRELATION}) == (
        CORRELATION
    )
    assert CORRELATION.to_wire() == STORED_CORRELATION


@pytest.mark.parametrize(
    "source",
    [
        None,
        "taskSurface",
        {"kind": "user", "rpcId": "rpc_00000001"},
        {"taskSurface": [STORED_CORRELATION]},
        {"taskSurface": {**STORED_CORRELATION, "version": 2}},
        {"taskSurface": {**STORED_CORRELATION, "version": True}},
        {"taskSurface": {k: v for k, v in STORED_CORRELATION.items() if k != "version"}},
        {"taskSurface": {**STORED_CORRELATION, "submissionId": "short"}},
        {"taskSurface": {**STORED_CORRELATION, "callId": None}},
        {"taskSurface": {**STORED_CORRELATION, "surfaceId": "surf 00000001"}},
        {"taskSurface": {**STORED_CORRELATION, "values": ["beta"]}},
        {"taskSurface": {k: v for k, v in STORED_CORRELATION.items() if k != "values"}},
    ],
)
def test_a_source_without_a_whole_correlation_is_an_ordinary_message(source: object) -> None:
    assert read_correlation(source) is None


def test_content_text_joins_text_blocks_and_skips_the_rest() -> None:
    content = [
        {"type": "text", "text": "one, "},
        {"type": "image", "text": "not text"},
        {"type": "text", "text": 3},
        "text",
        {"text": "no type"},
        {"type": "text", "text": "two"},
    ]
    assert content_text(content) == "one, two"
    assert content_text({"type": "text", "text": "not a list"}) == ""
    assert content_text([]) == ""
