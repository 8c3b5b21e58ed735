"""The app factory: settings → services → blueprints; nothing happens at import time."""

from __future__ import annotations

import atexit
import logging
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, request
from flask_compress import Compress

from ..config import load_settings
from ..domain.hunks import review_hunks
from ..domain.redaction import redact
from ..services.container import build_services
from ..store.engine import PROJECT_ROOT
from . import api, media, pages, push, views, ws
from .assets import init_assets
from .diffview import diff_lines
from .embed import init_embedding
from .errors import register_error_handlers
from .i18n import init_i18n
from .markdown import render_markdown
from .ops import init_ops
from .problems import problem_text, recovery_text
from .read_later import init_read_later
from .replays import init_replays
from .security import init_security
from .socket_reader import SocketReader
from .tasks import init_task_pushes, init_tasks
from .theme import init_theme
from .workspace_views import init_workspaces


def init_compression(app: Flask) -> None:
    """Pages, JSON, the script and the stylesheet travel compressed.

    Static files are streamed from disk; they are small, so they are read whole first and
    compressed like any other response (compressing the stream itself left files open).
    """
    app.config.update(COMPRESS_STREAMS=False)
    Compress(app)

    @app.after_request  # registered after Compress, so it runs before it
    def _read_static_whole(response: Response) -> Response:
        if request.endpoint == "static" and response.direct_passthrough and response.status_code == 200:
            response.direct_passthrough = False
            body = b"".join(response.response)  # type: ignore[arg-type]
            response.close()
            response.set_data(body)
        return response


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    settings = load_settings(test_config)
    app = Flask(
        "tasksurface",
        instance_path=str(settings.instance_path.resolve()),
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    app.config.update(
        SECRET_KEY=settings.secret_key,
        SOCK_SERVER_OPTIONS={
            "ping_interval": 25,
            "max_message_size": ws.MAX_FRAME_CHARS,
            "thread_class": SocketReader,
        },
    )
    hub = push.PushHub()
    services = build_services(settings, hub)
    hub.attach(app, services)
    app.extensions["tasksurface"] = services
    app.extensions["tasksurface.push"] = hub
    init_ops(app, services)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    init_tasks(app)
    init_task_pushes(app, hub, services)
    app.register_blueprint(media.bp)
    init_embedding(app)
    init_theme(app)
    init_assets(app)
    ws.sock.init_app(app)
    register_error_handlers(app)
    init_security(app, settings)
    init_i18n(app, settings.instance_path)
    init_compression(app)
    app.jinja_env.globals.update(
        render_markdown=render_markdown,
        diff_lines=diff_lines,
        ordered_options=views.ordered_options,
        review_hunks=review_hunks,
        number_text=views.number_text,
        condition_json=views.condition_json,
        problem_text=problem_text,
        recovery_text=recovery_text,
    )
    app.jinja_env.globals["agent_name"] = settings.agent_name  # the operator's, never the model's
    init_workspaces(app)
    init_replays(app)
    init_read_later(app)
    app.jinja_env.filters["redact"] = redact
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    services.start()
    atexit.register(services.stop)
    logging.getLogger("tasksurface").setLevel(logging.INFO)
    return app
