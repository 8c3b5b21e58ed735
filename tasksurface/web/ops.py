"""The operator's endpoints: `/healthz` (alive), `/readyz` (database and schema), `/metrics`.

They read no identity and no session, so a load balancer or a scraper needs no cookie; what
`/metrics` shows is content-free by construction (see `tasksurface.metrics`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, Flask, Response, current_app, jsonify
from prometheus_client import CONTENT_TYPE_LATEST

from ..domain.results import DismissRejected, SubmitRejected
from ..metrics import InboxDepth, Metrics, OutcomeMetrics, measured
from ..services.container import Services
from ..store.engine import check_schema_current
from ..store.tables import InboxRow
from .drain import Drain

bp = Blueprint("ops", __name__)


def metrics_of(app: Flask) -> Metrics:
    found: Metrics = app.extensions["tasksurface.metrics"]
    return found


def drain_of(app: Flask) -> Drain:
    found: Drain = app.extensions["tasksurface.drain"]
    return found


def note_refusal(code: str) -> None:
    """A typed refusal answered to a client, counted by its code (never its message)."""
    metrics = current_app.extensions.get("tasksurface.metrics")
    if isinstance(metrics, Metrics):
        metrics.refusal(code)


@bp.get("/healthz")
def healthz() -> Response:
    """The process answers; nothing else is asked (a stuck database must not restart every process)."""
    response = jsonify({"status": "alive"})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/readyz")
def readyz() -> tuple[Response, int]:
    services: Services = current_app.extensions["tasksurface"]
    reason = None
    if drain_of(current_app).draining.is_set():
        reason = "stopping: this process is draining"
    else:
        try:
            with services.database.engine.connect() as connection:
                connection.execute(sa.text("SELECT 1"))
            check_schema_current(services.database.engine)
        except sa.exc.SQLAlchemyError as exc:
            reason = f"database unreachable: {type(exc).__name__}"
        except Exception as exc:  # SchemaNotCurrent names the revisions and what to run
            reason = f"schema not current: {exc}"
    if reason is None:
        return jsonify({"status": "ready"}), 200
    return jsonify({"status": "not-ready", "reason": reason}), 503


@bp.get("/metrics")
def metrics() -> Response:
    body = metrics_of(current_app).exposition()
    return Response(
        body, mimetype=None, content_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"}
    )


def _counting_rejections(method: Callable[..., Any], metrics: Metrics) -> Callable[..., Any]:
    """Every path to the panel service (HTTP, websocket, plain form) passes here once."""

    @functools.wraps(method)
    def counted(*args: Any, **kwargs: Any) -> Any:
        result = method(*args, **kwargs)
        if isinstance(result, SubmitRejected | DismissRejected):
            metrics.refusal(result.reason)
        return result

    return counted


def init_ops(app: Flask, services: Services) -> None:
    """Metrics observers on the log, the inbox and the model; the drain; the endpoints."""
    metrics = Metrics()
    services.database.interaction_observers.append(metrics.interaction)
    services.runner.observers.append(OutcomeMetrics(metrics))
    services.runner.backend = measured(services.runner.backend, metrics)
    for name in ("submit", "dismiss"):
        setattr(services.surfaces, name, _counting_rejections(getattr(services.surfaces, name), metrics))
    services.actions.act = _counting_rejections(services.actions.act, metrics)  # type: ignore[method-assign]

    def inbox_depth() -> int:
        with services.database.read() as db:
            return int(db.scalar(sa.select(sa.func.count()).select_from(InboxRow)) or 0)

    metrics.add_collector(InboxDepth(inbox_depth))
    app.extensions["tasksurface.metrics"] = metrics
    app.extensions["tasksurface.drain"] = Drain()
    app.register_blueprint(bp)


def begin_drain(app: Flask) -> int:
    """The process is stopping: take no new inbox rows and send every page to the next process."""
    services: Services = app.extensions["tasksurface"]
    return drain_of(app).begin(services.runner.stop_claiming)
