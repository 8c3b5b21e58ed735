"""Non-blocking panel actions: a click is one correlated, visible message through the durable
inbox, queued or steering; the panel stays open.

A request id is the client's: a retry with the same values gets the first answer, the same id
with other values is refused. A queued action can be withdrawn from its own panel (generic
queue editing refuses it); once admitted it is read-only history.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from ..agent.claims import Claims
from ..agent.intake import Intake
from ..agent.ports import InboxObserver, Notifier
from ..domain import strict_json
from ..domain.events import ActionCorrelation, read_action, text_content, user_source
from ..domain.formatter import format_action
from ..domain.ids import MessageId, RpcId, SessionId, TaskSurfaceId
from ..domain.model_v2 import TaskSurfaceModelV2
from ..domain.refusals import ActionCode, Problem, SubmissionRefused
from ..domain.results import SubmitAccepted, SubmitRejected, SubmitResult
from ..domain.submission import validate_submission
from ..store import inbox, log
from ..store.db import Database
from .errors import NotFound, RequestRefused
from .task_surface import TaskSurfaceService

Placement = Literal["queued", "steering"]
ReceiptState = Literal["queued", "claiming", "accepted"]


@dataclass(frozen=True)
class ActionReceipt:
    """One action of this surface: waiting (withdrawable while queued) or accepted (read-only)."""

    request_id: str
    action_id: str
    state: ReceiptState

    def to_wire(self) -> dict[str, Any]:
        return {"requestId": self.request_id, "actionId": self.action_id, "state": self.state}


class PanelActionService:
    def __init__(
        self,
        surfaces: TaskSurfaceService,
        database: Database,
        claims: Claims,
        notifier: Notifier,
        intake: Intake,
        clock: Callable[[], datetime],
        observers: tuple[InboxObserver, ...] = (),
    ) -> None:
        self.surfaces = surfaces
        self.database = database
        self.claims = claims
        self.notifier = notifier
        self.intake = intake
        self.clock = clock
        self.observers = observers

    def act(
        self,
        session_id: SessionId,
        surface_id: TaskSurfaceId,
        action_id: str,
        request_id: str,
        values: object,
        placement: object = "queued",
    ) -> SubmitResult:
        if placement not in ("queued", "steering"):
            raise RequestRefused("invalid-placement", "placement is 'queued' or 'steering'")
        if not self.surfaces.enabled:
            return SubmitRejected("not-open")
        with self.intake.accepting(session_id) as acceptance, self.database.write() as db:
            session = log.get_session(db, session_id, lock=True)
            earlier = _earlier(db, session_id, request_id)
            if earlier is not None:
                return _replayed(earlier, surface_id, action_id, values)
            active = session.projection.active
            if active is None:
                return SubmitRejected("not-open")
            if active.surface_id != surface_id:
                return SubmitRejected("stale")
            if inbox.item_for_surface(db, session_id, surface_id) is not None:
                return SubmitRejected("submission-pending")
            event = log.event_at(db, session_id, active.result_seq)
            presentation = self.surfaces.presentation_of(event) if event else None
            if presentation is None:
                return SubmitRejected("not-open")
            model = presentation.model
            action = model.action(action_id) if isinstance(model, TaskSurfaceModelV2) else None
            if action is None:
                return _refused(ActionCode.UNKNOWN, f"this panel has no action {action_id!r}")
            try:
                checked, _ = validate_submission(model, values, None, self.surfaces.limits, draft=True)
            except SubmissionRefused as refusal:
                return SubmitRejected("invalid-submission", tuple(refusal.problems))
            assert isinstance(model, TaskSurfaceModelV2)
            message_id = MessageId("msg_" + secrets.token_urlsafe(12))
            correlation = ActionCorrelation(request_id, action_id, active.call_id, surface_id, checked)
            item = inbox.new_item(
                session_id=session_id,
                message_id=message_id,
                placement=str(placement),
                source=user_source(RpcId("rpc_" + secrets.token_urlsafe(12)), action=correlation),
                content=text_content(format_action(model, action, checked)),
                at=self.clock(),
                request_id=request_id,
            )
            acceptance.accept(db, item, locked=session)
        return SubmitAccepted(message_id)

    def withdraw(self, session_id: SessionId, surface_id: TaskSurfaceId, request_id: str) -> bool:
        """Take a queued action back; `False` when the agent has it already (it is history now)."""
        with self.database.read() as db:
            item = inbox.item_by_request(db, session_id, request_id)
            admitted = log.event_by_request(db, session_id, request_id)
        found = read_action(item.source) if item else None
        if item is None or found is None or found.surface_id != surface_id:
            if admitted is not None and _is_action_of(admitted.payload.get("source"), surface_id):
                return False
            raise NotFound("action-not-found", "no such action of this panel")
        with self.claims.holding(item.id, "remove") as won:
            if not won:
                return False  # the runner is admitting it; the log decides
            with self.database.write() as db:
                if not inbox.delete(db, item.id):
                    return False
        for observer in self.observers:
            observer.outcome(item, "discarded", "withdrawn from its panel")
        self.notifier.changed(session_id, queue=True)
        return True

    def receipts(
        self, session_id: SessionId, surface_id: TaskSurfaceId, since_seq: int
    ) -> list[ActionReceipt]:
        """This surface's actions: admitted ones from the log after it opened, then the waiting ones."""
        admitting = self.claims.admitting()
        with self.database.read() as db:
            events = log.events_after(db, session_id, since_seq)
            waiting = inbox.items(db, session_id)
        found: list[ActionReceipt] = []
        for event in events:
            action = read_action(event.payload.get("source")) if event.kind == "user/message" else None
            if action is not None and action.surface_id == surface_id:
                found.append(ActionReceipt(action.request_id, action.action_id, "accepted"))
        for item in waiting:
            action = read_action(item.source)
            if action is not None and action.surface_id == surface_id:
                state: ReceiptState = "claiming" if item.id in admitting else "queued"
                found.append(ActionReceipt(action.request_id, action.action_id, state))
        return found


def _is_action_of(source: object, surface_id: TaskSurfaceId) -> bool:
    action = read_action(source)
    return action is not None and action.surface_id == surface_id


def _earlier(db: Any, session_id: SessionId, request_id: str) -> tuple[MessageId, object] | None:
    item = inbox.item_by_request(db, session_id, request_id)
    if item is not None:
        return item.message_id, item.source
    event = log.event_by_request(db, session_id, request_id)
    if event is not None:
        payload = event.payload
        return MessageId(str(payload.get("messageId", ""))), payload.get("source")
    return None


def _replayed(
    earlier: tuple[MessageId, object], surface_id: TaskSurfaceId, action_id: str, values: object
) -> SubmitResult:
    message_id, source = earlier
    action = read_action(source)
    same = (
        action is not None
        and action.surface_id == surface_id
        and action.action_id == action_id
        and strict_json.dumps_compact(values) == strict_json.dumps_compact(dict(action.values))
    )
    if not same:
        return _refused(ActionCode.ID_CONFLICT, "this requestId was already used for another request")
    return SubmitAccepted(message_id)


def _refused(code: ActionCode, message: str) -> SubmitRejected:
    return SubmitRejected("invalid-submission", (Problem(code, message, "action"),))
