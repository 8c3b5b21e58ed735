"""Refusals on the wire in full: params, every problem kept, and each refusal's own text."""

from __future__ import annotations

import json

import pytest

from tasksurface.domain.refusals import (
    Problem,
    QuestionCode,
    QuestionRefused,
    Refused,
    SubmissionCode,
    SubmissionRefused,
    SurfaceCode,
    TaskCode,
    TaskRefused,
)


def test_a_problem_with_params_carries_them_on_the_wire() -> None:
    problem = Problem(SubmissionCode.BELOW_MINIMUM, "at least 2", "people", {"minimum": 2, "step": 0.5})
    assert problem.to_wire() == {
        "code": "submission.below-minimum",
        "message": "at least 2",
        "where": "people",
        "params": {"minimum": 2, "step": 0.5},
    }
    assert type(problem.to_wire()["params"]) is dict


def test_a_problem_has_no_place_and_no_params_unless_given() -> None:
    problem = Problem(SurfaceCode.EMPTY, "empty")
    assert (problem.where, dict(problem.params)) == ("", {})
    assert Problem(SurfaceCode.EMPTY, "empty", params={"n": 1}).to_wire() == {
        "code": "surface.empty",
        "message": "empty",
        "params": {"n": 1},
    }


def test_the_tool_text_keeps_params_and_non_ascii_text() -> None:
    refusal = QuestionRefused(Problem(QuestionCode.ANSWER_TOO_LONG, "über 10", "answer", {"limit": 10}))
    assert refusal.code == "answer.too-long"
    assert str(refusal) == "answer.too-long: über 10"
    text = refusal.tool_text()
    assert text == (
        'error: {"code": "answer.too-long", "message": "über 10", "where": "answer", "params": {"limit": 10}}'
    )
    assert json.loads(text.removeprefix("error: "))["params"] == {"limit": 10}


def test_a_task_refusal_is_a_refusal_with_its_problem() -> None:
    problem = Problem(TaskCode.NOT_FOUND, "no task t-1", "taskId")
    with pytest.raises(Refused) as info:
        raise TaskRefused(problem)
    assert info.value.problem is problem
    assert info.value.code == "task.not-found"
    assert (
        info.value.tool_text()
        == 'error: {"code": "task.not-found", "message": "no task t-1", "where": "taskId"}'
    )


def test_a_submission_refusal_keeps_every_problem_in_order() -> None:
    problems = [
        Problem(SubmissionCode.REQUIRED, "r", "summary"),
        Problem(SubmissionCode.TOO_LONG, "l", "notes"),
        Problem(SubmissionCode.UNKNOWN_FIELD, "u", "x"),
    ]
    refusal = SubmissionRefused(problems)
    assert refusal.problems == problems
    assert (
        str(refusal)
        == "submission.required at summary; submission.too-long at notes; submission.unknown-field at x"
    )
    assert str(SubmissionRefused([problems[0]])) == "submission.required at summary"
