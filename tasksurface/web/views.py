"""View models and partial rendering shared by the full page, fetches and websocket pushes."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, render_template, request
from markupsafe import Markup

from ..domain import question as questions
from ..domain import strict_json
from ..domain.events import SessionEvent, content_text, read_correlation
from ..domain.formatter import format_number
from ..domain.ids import SessionId
from ..domain.model import Option, OrderField
from ..domain.model_v2 import VisibleWhen
from ..domain.presentation import TOOL_NAME, expiry
from ..domain.preview import Preview
from ..domain.question import QUESTION_TOOL, OpenQuestion
from ..domain.redaction import redact_question
from ..domain.refusals import Problem
from ..domain.results import ActiveResult, Expired
from ..domain.submission import Values, initial_values
from ..domain.tasks import read_card
from ..domain.visibility import applying, condition_values
from ..domain.workspaces import DashboardBlock
from ..services.container import Services
from ..services.panel_actions import ActionReceipt
from ..services.sessions import QueuedMessage
from ..services.task_surface import RowView
from .workspace_views import explore_dashboard


@dataclass(frozen=True)
class DockView:
    """Everything the dock partial needs; `values` may be a rejected submission's values."""

    session_id: SessionId
    active: ActiveResult | None
    values: Values = field(default_factory=dict)
    problems: Sequence[Problem] = ()
    reason: str | None = None
    submission_id: str = ""
    dismissal_id: str = ""
    receipts: Sequence[ActionReceipt] = ()
    """This panel's non-blocking actions so far: waiting ones can be withdrawn, sent ones are history."""
    action_request_id: str = ""
    agent_name: str = ""
    result_seq: int = 0
    """Where the open panel's result is logged: its dashboards are explored from there."""
    recovery: Problem | None = None
    """Instead of a dock: the open panel expired, or the history cannot be read whole."""

    @property
    def shown(self) -> set[str]:
        """The fields that apply to the values shown; the others are drawn hidden."""
        return applying(self.active.model.fields, self.values) if self.active else set()

    def action_label(self, action_id: str) -> str:
        found = getattr(self.active.model, "action", None) if self.active else None
        action = found(action_id) if found else None
        return action.label if action else action_id

    @property
    def pending_phase(self) -> str:
        return self.active.pending.phase if self.active and self.active.pending else ""

    def problems_for(self, field_id: str) -> list[Problem]:
        return [p for p in self.problems if p.where == field_id]

    @property
    def general_problems(self) -> list[Problem]:
        ids = {f.id for f in self.active.model.fields} if self.active else set()
        return [p for p in self.problems if p.where not in ids]


def dock_view(
    services: Services,
    session_id: SessionId,
    *,
    values: Values | None = None,
    problems: Sequence[Problem] = (),
    reason: str | None = None,
    submission_id: str,
    dismissal_id: str,
) -> DockView:
    state = services.surfaces.state(session_id)
    active = None
    recovery = state.recovery
    if state.active is not None:
        result = services.surfaces.get_active(session_id, state.active.surface_id)
        active = result if isinstance(result, ActiveResult) else None
        recovery = result.problem if isinstance(result, Expired) else recovery
    start = initial_values(active.model) if active else {}
    if active and active.pending:
        values = services.surfaces.pending_values(session_id, active.surface_id) or values
    if values is not None:
        start.update(values)
    receipts: list[ActionReceipt] = []
    if active is not None and state.active is not None and getattr(active.model, "actions", None):
        receipts = services.actions.receipts(session_id, active.surface_id, state.active.result_seq)
    return DockView(
        session_id,
        active,
        start,
        problems,
        reason,
        submission_id,
        dismissal_id,
        receipts,
        action_request_id=submission_id[:48] + "-a",
        agent_name=services.settings.agent_name,
        recovery=recovery,
        result_seq=state.active.result_seq if state.active else 0,
    )


@dataclass(frozen=True)
class QuestionView:
    """The composer takeover: the open question, the answer being retried and why it was refused."""

    session_id: SessionId
    question: OpenQuestion
    answer_id: str
    text: str = ""
    problem: str | None = None


def render_question(view: QuestionView | None) -> Markup:
    if view is None:
        return Markup("")
    return Markup(render_template("_question.html", q=view))


def question_message(services: Services, session_id: SessionId, answer_id: str) -> dict[str, Any]:
    """The question part of a push: what is asked, and the takeover that asks it."""
    question = services.questions.open_question(session_id)
    view = QuestionView(session_id, question, answer_id) if question else None
    return {"question": question.to_wire() if question else None, "questionHtml": str(render_question(view))}


def render_dock(view: DockView) -> Markup:
    return Markup(render_template("_dock.html", dock=view))


def render_preview(shown: Preview, call_key: str, agent_name: str) -> Markup:
    """A panel the model is still writing, drawn read-only where the dock will be."""
    return Markup(render_template("_preview.html", p=shown, call_key=call_key, agent_name=agent_name))


def render_event(
    services: Services, event: SessionEvent, row_states: Mapping[int, RowView], session_id: SessionId
) -> Markup:
    presentation = services.surfaces.presentation_of(event)
    return Markup(
        render_template(
            "_event.html",
            event=event,
            session_id=session_id,
            presentation=presentation,
            row=row_states.get(event.seq),
            text=content_text(event.payload.get("content")),
            correlation=read_correlation(event.payload.get("source")),
            surface_tool=TOOL_NAME,
            question_tool=QUESTION_TOOL,
            question=_asked(event),
            answer=questions.answer_of(event),
            unanswered=questions.is_unanswered(event),
            card=read_card(event.payload.get("meta")) if event.kind == "tool/result" else None,
            expired=_expired(services, event, presentation),
        )
    )


def _asked(event: SessionEvent) -> questions.OpenQuestion | None:
    """A question's call as its transcript row shows it, credentials masked."""
    asked = questions.fold(None, event) if event.kind == "tool/call" else None
    return redact_question(asked) if asked else None


def _expired(services: Services, event: SessionEvent, presentation: object) -> Problem | None:
    """Why a successful panel result can no longer be drawn (never while the feature is off)."""
    payload = event.payload
    if presentation is not None or not services.surfaces.enabled or event.kind != "tool/result":
        return None
    if payload.get("name") != TOOL_NAME or payload.get("ok") is not True:
        return None
    return expiry(payload.get("meta"), services.surfaces.limits)


def drawn_events(
    services: Services, session_id: SessionId, events: Sequence[SessionEvent]
) -> Iterator[Markup]:
    """The rows drawn as the page's template reaches them (after the head has been sent)."""
    states = services.surfaces.row_states(session_id, events)
    return (render_event(services, e, states, session_id) for e in events)


def render_events(services: Services, session_id: SessionId, events: Sequence[SessionEvent]) -> list[Markup]:
    return list(drawn_events(services, session_id, events))


def render_queue(items: Sequence[QueuedMessage], session_id: SessionId, paused: bool) -> Markup:
    return Markup(render_template("_queue.html", items=items, session_id=session_id, paused=paused))


def wire_events(
    services: Services, session_id: SessionId, events: Sequence[SessionEvent]
) -> list[dict[str, Any]]:
    html = render_events(services, session_id, events)
    return [{**e.to_wire(), "html": str(h)} for e, h in zip(events, html, strict=True)]


def ordered_options(field: OrderField, value: object) -> list[Option]:
    """An order field's options in the given order; anything but a permutation keeps the declared order."""
    by_id = {o.id: o for o in field.options}
    if isinstance(value, list) and sorted(map(str, value)) == sorted(by_id):
        return [by_id[str(v)] for v in value]
    return list(field.options)


def number_text(value: object) -> str:
    """A number as an `<input type=number>` takes it; empty for no value."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ""
    return format_number(value)


def condition_json(condition: VisibleWhen) -> str:
    """What the page script needs to follow a condition: the field and the values it names."""
    return strict_json.dumps_compact({"field": condition.field, "values": condition_values(condition)})


def dashboard_fragment(services: Services, session_id: SessionId, seq: int, key: str) -> str | None:
    """The explored view of one dashboard block of the panel logged at `seq`."""
    event = services.sessions.event_at(session_id, seq)
    presentation = services.surfaces.presentation_of(event) if event else None
    section, _, index = key.partition("-")
    if presentation is None or not section.isdigit() or not index.isdigit():
        return None
    sections = presentation.model.sections
    if int(section) >= len(sections) or int(index) >= len(sections[int(section)].blocks):
        return None
    block = sections[int(section)].blocks[int(index)]
    if not isinstance(block, DashboardBlock):
        return None
    module = current_app.jinja_env.get_template("_workspaces.html").module
    dkey = f"{seq}-{key}"
    prefix = request.args.get("p", "")
    idp = prefix if re.fullmatch(r"[A-Za-z0-9_-]{1,80}", prefix) else dkey
    return str(module.dashboard_view(block, idp, explore_dashboard(block, dkey)))


WORKSPACE_KINDS = frozenset({"comparison", "itinerary", "chart", "dashboard"})


def uses_workspace(model: object) -> bool:
    """Whether drawing this model needs the workspace stylesheet and script."""
    fields = getattr(model, "fields", [])
    blocks = [b for s in getattr(model, "sections", []) for b in s.blocks]
    return any(getattr(x, "kind", "") in WORKSPACE_KINDS for x in [*fields, *blocks])


def page_has_workspace(services: Services, dock: DockView, events: Sequence[SessionEvent]) -> bool:
    if dock.active is not None and uses_workspace(dock.active.model):
        return True
    for event in events:
        presentation = services.surfaces.presentation_of(event)
        if presentation is not None and uses_workspace(presentation.model):
            return True
    return False
