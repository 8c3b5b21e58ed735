"""A panel's own action messages keep it open; every other user message still closes it."""

from __future__ import annotations

from tasksurface.domain.events import (
    ActionCorrelation,
    SessionEvent,
    read_action,
    text_content,
    user_message,
    user_source,
)
from tasksurface.domain.ids import CallId, MessageId, TaskSurfaceId
from tasksurface.domain.projection import EMPTY, closes, fold_all, is_own_action

from .builders import (
    AT,
    CALL,
    OTHER_SURFACE,
    RPC,
    SURFACE,
    ordinary_message,
    submission_message,
    surface_result,
)


def action_message(seq: int, surface_id: str = SURFACE) -> SessionEvent:
    correlation = ActionCorrelation("req_00000001", "dry", CallId(CALL), TaskSurfaceId(surface_id), {"a": 1})
    payload = user_message(
        MessageId(f"msg_{seq:08d}"), user_source(RPC, action=correlation), text_content("- Action: Dry run")
    )
    return SessionEvent(seq=seq, kind="user/message", at=AT, payload=payload)


def test_an_action_of_the_open_panel_keeps_it_open() -> None:
    state = fold_all([surface_result(1), action_message(2), action_message(3)])
    assert state.active is not None and state.active.surface_id == SURFACE


def test_an_action_of_another_panel_is_a_bypass() -> None:
    assert fold_all([surface_result(1), action_message(2, OTHER_SURFACE)]) == EMPTY


def test_after_actions_the_submission_or_a_message_still_closes_it() -> None:
    assert fold_all([surface_result(1), action_message(2), submission_message(3)]) == EMPTY
    assert fold_all([surface_result(1), action_message(2), ordinary_message(3)]) == EMPTY


def test_closes_is_the_folds_rule_for_one_event() -> None:
    assert not closes(action_message(2), TaskSurfaceId(SURFACE))
    assert closes(action_message(2, OTHER_SURFACE), TaskSurfaceId(SURFACE))
    assert closes(ordinary_message(2), TaskSurfaceId(SURFACE))
    assert is_own_action(action_message(2), TaskSurfaceId(SURFACE))
    assert not is_own_action(ordinary_message(2), TaskSurfaceId(SURFACE))


def test_an_action_correlation_round_trips_and_damaged_ones_read_as_none() -> None:
    source = action_message(2).payload["source"]
    found = read_action(source)
    assert found is not None and (found.request_id, found.action_id, found.values) == (
        "req_00000001",
        "dry",
        {"a": 1},
    )
    for broken in (
        {**source, "taskSurfaceAction": {**source["taskSurfaceAction"], "version": 2}},
        {**source, "taskSurfaceAction": {**source["taskSurfaceAction"], "requestId": "short"}},
        {**source, "taskSurfaceAction": {**source["taskSurfaceAction"], "actionId": 5}},
        {**source, "taskSurfaceAction": {**source["taskSurfaceAction"], "values": []}},
        {**source, "taskSurfaceAction": "x"},
        None,
    ):
        assert read_action(broken) is None
