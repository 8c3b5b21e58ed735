"""The JSON API of DESIGN.md's wire contract, under /api."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from ..domain import ids
from ..services.container import Services
from ..services.errors import RequestRefused
from .body import json_body, optional_int, refuse_unknown, required_int
from .security import current_identity, owned

bp = Blueprint("api", __name__, url_prefix="/api")
MODEL_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")

MAX_PAGE = 500


def services() -> Services:
    found: Services = current_app.extensions["tasksurface"]
    return found


@bp.post("/sessions")
def create_session() -> tuple[Response, int]:
    body = json_body(allow_empty=True)
    refuse_unknown(body, {"title"})
    title = body.get("title", "")
    if not isinstance(title, str):
        raise RequestRefused("invalid-title", "title must be text")
    return jsonify({"sessionId": services().sessions.create(title, owner=current_identity())}), 201


@bp.get("/sessions/<sid>")
def read_session(sid: str) -> Response:
    info = services().sessions.get(owned(sid))
    state = services().surfaces.state(info.id)
    question = services().questions.open_question(info.id)
    return jsonify(
        {
            "sessionId": info.id,
            "title": info.title,
            "createdAt": info.created_at.isoformat(),
            "headSeq": info.head_seq,
            "paused": info.paused,
            "forkedFrom": info.forked_from,
            "forkedAtSeq": info.forked_at_seq,
            "taskSurface": state.to_wire(),
            "question": question.to_wire() if question else None,
        }
    )


@bp.get("/sessions/<sid>/events")
def read_events(sid: str) -> Response:
    after = optional_int(request.args, "after", 0)
    limit = min(optional_int(request.args, "limit", 100), MAX_PAGE)
    if after < 0 or limit < 1:
        raise RequestRefused("invalid-range", "after must be >= 0 and limit >= 1")
    events = services().sessions.events_after(owned(sid), after, limit)
    return jsonify({"events": [e.to_wire() for e in events]})


@bp.post("/sessions/<sid>/messages")
def send_message(sid: str) -> tuple[Response, int]:
    body = json_body()
    refuse_unknown(body, {"text", "placement"})
    placement = body.get("placement", "queued")
    text = body.get("text")
    if not isinstance(text, str) or not isinstance(placement, str):
        raise RequestRefused("invalid-message", "text (and placement, if given) must be text")
    item = services().sessions.send(owned(sid), text, placement)
    return jsonify(item.to_wire()), 202


@bp.get("/sessions/<sid>/queue")
def read_queue(sid: str) -> Response:
    items = services().sessions.queue(owned(sid))
    return jsonify({"items": [i.to_wire() for i in items]})


@bp.post("/sessions/<sid>/queue/<item_id>")
def change_queue(sid: str, item_id: str) -> Response:
    body = json_body()
    refuse_unknown(body, {"action", "text"})
    action = body.get("action")
    if not isinstance(action, str):
        raise RequestRefused("invalid-action", "action is 'edit', 'steer' or 'remove'")
    services().sessions.queue_action(owned(sid), ids.inbox_item_id(item_id), action, body.get("text"))
    return jsonify({"ok": True})


@bp.post("/sessions/<sid>/agent")
def set_agent(sid: str) -> Response:
    body = json_body()
    refuse_unknown(body, {"paused"})
    paused = body.get("paused")
    if not isinstance(paused, bool):
        raise RequestRefused("invalid-paused", "paused must be true or false")
    services().sessions.set_paused(owned(sid), paused)
    return jsonify({"paused": paused})


@bp.get("/sessions/<sid>/task-surface")
def read_projection(sid: str) -> Response:
    session_id = owned(sid)
    return jsonify(services().surfaces.state(session_id).to_wire())


@bp.get("/sessions/<sid>/task-surfaces/<surface>")
def get_active(sid: str, surface: str) -> Response:
    session_id = owned(sid)
    return jsonify(get_active_from_params(session_id, surface))


@bp.post("/sessions/<sid>/task-surfaces/<surface>/submit")
def submit(sid: str, surface: str) -> Response:
    return jsonify(submit_from_body(owned(sid), surface, json_body()))


def submit_from_body(session_id: ids.SessionId, surface: str, body: dict[str, Any]) -> dict[str, Any]:
    """Shared by HTTP and the websocket RPC, so both check the same request shape."""
    refuse_unknown(body, {"submissionId", "values", "note", "action"})
    result = services().surfaces.submit(
        session_id,
        ids.surface_id(surface),
        ids.submission_id(body.get("submissionId")),
        body.get("values"),
        body.get("note"),
        action=body.get("action"),
    )
    return result.to_wire()


@bp.post("/sessions/<sid>/task-surfaces/<surface>/actions/<action>")
def act(sid: str, surface: str, action: str) -> Response:
    return jsonify(action_from_body(owned(sid), surface, action, json_body()))


def action_from_body(
    session_id: ids.SessionId, surface: str, action: str, body: dict[str, Any]
) -> dict[str, Any]:
    """A non-blocking action, answered like a submission; shared with the websocket RPC."""
    refuse_unknown(body, {"requestId", "values", "placement"})
    result = services().actions.act(
        session_id,
        ids.surface_id(surface),
        action_id(action),
        ids.request_id(body.get("requestId")),
        body.get("values"),
        body.get("placement", "queued"),
    )
    return result.to_wire()


@bp.post("/sessions/<sid>/task-surfaces/<surface>/actions/<action>/withdraw")
def withdraw(sid: str, surface: str, action: str) -> Response:
    return jsonify(withdraw_from_body(owned(sid), surface, action, json_body()))


def withdraw_from_body(
    session_id: ids.SessionId, surface: str, action: str, body: dict[str, Any]
) -> dict[str, Any]:
    refuse_unknown(body, {"requestId"})
    action_id(action)
    withdrawn = services().actions.withdraw(
        session_id, ids.surface_id(surface), ids.request_id(body.get("requestId"))
    )
    return {"withdrawn": withdrawn} if withdrawn else {"withdrawn": False, "reason": "accepted"}


def action_id(value: str) -> str:
    """Action ids are model ids (`[A-Za-z0-9_.-]{1,64}`), checked before any lookup."""
    if not MODEL_ID.fullmatch(value):
        raise RequestRefused(
            "invalid-id", "an action id is 1-64 characters of A-Z, a-z, 0-9, '_', '.' or '-'"
        )
    return value


@bp.post("/sessions/<sid>/task-surfaces/<surface>/dismiss")
def dismiss(sid: str, surface: str) -> Response:
    return jsonify(dismiss_from_body(owned(sid), surface, json_body()))


def dismiss_from_body(session_id: ids.SessionId, surface: str, body: dict[str, Any]) -> dict[str, Any]:
    refuse_unknown(body, {"dismissalId"})
    result = services().surfaces.dismiss(
        session_id, ids.surface_id(surface), ids.dismissal_id(body.get("dismissalId"))
    )
    return result.to_wire()


def get_active_from_params(session_id: ids.SessionId, surface: str) -> dict[str, Any]:
    return services().surfaces.get_active(session_id, ids.surface_id(surface)).to_wire()


@bp.post("/sessions/<sid>/questions/<call>/answer")
def answer_question(sid: str, call: str) -> Response:
    return jsonify(answer_from_body(owned(sid), {**json_body(), "callId": call}))


def answer_from_body(session_id: ids.SessionId, body: dict[str, Any]) -> dict[str, Any]:
    """Shared by HTTP and the websocket RPC `question.answer`."""
    refuse_unknown(body, {"callId", "answerId", "text"})
    text = body.get("text")
    if not isinstance(text, str):
        raise RequestRefused("invalid-answer", "text must be text")
    result = services().questions.answer(
        session_id, ids.call_id(body.get("callId")), ids.answer_id(body.get("answerId")), text
    )
    return result.to_wire()


@bp.post("/sessions/<sid>/fork")
def fork(sid: str) -> tuple[Response, int]:
    body = json_body()
    refuse_unknown(body, {"atSeq"})
    at_seq = required_int(body, "atSeq")
    return jsonify({"sessionId": services().sessions.fork(owned(sid), at_seq)}), 201


@bp.post("/sessions/<sid>/rewind")
def rewind(sid: str) -> Response:
    body = json_body()
    refuse_unknown(body, {"toSeq"})
    to_seq = required_int(body, "toSeq")
    return jsonify({"eventSeq": services().sessions.rewind(owned(sid), to_seq)})
