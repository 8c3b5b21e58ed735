"""The seed's result shapes on the wire, written out: clients depend on these keys and values."""

from __future__ import annotations

from typing import get_args

from tasksurface.domain.ids import CallId, MessageId, TaskSurfaceId, TaskSurfaceSubmissionId
from tasksurface.domain.refusals import Problem
from tasksurface.domain.results import (
    ActiveResult,
    Dismissed,
    DismissReason,
    DismissRejected,
    NotOpen,
    PendingSubmission,
    Phase,
    SubmitAccepted,
    SubmitReason,
    SubmitRejected,
)

from .builders import parsed

PENDING = PendingSubmission(TaskSurfaceSubmissionId("sub_00000001"), MessageId("msg_00000001"), "claiming")


def test_pending_submission_on_the_wire() -> None:
    assert PENDING.to_wire() == {
        "submissionId": "sub_00000001",
        "messageId": "msg_00000001",
        "phase": "claiming",
    }


def test_an_open_surface_carries_its_normalised_model_and_pending_state() -> None:
    model = parsed()
    open_surface = ActiveResult(CallId("call_00000001"), TaskSurfaceId("surf_00000001"), model, PENDING)
    assert open_surface.to_wire() == {
        "active": True,
        "callId": "call_00000001",
        "surfaceId": "surf_00000001",
        "model": {
            "version": 1,
            "title": "Choose a release",
            "sections": [
                {
                    "id": "overview",
                    "layout": {"kind": "stack"},
                    "blocks": [{"kind": "markdown", "text": "Pick the **release** you want."}],
                }
            ],
            "fields": [],
            "submit": {"label": "Send"},
        },
        "pending": {"submissionId": "sub_00000001", "messageId": "msg_00000001", "phase": "claiming"},
    }
    idle = ActiveResult(CallId("call_00000001"), TaskSurfaceId("surf_00000001"), model, None)
    assert idle.to_wire()["pending"] is None


def test_not_open_on_the_wire() -> None:
    assert NotOpen().to_wire() == {"active": False, "reason": "not-open"}


def test_submit_results_on_the_wire() -> None:
    assert SubmitAccepted(MessageId("msg_00000002")).to_wire() == {
        "accepted": True,
        "messageId": "msg_00000002",
        "phase": "queued",
    }
    assert SubmitRejected("stale").to_wire() == {"accepted": False, "reason": "stale"}
    problems = (Problem("submission.required", "this field is required", "summary"), Problem("c", "m"))
    assert SubmitRejected("invalid-submission", problems).to_wire() == {
        "accepted": False,
        "reason": "invalid-submission",
        "problems": [
            {"code": "submission.required", "message": "this field is required", "where": "summary"},
            {"code": "c", "message": "m"},
        ],
    }


def test_dismiss_results_on_the_wire() -> None:
    assert Dismissed(7).to_wire() == {"dismissed": True, "eventSeq": 7}
    assert DismissRejected("submission-pending").to_wire() == {
        "dismissed": False,
        "reason": "submission-pending",
    }


def test_the_phases_and_reasons_are_the_documented_strings() -> None:
    assert get_args(Phase) == ("queued", "claiming")
    assert get_args(SubmitReason) == ("not-open", "stale", "invalid-submission", "submission-pending")
    assert get_args(DismissReason) == ("not-open", "stale", "submission-pending")
