"""The seed's result shapes for getActive, submit and dismiss, with their wire form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .ids import CallId, MessageId, TaskSurfaceId, TaskSurfaceSubmissionId
from .model_v2 import TaskSurfaceModel
from .refusals import Problem

Phase = Literal["queued", "claiming"]
SubmitReason = Literal["not-open", "stale", "invalid-submission", "submission-pending"]
DismissReason = Literal["not-open", "stale", "submission-pending"]


@dataclass(frozen=True)
class PendingSubmission:
    submission_id: TaskSurfaceSubmissionId
    message_id: MessageId
    phase: Phase

    def to_wire(self) -> dict[str, Any]:
        return {"submissionId": self.submission_id, "messageId": self.message_id, "phase": self.phase}


@dataclass(frozen=True)
class ActiveResult:
    call_id: CallId
    surface_id: TaskSurfaceId
    model: TaskSurfaceModel
    pending: PendingSubmission | None

    def to_wire(self) -> dict[str, Any]:
        return {
            "active": True,
            "callId": self.call_id,
            "surfaceId": self.surface_id,
            "model": self.model.normalised(),
            "pending": self.pending.to_wire() if self.pending else None,
        }


@dataclass(frozen=True)
class NotOpen:
    def to_wire(self) -> dict[str, Any]:
        return {"active": False, "reason": "not-open"}


@dataclass(frozen=True)
class Expired:
    """Open by the log, but its stored description no longer re-validates: shown, never usable."""

    problem: Problem

    def to_wire(self) -> dict[str, Any]:
        return {"active": False, "reason": "not-open", "recovery": self.problem.to_wire()}


GetActiveResult = ActiveResult | NotOpen | Expired


@dataclass(frozen=True)
class SubmitAccepted:
    message_id: MessageId

    def to_wire(self) -> dict[str, Any]:
        return {"accepted": True, "messageId": self.message_id, "phase": "queued"}


@dataclass(frozen=True)
class SubmitRejected:
    reason: SubmitReason
    problems: tuple[Problem, ...] = field(default=())
    """For `invalid-submission`: what was wrong, so the dock can point at each field."""

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"accepted": False, "reason": self.reason}
        if self.problems:
            wire["problems"] = [p.to_wire() for p in self.problems]
        return wire


SubmitResult = SubmitAccepted | SubmitRejected


@dataclass(frozen=True)
class Dismissed:
    event_seq: int

    def to_wire(self) -> dict[str, Any]:
        return {"dismissed": True, "eventSeq": self.event_seq}


@dataclass(frozen=True)
class DismissRejected:
    reason: DismissReason

    def to_wire(self) -> dict[str, Any]:
        return {"dismissed": False, "reason": self.reason}


DismissResult = Dismissed | DismissRejected
