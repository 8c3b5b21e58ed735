"""`ask_user_question`: the question's shape, its answer, and the fold that says it is open."""

from __future__ import annotations

import json
from typing import Any

import pytest
from builders import event

from tasksurface.domain.events import tool_call, tool_result, user_message, user_source
from tasksurface.domain.ids import CallId, MessageId, RpcId
from tasksurface.domain.question import (
    MAX_ANSWER_CHARS,
    MAX_OPTIONS,
    QUESTION_TOOL,
    OpenQuestion,
    answer_of,
    answered,
    check_answer,
    fold,
    fold_all,
    is_unanswered,
    parse_question,
    unanswered,
)
from tasksurface.domain.refusals import QuestionCode, QuestionRefused

ASK = CallId("call_ask_000001")
OTHER = CallId("call_other_0001")


def asked(seq: int, args: Any, call_id: CallId = ASK, name: str = QUESTION_TOOL) -> Any:
    return event(seq, "tool/call", tool_call(call_id, name, args))


def test_a_question_with_suggested_answers_is_read_trimmed() -> None:
    parsed = parse_question('{"question": "  Which region?  ", "options": [" EU ", "US"]}')
    assert (parsed.question, parsed.options) == ("Which region?", ["EU", "US"])
    assert parse_question({"question": "Why?"}).options == []


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{", QuestionCode.INVALID_JSON),
        ('{"question": "a", "question": "b"}', QuestionCode.DUPLICATE_KEY),
        ("[]", QuestionCode.ARGUMENTS),
        ("{}", QuestionCode.ARGUMENTS),
        ('{"question": ""}', QuestionCode.ARGUMENTS),
        ('{"question": "   "}', QuestionCode.ARGUMENTS),
        ('{"question": 3}', QuestionCode.ARGUMENTS),
        ('{"question": "a", "extra": true}', QuestionCode.ARGUMENTS),
        ('{"question": "a", "options": "yes"}', QuestionCode.ARGUMENTS),
        ('{"question": "a", "options": ["x", " x "]}', QuestionCode.ARGUMENTS),
        ('{"question": "a", "options": [""]}', QuestionCode.ARGUMENTS),
        (json.dumps({"question": "a", "options": ["o" * 201]}), QuestionCode.ARGUMENTS),
        (
            json.dumps({"question": "a", "options": [str(i) for i in range(MAX_OPTIONS + 1)]}),
            QuestionCode.ARGUMENTS,
        ),
        (json.dumps({"question": "q" * 1001}), QuestionCode.ARGUMENTS),
        (json.dumps({"question": "q" * 20_000}), QuestionCode.ARGUMENTS),
    ],
)
def test_malformed_questions_are_refused_with_a_code(raw: str, code: QuestionCode) -> None:
    with pytest.raises(QuestionRefused) as refused:
        parse_question(raw)
    assert refused.value.code == code


def test_answers_are_trimmed_and_bounded() -> None:
    assert check_answer("  yes \n") == "yes"
    for text, code in (("", QuestionCode.EMPTY_ANSWER), (" \n ", QuestionCode.EMPTY_ANSWER)):
        with pytest.raises(QuestionRefused) as refused:
            check_answer(text)
        assert refused.value.code == code
    assert check_answer("a" * MAX_ANSWER_CHARS) == "a" * MAX_ANSWER_CHARS
    with pytest.raises(QuestionRefused) as refused:
        check_answer("a" * (MAX_ANSWER_CHARS + 1))
    assert refused.value.code == QuestionCode.ANSWER_TOO_LONG


def test_a_well_formed_call_opens_the_question_and_its_result_closes_it() -> None:
    opened = fold(None, asked(3, '{"question": "Which?", "options": ["a"]}'))
    assert opened == OpenQuestion(ASK, 3, "Which?", ("a",))
    assert opened.to_wire() == {"callId": ASK, "question": "Which?", "options": ["a"]}
    assert fold(opened, event(4, "tool/result", tool_result(OTHER, "x", True, "r"))) == opened
    assert fold(opened, event(4, "tool/result", tool_result(ASK, QUESTION_TOOL, True, "a"))) is None


def test_other_calls_malformed_questions_and_second_questions_open_nothing() -> None:
    assert fold(None, asked(1, "{}")) is None
    assert fold(None, asked(1, '{"question": "x"}', name="show_task_surface")) is None
    assert fold(None, asked(1, '{"question": "x"}', call_id=CallId("short"))) is None
    first = fold(None, asked(1, '{"question": "first"}'))
    assert fold(first, asked(2, '{"question": "second"}', call_id=OTHER)) == first


def test_any_user_message_closes_it_and_nothing_else_does() -> None:
    opened = fold(None, asked(1, '{"question": "Which?"}'))
    message = event(
        2, "user/message", user_message(MessageId("msg_00000001"), user_source(RpcId("rpc_0000001")), [])
    )
    assert fold(opened, message) is None
    for kind, payload in (
        ("assistant/message", {"text": "hi"}),
        ("agent/error", {"message": "x"}),
        ("session/rewound", {"toSeq": 1}),
        ("task-surface/dismissed", {"surfaceId": "surf_00000001"}),
    ):
        assert fold(opened, event(2, kind, payload)) == opened
    assert fold_all([asked(1, '{"question": "Which?"}'), message]) is None


def test_answer_results_say_which_answer_or_that_there_was_none() -> None:
    given = event(5, "tool/result", answered(ASK, "EU"))
    went_past = event(5, "tool/result", unanswered(ASK))
    other = event(5, "tool/result", tool_result(ASK, "other_tool", True, "EU", {"answer": "EU"}))
    assert (answer_of(given), is_unanswered(given)) == ("EU", False)
    assert (answer_of(went_past), is_unanswered(went_past)) == (None, True)
    assert went_past.payload["ok"] is False
    assert (answer_of(other), is_unanswered(other)) == (None, False)
    assert fold(fold(None, asked(4, '{"question": "Which?"}')), went_past) is None
