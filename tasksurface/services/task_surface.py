"""TaskSurfaceService: get_active, submit and dismiss, joined with the pending submission.

The pending record is derived, never stored twice: `queued` while the submission's
durable inbox row waits, `claiming` while the runner holds its process-local claim.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy.orm as so

from ..agent.claims import Claims
from ..agent.intake import Intake
from ..agent.ports import Notifier
from ..domain.events import (
    NewEvent,
    SessionEvent,
    TaskSurfaceCorrelation,
    read_correlation,
    surface_dismissed,
    text_content,
    user_source,
)
from ..domain.ids import (
    MessageId,
    RpcId,
    SessionId,
    TaskSurfaceDismissalId,
    TaskSurfaceId,
    TaskSurfaceSubmissionId,
)
from ..domain.limits import DEFAULT_LIMITS, Limits
from ..domain.presentation import SurfacePresentation, expiry, read_presentation
from ..domain.projection import ActiveSurface
from ..domain.redaction import redact_model
from ..domain.refusals import Problem, RecoveryCode, SubmissionRefused
from ..domain.results import (
    ActiveResult,
    Dismissed,
    DismissReason,
    DismissRejected,
    DismissResult,
    Expired,
    GetActiveResult,
    NotOpen,
    PendingSubmission,
    Phase,
    SubmitAccepted,
    SubmitRejected,
    SubmitResult,
)
from ..domain.submission import prepare_submission
from ..store import answers, inbox, integrity, log
from ..store.db import Database
from . import submission_retries, surface_rows
from .memo import BoundedMemo
from .surface_rows import RowView

MAX_PRESENTATIONS = 256
"""Re-validated panels kept per process (see `presentation_of`)."""
REPLAY_INCOMPLETE = "the session's history cannot be read whole, so whether a panel is open is unknown"
__all__ = ["RowView", "SurfaceState", "TaskSurfaceService"]


@dataclass(frozen=True)
class SurfaceState:
    """What a page needs to know about the open surface: identity and pending phase."""

    active: ActiveSurface | None
    pending: PendingSubmission | None
    recovery: Problem | None = None
    """`surface.replay-incomplete` when no open surface was found in a history that cannot be read
    whole: then "none is open" would be a claim the log cannot back."""

    def to_wire(self) -> dict[str, Any]:
        active = self.active
        wire: dict[str, Any] = {
            "active": {"callId": active.call_id, "surfaceId": active.surface_id} if active else None,
            "pending": self.pending.to_wire() if self.pending else None,
        }
        if self.recovery is not None:
            wire["recovery"] = self.recovery.to_wire()
        return wire


class TaskSurfaceService:
    def __init__(
        self,
        database: Database,
        claims: Claims,
        notifier: Notifier,
        intake: Intake,
        clock: Callable[[], datetime],
        limits: Limits = DEFAULT_LIMITS,
        enabled: bool = True,
    ) -> None:
        self.database = database
        self.claims = claims
        self.notifier = notifier
        self.intake = intake
        """Logs a submission to an idle session at once, or queues it (`agent.intake`)."""
        self.clock = clock
        self.limits = limits
        self.enabled = enabled
        """Off: nothing is drawn or actionable; the log keeps every surface for when it is on again."""
        self._presentations = BoundedMemo[SurfacePresentation | None](MAX_PRESENTATIONS)

    # -- reads -------------------------------------------------------------

    def get_active(self, session_id: SessionId, surface_id: TaskSurfaceId) -> GetActiveResult:
        if not self.enabled:
            return NotOpen()
        admitting = self.claims.admitting()
        with self.database.read() as db:
            active = log.get_session(db, session_id).projection.active
            if active is None or active.surface_id != surface_id:
                return NotOpen()
            presentation = self._presentation(db, session_id, active)
            if presentation is None:
                # The log says it is open, but its stored description no longer re-validates.
                event = log.event_at(db, session_id, active.result_seq)
                return Expired(expiry(event.payload.get("meta") if event else None, self.limits))
            pending = self._pending(db, session_id, surface_id, admitting)
        return ActiveResult(active.call_id, active.surface_id, presentation.model, pending)

    def state(self, session_id: SessionId) -> SurfaceState:
        if not self.enabled:
            return SurfaceState(None, None)
        admitting = self.claims.admitting()
        with self.database.read() as db:
            active = log.get_session(db, session_id).projection.active
            pending = self._pending(db, session_id, active.surface_id, admitting) if active else None
            incomplete = active is None and integrity.history_incomplete(db, session_id)
        recovery = Problem(RecoveryCode.REPLAY_INCOMPLETE, REPLAY_INCOMPLETE) if incomplete else None
        return SurfaceState(active, pending, recovery)

    def pending_values(self, session_id: SessionId, surface_id: TaskSurfaceId) -> dict[str, Any] | None:
        """The values of the submission waiting for this surface, so the page shows what was sent."""
        with self.database.read() as db:
            item = inbox.item_for_surface(db, session_id, surface_id)
        correlation = read_correlation(item.source) if item else None
        return dict(correlation.values) if correlation else None

    def row_states(self, session_id: SessionId, events: Sequence[SessionEvent]) -> dict[int, RowView]:
        """The lifecycle state of every surface result among `events`, read from the log."""
        return surface_rows.row_states(self, session_id, events)

    def presentation_of(self, event: SessionEvent) -> SurfacePresentation | None:
        """The surface a result shows, redacted for people; `None` (the readable fallback) when the
        feature is off or the meta does not re-validate. A logged result never changes, so its
        re-validation is kept, keyed by the surface's random id and the event's place and time."""
        if not self.enabled or not _shows(event):
            return None
        meta = event.payload.get("meta")
        surface_id = meta.get("surfaceId") if isinstance(meta, dict) else None
        if not isinstance(surface_id, str):
            return None
        return self._presentations.get_or_compute(
            self._presentation_key(surface_id, event.seq), lambda: self._present(meta)
        )

    def _present(self, meta: object) -> SurfacePresentation | None:
        found = read_presentation(meta, self.limits)
        return SurfacePresentation(found.surface_id, redact_model(found.model)) if found else None

    def _presentation(
        self, db: so.Session, session_id: SessionId, active: ActiveSurface
    ) -> SurfacePresentation | None:
        """The open surface's presentation; its logged result is read only when not kept yet."""

        def read() -> SurfacePresentation | None:
            event = log.event_at(db, session_id, active.result_seq)
            return self._present(event.payload.get("meta")) if event and _shows(event) else None

        key = self._presentation_key(active.surface_id, active.result_seq)
        return self._presentations.get_or_compute(key, read) if self.enabled else None

    def _presentation_key(self, surface_id: str, seq: int) -> tuple[str, int, int]:
        """A logged result never changes, and its surface id is random (a fork's copy is the same
        event), so the id and the place name it; the limits it was checked against are part of it."""
        return (surface_id, seq, id(self.limits))

    def _pending(
        self, db: so.Session, session_id: SessionId, surface_id: TaskSurfaceId, admitting: frozenset[str]
    ) -> PendingSubmission | None:
        """`admitting` is read before the database: a claim is released only after its commit,
        so a row seen together with a released claim is truly still queued."""
        item = inbox.item_for_surface(db, session_id, surface_id)
        if item is None or item.request_id is None:
            return None
        phase: Phase = "claiming" if item.id in admitting else "queued"
        return PendingSubmission(TaskSurfaceSubmissionId(item.request_id), item.message_id, phase)

    # -- commands ----------------------------------------------------------

    def submit(
        self,
        session_id: SessionId,
        surface_id: TaskSurfaceId,
        submission_id: TaskSurfaceSubmissionId,
        values: object,
        note: object = None,
        rpc_id: RpcId | None = None,
        action: object = None,
    ) -> SubmitResult:
        if not self.enabled:
            return SubmitRejected("not-open")
        with self.intake.accepting(session_id) as acceptance, self.database.write() as db:
            found = answers.for_submission(db, session_id, submission_id, surface_id)
            earlier = submission_retries.first_use(db, session_id, found)
            if earlier is not None:
                return submission_retries.answer_again(
                    db,
                    session_id,
                    earlier,
                    surface_id=surface_id,
                    values=values,
                    note=note,
                    action=action,
                    presentation_of=self.presentation_of,
                    limits=self.limits,
                )
            active = found.session.projection.active
            refused = _not_actionable(active, surface_id, found.waiting is not None)
            if refused is not None:
                return SubmitRejected(refused)
            assert active is not None
            presentation = self._presentation(db, session_id, active)
            if presentation is None:
                return SubmitRejected("not-open")
            try:
                checked, _, text = prepare_submission(presentation.model, values, note, self.limits, action)
            except SubmissionRefused as refusal:
                return SubmitRejected("invalid-submission", tuple(refusal.problems))
            message_id = MessageId("msg_" + secrets.token_urlsafe(12))
            chosen = action if isinstance(action, str) else None
            correlation = TaskSurfaceCorrelation(submission_id, active.call_id, surface_id, checked, chosen)
            item = inbox.new_item(
                session_id=session_id,
                message_id=message_id,
                placement="queued",
                source=user_source(rpc_id or RpcId("rpc_" + secrets.token_urlsafe(12)), correlation),
                content=text_content(text),
                at=self.clock(),
                request_id=submission_id,
                surface_id=surface_id,
            )
            acceptance.accept(db, item, locked=found.session, queue_empty=found.queue_empty)
        return SubmitAccepted(message_id)

    def dismiss(
        self, session_id: SessionId, surface_id: TaskSurfaceId, dismissal_id: TaskSurfaceDismissalId
    ) -> DismissResult:
        if not self.enabled:
            return DismissRejected("not-open")
        with self.database.write() as db:
            session = log.get_session(db, session_id, lock=True)
            earlier = log.event_by_request(db, session_id, dismissal_id)
            if earlier is not None:
                if (
                    earlier.kind == "task-surface/dismissed"
                    and earlier.payload.get("surfaceId") == surface_id
                    and log.is_visible(db, session_id, earlier.seq)
                ):
                    return Dismissed(earlier.seq)
                return DismissRejected("stale")
            active = session.projection.active
            waiting = inbox.item_for_surface(db, session_id, surface_id) is not None
            refused = _not_actionable(active, surface_id, waiting)
            if refused is not None:
                return DismissRejected(refused)
            assert active is not None
            event = log.append(
                db,
                session_id,
                NewEvent(
                    "task-surface/dismissed",
                    surface_dismissed(surface_id, active.call_id, dismissal_id),
                    dismissal_id,
                ),
                self.clock(),
            )
        self.notifier.changed(session_id, events=[event])
        return Dismissed(event.seq)


def _not_actionable(
    active: ActiveSurface | None, surface_id: TaskSurfaceId, answer_waiting: bool
) -> DismissReason | None:
    """Why this surface cannot be submitted or dismissed now; one rule for both commands.
    `answer_waiting`: an answer to this surface is in the inbox."""
    if active is None:
        return "not-open"
    if active.surface_id != surface_id:
        return "stale"
    if answer_waiting:
        return "submission-pending"
    return None


def _shows(event: SessionEvent) -> bool:
    """A successful tool result: only such an event can carry a surface to show."""
    return event.kind == "tool/result" and event.payload.get("ok") is True
