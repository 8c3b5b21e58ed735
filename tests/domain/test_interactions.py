"""What one appended event did to the open panel: the content-free interaction counters' decision."""

from __future__ import annotations

import pytest

from tasksurface.domain.events import SessionEvent
from tasksurface.domain.ids import CallId, TaskSurfaceId
from tasksurface.domain.projection import (
    EMPTY,
    ActiveSurface,
    TaskSurfaceProjection,
    fold,
    interaction,
)

from .builders import (
    CALL,
    OTHER_SURFACE,
    SURFACE,
    dismissal,
    event,
    ordinary_message,
    submission_message,
    surface_call,
    surface_result,
)

OPEN = TaskSurfaceProjection(ActiveSurface(CallId(CALL), TaskSurfaceId(SURFACE), 2))


def decided(before: TaskSurfaceProjection, logged: SessionEvent) -> str | None:
    return interaction(before, fold(before, logged), logged)


def test_a_surface_result_that_opens_is_shown() -> None:
    assert decided(EMPTY, surface_result(seq=2)) == "shown"


def test_a_result_that_does_not_open_is_nothing() -> None:
    assert decided(EMPTY, surface_result(seq=2, ok=False)) is None
    assert decided(EMPTY, surface_result(seq=2, name="other_tool")) is None


def test_another_surface_replacing_the_open_one_is_shown() -> None:
    replaced = surface_result(seq=5, call_id="call_other_0001", surface_id=OTHER_SURFACE)
    assert decided(OPEN, replaced) == "shown"


def test_the_matching_submission_is_submitted() -> None:
    assert decided(OPEN, submission_message(3)) == "submitted"


def test_a_submission_for_another_surface_closes_as_a_bypass() -> None:
    assert decided(OPEN, submission_message(3, surface_id=OTHER_SURFACE)) == "bypassed"


def test_an_ordinary_message_over_an_open_panel_is_bypassed() -> None:
    assert decided(OPEN, ordinary_message(3)) == "bypassed"


def test_its_dismissal_is_dismissed_and_another_surfaces_is_nothing() -> None:
    assert decided(OPEN, dismissal(3)) == "dismissed"
    assert decided(OPEN, dismissal(3, surface_id=OTHER_SURFACE)) is None


def test_its_own_non_blocking_action_keeps_it_open_and_counts_nothing() -> None:
    action = event(
        3,
        "user/message",
        {
            "messageId": "msg_00000003",
            "source": {
                "kind": "user",
                "rpcId": "rpc_00000001",
                "taskSurfaceAction": {
                    "version": 1,
                    "requestId": "req_00000001",
                    "callId": CALL,
                    "surfaceId": SURFACE,
                    "actionId": "preview",
                    "values": {},
                },
            },
            "content": [{"type": "text", "text": "Action: preview"}],
        },
    )
    assert fold(OPEN, action) == OPEN
    assert decided(OPEN, action) is None


@pytest.mark.parametrize(
    "logged",
    [
        surface_call(4),
        event(4, "assistant/message", {"text": "ok"}),
        ordinary_message(4),
        dismissal(4),
    ],
)
def test_nothing_open_and_nothing_opening_is_nothing(logged: SessionEvent) -> None:
    assert decided(EMPTY, logged) is None


def test_events_that_leave_the_open_panel_alone_are_nothing() -> None:
    assert decided(OPEN, event(4, "assistant/message", {"text": "still open"})) is None
    assert decided(OPEN, surface_call(4)) is None
