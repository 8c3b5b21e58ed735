"""What the agent still owes a session after its process stopped half-way through a turn."""

from __future__ import annotations

from typing import Any

from tasksurface.domain.events import tool_call, tool_result, user_message, user_source
from tasksurface.domain.ids import CallId, MessageId, RpcId
from tasksurface.domain.question import QUESTION_TOOL, fold_all
from tasksurface.domain.turns import (
    INTERRUPTED,
    NOTHING,
    OPEN_ENDINGS,
    Interrupted,
    Owed,
    owed,
    trailing_tool_events,
)

from .builders import event

A = CallId("call_aaaaaaaa")
B = CallId("call_bbbbbbbb")
ASK = CallId("call_question1")


def said(seq: int) -> Any:
    return event(
        seq, "user/message", user_message(MessageId("msg_00000001"), user_source(RpcId("rpc_0000001")), [])
    )


def call(seq: int, call_id: CallId, name: str = "tool", args: str = "{}") -> Any:
    return event(seq, "tool/call", tool_call(call_id, name, args))


def result(seq: int, call_id: CallId, name: str = "tool", ends_turn: bool = False) -> Any:
    return event(seq, "tool/result", tool_result(call_id, name, True, "r", ends_turn=ends_turn))


def test_an_unanswered_user_message_is_owed_a_reply() -> None:
    assert owed([said(1)], None) == Owed(reply=True)


def test_a_finished_reply_an_error_or_a_rewind_owe_nothing() -> None:
    assert owed([], None) == NOTHING
    for kind, payload in (
        ("assistant/message", {"text": "done"}),
        ("agent/error", {"message": "x"}),
        ("session/rewound", {"toSeq": 1}),
    ):
        assert owed([said(1), event(2, kind, payload)], None) == NOTHING


def test_results_that_did_not_end_the_turn_are_owed_the_next_model_step() -> None:
    assert owed([said(1), call(2, A), result(3, A)], None) == Owed(reply=True)


def test_a_result_that_ended_the_turn_owes_nothing() -> None:
    tail = [said(1), call(2, A), result(3, A, ends_turn=True), call(4, B), result(5, B)]
    assert owed(tail, None) == NOTHING


def test_a_call_cut_short_gets_a_failed_result_and_then_the_model() -> None:
    assert owed([said(1), call(2, A)], None) == Owed(reply=True, interrupted=(Interrupted(A, "tool"),))


def test_an_open_question_waits_and_its_answer_lets_the_turn_go_on() -> None:
    tail = [said(1), call(2, ASK, QUESTION_TOOL, '{"question": "Which?"}')]
    question = fold_all(tail)
    assert question is not None
    assert owed(tail, question) == Owed(reply=False, waiting=True)
    answered = [*tail, result(3, ASK, QUESTION_TOOL)]
    assert owed(answered, fold_all(answered)) == Owed(reply=True)


def test_a_question_after_the_panel_waits_and_its_answer_restarts_nothing() -> None:
    tail = [said(1), call(2, A, "show_task_surface"), result(3, A, "show_task_surface", ends_turn=True)]
    tail.append(call(4, ASK, QUESTION_TOOL, '{"question": "Which?"}'))
    assert owed(tail, fold_all(tail)) == Owed(reply=False, waiting=True)
    tail.append(result(5, ASK, QUESTION_TOOL))
    assert owed(tail, fold_all(tail)) == NOTHING


def test_a_fork_owes_nothing_for_what_it_copied_until_something_happens_in_it() -> None:
    assert owed([said(1)], None, copied_through=1) == NOTHING
    assert owed([said(1), call(2, A)], None, copied_through=2) == NOTHING
    assert owed([said(1), call(2, A), result(3, A)], None, copied_through=3) == NOTHING
    # What the copy logs itself is owed as anywhere else.
    assert owed([said(1), call(2, A)], None, copied_through=1) == Owed(
        reply=True, interrupted=(Interrupted(A, "tool"),)
    )
    assert owed([said(4)], None, copied_through=3) == Owed(reply=True)


def test_the_trailing_tool_events_run_back_to_the_first_event_that_is_not_one() -> None:
    log = [said(1), call(2, A), result(3, A), call(4, B)]
    assert trailing_tool_events(log) == log[1:]
    assert trailing_tool_events(log[1:]) == log[1:]  # a log of tool events only: all of it
    assert trailing_tool_events([said(1)]) == []
    assert trailing_tool_events([]) == []


def test_the_endings_that_may_owe_something_and_the_interrupted_text_are_written_out() -> None:
    assert sorted(OPEN_ENDINGS) == ["tool/call", "tool/result", "user/message"]
    assert INTERRUPTED == (
        "error: the host stopped before this call finished, so it may or may not have taken effect"
    )
