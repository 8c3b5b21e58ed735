"""`ask_user_question`: the question's shape, its answer, and the fold that says it is open."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from tasksurface.domain.events import tool_call, tool_result, user_message, user_source
from tasksurface.domain.ids import CallId, MessageId, RpcId
from tasksurface.domain.question import (
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
from tasksurface.domain.refusals import Problem, QuestionCode, QuestionRefused

from .builders import event

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
            json.dumps({"question": "a", "options": [str(i) for i in range(7)]}),  # at most 6
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
    assert check_answer("a" * 4000) == "a" * 4000  # the documented bound, written out
    with pytest.raises(QuestionRefused) as refused:
        check_answer("a" * 4001)
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


# --- every refusal and result, written out --------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("[]", Problem(QuestionCode.ARGUMENTS, "arguments must be an object")),
        (
            '{"question": "a", "question": "b"}',
            Problem(QuestionCode.DUPLICATE_KEY, "duplicate key 'question'"),
        ),
        (
            "{",
            Problem(
                QuestionCode.INVALID_JSON,
                "arguments are not JSON: Expecting property name enclosed "
                "in double quotes: line 1 column 2 (char 1)",
            ),
        ),
        (
            '{"question": "a", "options": ["x", 3]}',
            Problem(QuestionCode.ARGUMENTS, "Input should be a valid string", "options.1"),
        ),
        (
            '{"question": "a", "options": ["x", "x"]}',
            Problem(QuestionCode.ARGUMENTS, "Value error, options must be distinct", "options"),
        ),
        (
            '{"question": "  "}',
            Problem(QuestionCode.ARGUMENTS, "Value error, the question is blank", "question"),
        ),
    ],
    ids=["a list", "a duplicate key", "no JSON", "an option not text", "options twice", "a blank question"],
)
def test_every_question_refusal_has_its_code_message_and_place(raw: str, problem: Problem) -> None:
    with pytest.raises(QuestionRefused) as info:
        parse_question(raw)
    assert info.value.problem == problem


def test_the_argument_size_bound_is_exact() -> None:
    fits = json.dumps({"question": "q" * 1000})
    padded = fits + " " * (16 * 1024 - len(fits))
    assert parse_question(padded).question == "q" * 1000
    with pytest.raises(QuestionRefused) as info:
        parse_question(padded + " ")
    assert info.value.problem == Problem(QuestionCode.ARGUMENTS, "arguments are over 16384 bytes")


def test_the_answer_refusals_are_written_out() -> None:
    with pytest.raises(QuestionRefused) as empty:
        check_answer(" \n")
    assert empty.value.problem == Problem(
        QuestionCode.EMPTY_ANSWER, "write an answer or pick one of the suggestions"
    )
    with pytest.raises(QuestionRefused) as long:
        check_answer("a" * 4001)
    assert long.value.problem == Problem(
        QuestionCode.ANSWER_TOO_LONG, "the answer is 4001 characters; at most 4000 fit"
    )
    assert long.value.tool_text() == (
        'error: {"code": "answer.too-long", "message": "the answer is 4001 characters; at most 4000 fit"}'
    )


def test_the_answer_results_as_stored() -> None:
    assert answered(ASK, "yes") == {
        "callId": "call_ask_000001",
        "name": "ask_user_question",
        "ok": True,
        "content": [{"type": "text", "text": "yes"}],
        "meta": {"answer": "yes"},
    }
    assert unanswered(ASK) == {
        "callId": "call_ask_000001",
        "name": "ask_user_question",
        "ok": False,
        "content": [
            {
                "type": "text",
                "text": "The user did not answer this question; "
                "their next message says what they want instead.",
            }
        ],
        "meta": {"answer": None},
    }


def test_an_answer_that_is_not_text_is_no_answer() -> None:
    stored = {**answered(ASK, "yes"), "meta": {"answer": 3}}
    assert answer_of(event(5, "tool/result", stored)) is None
    assert not is_unanswered(event(5, "tool/result", stored))


def test_folding_from_a_given_state_keeps_it() -> None:
    opened = fold_all([asked(1, {"question": "Why?"})])
    assert opened == OpenQuestion(ASK, 1, "Why?", ())
    assert fold_all([event(2, "assistant/message", {"text": "hm"})], opened) == opened


def test_question_arguments_are_strict_and_frozen() -> None:
    with pytest.raises(QuestionRefused) as info:
        parse_question({"question": "a", "options": ("x",)})  # a list, not any sequence
    assert (info.value.code, info.value.problem.where) == (QuestionCode.ARGUMENTS, "options")
    with pytest.raises(QuestionRefused) as empty:
        parse_question({"question": ""})
    assert empty.value.problem == Problem(
        QuestionCode.ARGUMENTS, "String should have at least 1 character", "question"
    )
    question = parse_question({"question": "a"})
    with pytest.raises(ValidationError):
        question.question = "b"  # type: ignore[misc]
