"""The websocket `/ws/sessions/<sid>`: pushes every committed change; answers Task Surface RPCs."""

from __future__ import annotations

import json
import logging
import queue
import socket
import threading
from collections.abc import Callable
from typing import Any

from flask import current_app, request
from flask_babel import get_locale
from flask_sock import ConnectionClosed, Sock

from ..domain import ids, strict_json
from ..domain.ids import InvalidId, SessionId
from ..services.container import Services
from ..services.errors import RequestRefused
from ..store import log
from . import api, ops, push, push_messages, tasks, views
from . import drain as drain_codes
from .body import optional_int, refuse_unknown, seq_list
from .security import current_identity, owned

logger = logging.getLogger(__name__)
sock = Sock()

HELLO_EVENT_LIMIT = 200
MAX_SHOWN_OPEN = 8
"""Rows a page may name as showing an open panel (`open=<seq>`); a page shows one, or a few while
a push is on its way."""
MAX_FRAME_CHARS = 64 * 1024
RECEIVE_POLL = 1.0
"""Seconds between looks at whether another thread closed the socket."""


def _services() -> Services:
    found: Services = current_app.extensions["tasksurface"]
    return found


def _hub() -> push.PushHub:
    found: push.PushHub = current_app.extensions["tasksurface.push"]
    return found


def _without_delay(ws: Any) -> None:
    """Every frame leaves at once. With Nagle's algorithm a push written right after another small
    frame (the answer to a call, the hello) waits until the browser acknowledges that one, which
    it may delay by 40 ms or more: a submitted panel's reply reached the page 30 ms late."""
    connection: socket.socket | None = getattr(ws, "sock", None)
    if connection is None or connection.family not in (socket.AF_INET, socket.AF_INET6):
        return  # a Unix socket behind a proxy: the proxy's own connection is the one to tune
    try:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:
        logger.warning("could not turn off Nagle's algorithm on a websocket", exc_info=True)


@sock.route("/ws/sessions/<sid>")  # type: ignore[untyped-decorator]
def session_socket(ws: Any, sid: str) -> None:
    _without_delay(ws)
    try:
        session_id = owned(sid)
        identity = current_identity()
        after = optional_int(request.args, "after", 0)
        shown_open = seq_list(request.args, "open", most=MAX_SHOWN_OPEN, at_most=after)
    except (InvalidId, RequestRefused) as exc:
        ws.send(json.dumps({"type": "error", "error": _error(exc)}))
        ws.close(reason=1008)
        return
    send_lock = threading.Lock()

    def send(message: dict[str, Any]) -> None:
        with send_lock:
            # ASCII escapes keep any string sendable, lone surrogates included.
            ws.send(json.dumps(message))

    def close(code: int, reason: str) -> None:
        with send_lock:
            ws.close(reason=code, message=reason)

    drain = ops.drain_of(current_app)
    token = drain.register(close)
    if token is None:  # this process is stopping: the page reconnects to the next one
        ws.close(reason=drain_codes.RESTART_CODE, message=drain_codes.RESTART_REASON)
        return
    gauge = ops.metrics_of(current_app).websockets
    gauge.inc()
    hub = _hub()
    subscription, hello = hub.open(session_id, after, lambda: _hello(session_id, after, shown_open))
    subscription.language = str(get_locale() or "en")
    stop = threading.Event()
    pump = threading.Thread(target=_pump, args=(subscription, send, stop), daemon=True)
    try:
        send(hello)
        pump.start()
        while True:
            # A timeout, so a socket closed by the drain (from another thread) ends its handler.
            frame = ws.receive(timeout=RECEIVE_POLL)
            if frame is None:
                if not ws.connected:
                    break
                continue
            send(_answer(session_id, identity, frame))
    except ConnectionClosed:
        pass
    finally:
        stop.set()
        hub.unsubscribe(subscription)
        drain.unregister(token)
        gauge.dec()


def _pump(
    subscription: push.Subscription, send: Callable[[dict[str, Any]], None], stop: threading.Event
) -> None:
    while not stop.is_set():
        try:
            message = subscription.messages.get(timeout=0.5)
        except queue.Empty:
            continue
        try:
            send({"type": "reset"} if subscription.overflowed else message)
        except (ConnectionClosed, OSError):
            return


def _hello(session_id: SessionId, after: int, shown_open: tuple[int, ...] = ()) -> dict[str, Any]:
    services = _services()
    with services.database.snapshot():  # one read transaction, as a push reads
        return _hello_message(services, session_id, after, shown_open)


def _hello_message(
    services: Services, session_id: SessionId, after: int, shown_open: tuple[int, ...]
) -> dict[str, Any]:
    events = services.sessions.events_after(session_id, after, HELLO_EVENT_LIMIT + 1)
    if len(events) > HELLO_EVENT_LIMIT or any(e.kind == "session/rewound" for e in events):
        # Too far behind, or history the page shows was rewound away while it had no socket (the
        # push of a rewind is a reset too): the page reloads from the log. So every row it names
        # below is still in the history.
        return {"type": "reset"}
    queue = push_messages.queue_message(services, session_id)  # before the state, as every push reads them
    state = services.surfaces.state(session_id)
    hello: dict[str, Any] = {
        "type": "hello",
        "events": views.wire_events(services, session_id, events),
        "taskSurface": state.to_wire(),
        **views.question_message(services, session_id, push_messages.fresh_id()),
        "queue": queue,
        **tasks.hello_part(session_id),
    }
    still_open = state.active.result_seq if state.active else None
    rows = _rows_drawn_again(services, session_id, [seq for seq in shown_open if seq != still_open])
    if rows:
        hello["rows"] = rows
    return hello


def _rows_drawn_again(services: Services, session_id: SessionId, seqs: list[int]) -> dict[str, str]:
    """The rows a page showed open whose panel closed while it had no socket (submitted over HTTP,
    dismissed in another tab, passed by): drawn as they are now, as the push of that close would
    have drawn them."""
    if not seqs:
        return {}
    with services.database.read() as db:
        found = [event for event in (log.event_at(db, session_id, seq) for seq in seqs) if event]
    drawn = views.render_events(services, session_id, found)
    return {str(event.seq): str(row) for event, row in zip(found, drawn, strict=True)}


def _answer(session_id: SessionId, identity: str, frame: str | bytes) -> dict[str, Any]:
    """One RPC frame in, one reply out; a malformed frame gets a typed error, and a failure of the
    server an error too, never a closed socket."""
    rpc_id: object = None
    try:
        if len(frame) > MAX_FRAME_CHARS:
            raise RequestRefused("frame-too-large", f"frames hold at most {MAX_FRAME_CHARS} characters")
        try:
            message = strict_json.loads(frame)
        except strict_json.DuplicateKey as exc:
            raise RequestRefused("duplicate-key", str(exc)) from exc
        except ValueError as exc:
            raise RequestRefused("invalid-json", f"the frame is not JSON: {exc}") from exc
        if not isinstance(message, dict):
            raise RequestRefused("invalid-json", "a frame is a JSON object")
        rpc_id = message.get("id")
        _services().sessions.require_owner(session_id, identity)  # every frame, not just the handshake
        params = message.get("params")
        if not isinstance(params, dict):
            raise RequestRefused("invalid-params", "params must be an object")
        surface = params.pop("surfaceId", None)
        method = message.get("method")
        if method == "taskSurface.submit":
            result = api.submit_from_body(session_id, _surface(surface), params)
        elif method == "taskSurface.dismiss":
            result = api.dismiss_from_body(session_id, _surface(surface), params)
        elif method == "taskSurface.action":
            action = params.pop("actionId", None)
            if not isinstance(action, str):
                raise RequestRefused("invalid-params", "actionId must be text")
            result = api.action_from_body(session_id, _surface(surface), action, params)
        elif method == "question.answer":
            result = api.answer_from_body(session_id, params)
        elif method == "task.stop":
            task = params.pop("taskId", None)
            result = tasks.stop_from_body(session_id, str(ids.task_id(task)), params)
        elif method == "taskSurface.getActive":
            refuse_unknown(params, set())
            result = api.get_active_from_params(session_id, _surface(surface))
        else:
            raise RequestRefused("unknown-method", f"there is no method {method!r}")
        return {"type": "rpc", "id": rpc_id, "result": result}
    except (RequestRefused, InvalidId) as exc:
        return {"type": "rpc", "id": rpc_id, "error": _error(exc)}
    except Exception:
        # As an HTTP request's 500: the caller learns that this call failed, and the socket stays.
        logger.exception("a call on the socket of session %s failed", session_id)
        error = {"code": "internal-server-error", "message": "the server could not complete this request"}
        return {"type": "rpc", "id": rpc_id, "error": error}


def _surface(value: object) -> str:
    return str(ids.surface_id(value))


def _error(exc: Exception) -> dict[str, str]:
    code = exc.code if isinstance(exc, RequestRefused) else "invalid-id"
    ops.note_refusal(code)
    return {"code": code, "message": exc.message if isinstance(exc, RequestRefused) else str(exc)}
