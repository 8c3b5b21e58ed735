"""The task tray: its partial, its HTTP API and form post, and its websocket pushes.

The tray is one server-rendered partial (`_tasks.html`) for the page, a fetch and a push alike;
each task is an element keyed by its id. A push carries every task's fields and its rendered
row, so the page script updates rows in place and never loses what the person typed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from ..domain import ids
from ..domain.ids import SessionId
from ..domain.refusals import TaskRefused
from ..domain.tasks import MAX_REASON_CHARS, is_terminal
from ..services.errors import NotFound, RequestRefused, check_text
from ..services.tasks import TaskService, TaskView
from .body import json_body, refuse_unknown
from .i18n import COOKIE as LANGUAGE_COOKIE
from .i18n import N_
from .security import owned

if TYPE_CHECKING:
    from ..services.container import Services
    from .push import PushHub

bp = Blueprint("tasks", __name__)

STATUS_WORDS = {
    "queued": N_("queued"),
    "running": N_("running"),
    "completed": N_("completed"),
    "failed": N_("failed"),
    "cancelled": N_("stopped"),
}
ELAPSED = (N_("%(s)s s"), N_("%(m)s min %(s)s s"), N_("%(h)s h %(m)s min"))


def _services() -> Services:
    found: Services = current_app.extensions["tasksurface"]
    return found


def _tasks() -> TaskService:
    runtime = _services().tasks
    if runtime is None:
        raise NotFound("tasks-off", "background tasks are switched off here")
    return runtime.service


def status_word(status: str) -> str:
    return str(gettext(STATUS_WORDS.get(status, status)))


def elapsed_seconds(view: TaskView, now: datetime) -> int:
    end = view.snapshot.ended_at or now
    return max(0, int((end - view.snapshot.started_at).total_seconds()))


def elapsed_text(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return str(gettext(ELAPSED[2], h=hours, m=minutes))
    if minutes:
        return str(gettext(ELAPSED[1], m=minutes, s=secs))
    return str(gettext(ELAPSED[0], s=secs))


TAIL_LINES = 8
"""Lines of output the tray shows of each task: a glance, not a log viewer."""


def tail_lines(tail: str) -> list[str]:
    """The last lines of a tail, without the empty one a final newline leaves."""
    return tail.rstrip("\n").split("\n")[-TAIL_LINES:] if tail.strip() else []


def render_tray(session_id: SessionId) -> Markup:
    """The whole tray (hidden when the session has no task); empty when tasks are off."""
    runtime = _services().tasks
    if runtime is None:
        return Markup("")
    views = runtime.service.views(session_id)
    return Markup(render_template("_tasks.html", session_id=session_id, views=views, now=_services_now()))


def _services_now() -> datetime:
    return datetime.now(UTC)


def render_row(session_id: SessionId, view: TaskView, now: datetime) -> str:
    return render_template("_task_row.html", session_id=session_id, view=view, now=now)


def tray_message(session_id: SessionId) -> dict[str, Any]:
    """The tray part of a push: each task's fields, its words in the page's language and its row."""
    views = _tasks().views(session_id)
    now = _services_now()
    return {
        "type": "tasks",
        "running": sum(1 for v in views if not is_terminal(v.snapshot.status)),
        "summary": summary_text(views),
        "tasks": [
            {
                **view.to_wire(),
                "statusText": status_word(view.snapshot.status),
                "elapsed": elapsed_seconds(view, now),
                "html": render_row(session_id, view, now),
            }
            for view in views
        ],
    }


def summary_text(views: list[TaskView]) -> str:
    running = sum(1 for v in views if not is_terminal(v.snapshot.status))
    if running:
        return str(gettext("%(num)d running", num=running))
    return str(gettext("none running"))


def init_task_pushes(app: Flask, hub: PushHub, services: Services) -> None:
    """Every change of a session's tasks goes to that session's sockets in this process."""
    if services.tasks is None:
        return

    def publish(session_id: SessionId) -> None:
        if not hub.subscriber_count(session_id):
            return

        def build(language: str) -> dict[str, Any]:
            # The subscriber's language, as its page chose it (the switch's cookie).
            with app.test_request_context("/", headers={"Cookie": f"{LANGUAGE_COOKIE}={language}"}):
                return tray_message(session_id)

        hub.publish(session_id, build)

    services.tasks.service.listeners.append(publish)


def hello_part(session_id: SessionId) -> dict[str, Any]:
    """What a (re)connecting socket gets of the tray, in its hello."""
    return {"tasks": tray_message(session_id) if _services().tasks is not None else None}


def stop_from_body(session_id: SessionId, task: str, body: dict[str, Any]) -> dict[str, Any]:
    """Shared by HTTP and the websocket RPC `task.stop`: a person stops a task of their session."""
    refuse_unknown(body, {"reason"})
    reason = body.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise RequestRefused("invalid-reason", "reason must be text")
    return _stop(session_id, task, reason)


def _stop(session_id: SessionId, task: str, reason: str | None) -> dict[str, Any]:
    task_id = ids.task_id(task)
    text = (reason or "").strip()
    check_text(text, "the reason")
    if len(text) > MAX_REASON_CHARS:
        raise RequestRefused("reason-too-long", f"a reason holds at most {MAX_REASON_CHARS} characters")
    try:
        decision, snapshot, _limit = _tasks().kill(session_id, task_id, text or None, "user")
    except TaskRefused:
        raise NotFound("task-not-found", "there is no such task in this session") from None
    return decision.to_wire(snapshot)


@bp.get("/api/sessions/<sid>/tasks")
def list_tasks(sid: str) -> Response:
    session_id = owned(sid)
    return jsonify({"tasks": [v.to_wire() for v in _tasks().views(session_id)]})


@bp.get("/api/sessions/<sid>/tasks/<task>")
def read_task(sid: str, task: str) -> Response:
    session_id = owned(sid)
    try:
        view = _tasks().view(session_id, ids.task_id(task))
    except TaskRefused:
        raise NotFound("task-not-found", "there is no such task in this session") from None
    return jsonify(view.to_wire())


@bp.post("/api/sessions/<sid>/tasks/<task>/stop")
def stop_task(sid: str, task: str) -> Response:
    return jsonify(stop_from_body(owned(sid), task, json_body(allow_empty=True)))


@bp.post("/sessions/<sid>/tasks/<task>/stop")
def stop_form(sid: str, task: str) -> BaseResponse:
    """Without JavaScript: the tray's Stop posts here and the page comes back."""
    session_id = owned(sid)
    _stop(session_id, task, request.form.get("reason"))
    return redirect(url_for("pages.session", sid=session_id) + "#task-tray", 303)


def init_tasks(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals.update(
        render_tray=render_tray,
        tail_lines=tail_lines,
        status_word=status_word,
        elapsed_text=elapsed_text,
        elapsed_seconds=elapsed_seconds,
    )
