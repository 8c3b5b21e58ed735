"""Refusals as the model and the dock read them: the typed problem, written out."""

from __future__ import annotations

from tasksurface.domain.refusals import (
    ActionCode,
    Problem,
    QuestionCode,
    RecoveryCode,
    SubmissionCode,
    SubmissionRefused,
    SurfaceCode,
    SurfaceRefused,
    TaskCode,
)


def test_the_model_reads_the_problem_back_as_json_after_error() -> None:
    refusal = SurfaceRefused(Problem(SurfaceCode.LIMIT, "text is 201 characters — too long", "model.title"))
    assert refusal.code == "surface.limit"
    assert str(refusal) == "surface.limit: text is 201 characters — too long"
    assert refusal.tool_text() == (
        'error: {"code": "surface.limit", "message": "text is 201 characters — too long", '
        '"where": "model.title"}'
    )


def test_a_problem_without_a_place_has_no_where_on_the_wire() -> None:
    assert Problem(SurfaceCode.EMPTY, "empty").to_wire() == {"code": "surface.empty", "message": "empty"}


def test_a_submission_refusal_lists_every_problem() -> None:
    refusal = SubmissionRefused(
        [Problem(SubmissionCode.REQUIRED, "r", "summary"), Problem(SubmissionCode.UNKNOWN_FIELD, "u", "x")]
    )
    assert str(refusal) == "submission.required at summary; submission.unknown-field at x"


def test_the_codes_are_the_documented_strings() -> None:
    assert [c.value for c in SurfaceCode] == [
        "surface.invalid-json",
        "surface.duplicate-key",
        "surface.invalid-arguments",
        "surface.unsupported-version",
        "surface.unknown-kind",
        "surface.unknown-property",
        "surface.schema",
        "surface.duplicate-id",
        "surface.unknown-column",
        "surface.invalid-initial",
        "surface.empty",
        "surface.limit",
        "surface.already-open",
        "surface.nested-call",
        "surface.invalid-bounds",
        "surface.invalid-date",
        "surface.invalid-pattern",
        "surface.condition-unknown-field",
        "surface.condition-not-earlier",
        "surface.invalid-condition",
        "surface.unknown-reference",
        "surface.invalid-image",
        "surface.invalid-series",
    ]
    assert [c.value for c in SubmissionCode] == [
        "submission.not-an-object",
        "submission.unknown-field",
        "submission.missing-value",
        "submission.required",
        "submission.wrong-type",
        "submission.unknown-option",
        "submission.duplicate-option",
        "submission.not-a-permutation",
        "submission.too-large",
        "submission.invalid-note",
        "submission.id-conflict",
        "submission.not-an-integer",
        "submission.below-minimum",
        "submission.above-maximum",
        "submission.off-step",
        "submission.not-a-date",
        "submission.too-short",
        "submission.too-long",
        "submission.invalid-format",
        "submission.pattern-mismatch",
        "submission.too-few",
        "submission.too-many",
        "submission.hidden-field",
        "submission.unknown-hunk",
        "submission.undecided-hunk",
        "submission.action-required",
        "submission.unknown-action",
    ]
    assert [c.value for c in QuestionCode] == [
        "question.invalid-json",
        "question.duplicate-key",
        "question.invalid-arguments",
        "question.nested-call",
        "answer.empty",
        "answer.too-long",
        "answer.id-conflict",
    ]
    assert [c.value for c in ActionCode] == [
        "action.unknown",
        "action.id-conflict",
        "action.not-withdrawable",
    ]
    assert [c.value for c in RecoveryCode] == ["surface.expired", "surface.replay-incomplete"]
    assert [c.value for c in TaskCode] == [
        "task.invalid-json",
        "task.duplicate-key",
        "task.invalid-arguments",
        "task.not-found",
        "task.too-many",
        "command.unknown",
        "command.unknown-argument",
        "command.missing-argument",
        "command.invalid-argument",
    ]
