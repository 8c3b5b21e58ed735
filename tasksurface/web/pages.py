"""The HTML pages and the plain-form posts that make them work without JavaScript."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..domain import ids
from ..domain.form_values import form_name, hunk_name, values_from_form
from ..domain.refusals import Problem
from ..domain.results import ActiveResult, SubmitRejected
from ..domain.submission import Values
from ..services.container import Services
from ..services.errors import NotFound, RequestRefused
from . import views
from .body import optional_int
from .embed import note_created
from .read_later import READ_LATER, ReadLater
from .security import current_identity, owned
from .streamed_page import streamed_page

bp = Blueprint("pages", __name__)


def services() -> Services:
    found: Services = current_app.extensions["tasksurface"]
    return found


def fresh_id() -> str:
    return secrets.token_urlsafe(16)


@bp.get("/")
def index() -> str:
    return render_template("index.html", sessions=services().sessions.all(current_identity()))


@bp.post("/sessions")
def new_session() -> BaseResponse:
    session_id = services().sessions.create(request.form.get("title", ""), owner=current_identity())
    note_created(session_id)
    return redirect(url_for("pages.session", sid=session_id), 303)


@bp.get("/sessions/<sid>")
def session(sid: str) -> Response:
    # The page's many reads see one state, in one transaction; its head leaves before its body,
    # and before the reads only its body needs.
    return streamed_page(services().database.snapshot(), "session.html", lambda: _session_context(owned(sid)))


def _session_page(session_id: ids.SessionId, **changes: Any) -> str:
    """The chat page drawn whole: the answer to a plain-form post that did not go through."""
    return render_template("session.html", **_session_context(session_id, **changes))


def _session_context(
    session_id: ids.SessionId,
    *,
    values: Values | None = None,
    problems: tuple[Problem, ...] = (),
    reason: str | None = None,
    submission_id: str | None = None,
    answer_text: str = "",
    answer_problem: str | None = None,
) -> dict[str, Any]:
    """What the head names is read at once (a refusal, such as a bad `before`, still takes the
    usual error path); what only the body needs is read when the template reaches it."""
    svc = services()
    info = svc.sessions.get(session_id)
    before = request.args.get("before")
    page_size = svc.settings.history_page
    events = svc.sessions.page(
        session_id, optional_int(request.args, "before", 0) if before else None, page_size
    )
    last_seq = events[-1].seq if events else 0
    active = info.projection.active if svc.surfaces.enabled else None

    def body() -> dict[str, Any]:
        dock = views.dock_view(
            svc,
            session_id,
            values=values,
            problems=problems,
            reason=reason,
            submission_id=submission_id or fresh_id(),
            dismissal_id=fresh_id(),
        )
        question = svc.questions.open_question(session_id)
        question_view = (
            views.QuestionView(session_id, question, fresh_id(), answer_text, answer_problem)
            if question
            else None
        )
        first = events[0].seq if events else 0
        return dict(
            question=views.render_question(question_view),
            taken_over=question is not None,
            events=views.drawn_events(svc, session_id, events),
            older=first if first > 1 and _has_older(session_id, first) else None,
            dock=dock,
            queue=views.render_queue(svc.sessions.queue(session_id), session_id, info.paused),
            workspaces=views.page_has_workspace(svc, dock, events),
        )

    return {
        "info": info,
        "head_seq": info.head_seq,
        "last_seq": last_seq,
        # opened by connect.js, naming the row of the panel open now
        "socket_path": socket_path(session_id, last_seq, active.result_seq if active else 0),
        "paging": before is not None,
        "surfaces_enabled": svc.surfaces.enabled,
        READ_LATER: ReadLater(body),
    }


def socket_path(session_id: ids.SessionId, last_seq: int, open_row: int) -> str:
    """From the page's last seq; naming the row the page draws open, so that a panel closed before
    the socket opens has its row drawn again in the socket's first message."""
    shown = f"&open={open_row}" if 0 < open_row <= last_seq else ""
    return f"/ws/sessions/{session_id}?after={last_seq}{shown}"


def _has_older(session_id: ids.SessionId, first_seq: int) -> bool:
    return bool(services().sessions.page(session_id, first_seq, 1))


@bp.post("/sessions/<sid>/messages")
def send_message(sid: str) -> BaseResponse:
    session_id = owned(sid)
    services().sessions.send(session_id, request.form.get("text", ""))
    return redirect(url_for("pages.session", sid=session_id), 303)


@bp.post("/sessions/<sid>/agent")
def set_agent(sid: str) -> BaseResponse:
    session_id = owned(sid)
    services().sessions.set_paused(session_id, request.form.get("paused") == "true")
    return redirect(url_for("pages.session", sid=session_id), 303)


@bp.post("/sessions/<sid>/queue/<item_id>")
def change_queue(sid: str, item_id: str) -> BaseResponse:
    session_id = owned(sid)
    services().sessions.queue_action(
        session_id, ids.inbox_item_id(item_id), request.form.get("action", ""), request.form.get("text")
    )
    return redirect(url_for("pages.session", sid=session_id), 303)


@bp.post("/sessions/<sid>/task-surfaces/<surface>/submit")
def submit_form(sid: str, surface: str) -> Any:
    session_id = owned(sid)
    surface_id = ids.surface_id(surface)
    active = services().surfaces.get_active(session_id, surface_id)
    if not isinstance(active, ActiveResult):
        return redirect(url_for("pages.session", sid=session_id), 303)
    values = values_from_form(active.model, request.form.getlist)
    submission_id = request.form.get("submissionId", "")
    move = request.form.get("_move")
    if move:
        # Without JavaScript, an order's move buttons post the form; we answer with the moved order.
        return _session_page(session_id, values=_moved(values, move), submission_id=submission_id)
    if request.form.get("_refresh") or request.form.get("_explore"):
        # Without JavaScript: the fields that apply follow the answers, a dashboard shows the view
        # asked for; nothing is sent and the values stay.
        return _session_page(session_id, values=values, submission_id=submission_id)
    itinerary = request.form.get("_itin")
    if itinerary:
        return _session_page(
            session_id, values=_itinerary_step(values, itinerary), submission_id=submission_id
        )
    note = request.form.get("note", "").replace("\r\n", "\n") or None
    result = services().surfaces.submit(
        session_id,
        surface_id,
        ids.submission_id(submission_id),
        values,
        note,
        action=request.form.get("action"),
    )
    if isinstance(result, SubmitRejected):
        page = _session_page(
            session_id,
            values=values,
            problems=result.problems,
            reason=result.reason,
            submission_id=fresh_id(),
        )
        return Response(page, status=422)
    return redirect(url_for("pages.session", sid=session_id), 303)


def _moved(values: Values, move: str) -> Values:
    field_id, _, rest = move.partition(":")
    option_id, _, direction = rest.rpartition(":")
    order = values.get(field_id)
    if not isinstance(order, list) or option_id not in order or direction not in ("up", "down"):
        raise RequestRefused("invalid-move", "that move does not fit the field")
    index = order.index(option_id)
    target = index - 1 if direction == "up" else index + 1
    if 0 <= target < len(order):
        order[index], order[target] = order[target], order[index]
    return values


@bp.post("/sessions/<sid>/task-surfaces/<surface>/actions")
def action_form(sid: str, surface: str) -> Any:
    """A non-blocking action's button without JavaScript: `_act` names it, the form carries the values."""
    session_id = owned(sid)
    surface_id = ids.surface_id(surface)
    active = services().surfaces.get_active(session_id, surface_id)
    if not isinstance(active, ActiveResult):
        return redirect(url_for("pages.session", sid=session_id), 303)
    values = values_from_form(active.model, request.form.getlist)
    action_id = request.form.get("_act", "")
    position = next(
        (n for n, a in enumerate(getattr(active.model, "actions", []), 1) if a.id == action_id), 0
    )
    request_id = ids.request_id(request.form.get("_act_request", "") + str(position))
    placement = "steering" if request.form.get("_steer") else "queued"
    result = services().actions.act(session_id, surface_id, action_id, request_id, values, placement)
    if isinstance(result, SubmitRejected):
        page = _session_page(session_id, values=values, problems=result.problems, reason=result.reason)
        return Response(page, status=422)
    return redirect(url_for("pages.session", sid=session_id), 303)


@bp.post("/sessions/<sid>/task-surfaces/<surface>/actions/<action>/withdraw")
def withdraw_form(sid: str, surface: str, action: str) -> BaseResponse:
    session_id = owned(sid)
    services().actions.withdraw(
        session_id, ids.surface_id(surface), ids.request_id(request.form.get("_withdraw"))
    )
    return redirect(url_for("pages.session", sid=session_id), 303)


def _itinerary_step(values: Values, step: str) -> Values:
    """`field:place:add|remove|up|down` on an itinerary's stops, as its buttons post it without script."""
    field_id, _, rest = step.partition(":")
    place, _, verb = rest.rpartition(":")
    stops = values.get(field_id)
    if not isinstance(stops, list) or verb not in ("add", "remove", "up", "down"):
        raise RequestRefused("invalid-move", "that step does not fit the field")
    if verb == "add" and place not in stops:
        stops.append(place)
    elif verb == "remove" and place in stops:
        stops.remove(place)
    elif verb in ("up", "down") and place in stops:
        index = stops.index(place)
        target = index - 1 if verb == "up" else index + 1
        if 0 <= target < len(stops):
            stops[index], stops[target] = stops[target], stops[index]
    return values


@bp.get("/sessions/<sid>/dashboards/<int:seq>/<key>")
def dashboard_fragment(sid: str, seq: int, key: str) -> Any:
    """One dashboard's view for the page script; exploring reads the log and sends nothing."""
    session_id = owned(sid)
    html = views.dashboard_fragment(services(), session_id, seq, key)
    if html is None:
        raise NotFound("dashboard-not-found", "there is no such dashboard")
    return html


@bp.post("/sessions/<sid>/task-surfaces/<surface>/dismiss")
def dismiss_form(sid: str, surface: str) -> BaseResponse:
    session_id = owned(sid)
    services().surfaces.dismiss(
        session_id, ids.surface_id(surface), ids.dismissal_id(request.form.get("dismissalId"))
    )
    return redirect(url_for("pages.session", sid=session_id), 303)


@bp.post("/sessions/<sid>/questions/<call>/answer")
def answer_form(sid: str, call: str) -> Any:
    """A suggested answer's button posts `option`; the text box posts `text`."""
    session_id = owned(sid)
    text = request.form.get("option") or request.form.get("text", "").replace("\r\n", "\n")
    try:
        services().questions.answer(
            session_id, ids.call_id(call), ids.answer_id(request.form.get("answerId")), text
        )
    except RequestRefused as refused:
        if refused.code != "invalid-answer":
            raise
        return Response(
            _session_page(session_id, answer_text=text, answer_problem=refused.message), status=422
        )
    return redirect(url_for("pages.session", sid=session_id), 303)


@bp.get("/sessions/<sid>/dock")
def dock_fragment(sid: str) -> str:
    """The dock partial alone, for the page script when the open surface changes."""
    session_id = owned(sid)
    view = views.dock_view(services(), session_id, submission_id=fresh_id(), dismissal_id=fresh_id())
    return str(views.render_dock(view))


@bp.get("/sessions/<sid>/dock/receipts")
def receipts_fragment(sid: str) -> str:
    """The docked panel's action receipts alone, so a push never redraws what the user is typing."""
    session_id = owned(sid)
    view = views.dock_view(services(), session_id, submission_id=fresh_id(), dismissal_id=fresh_id())
    if view.active is None:
        return ""
    return render_template("_receipts.html", dock=view)


@bp.app_template_global()
def field_name(field_id: str) -> str:
    return form_name(field_id)


@bp.app_template_global()
def hunk_field_name(field_id: str, hunk: str) -> str:
    return hunk_name(field_id, hunk)
