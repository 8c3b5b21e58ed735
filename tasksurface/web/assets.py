"""Script bundles: one behaviour per source file under `static/js`, one request per page.

A bundle's URL names a hash of its content, so a browser may keep it for good and a changed
file is simply a new URL. In debug mode the files are read again on every request.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, url_for

BUNDLES: dict[str, tuple[str, ...]] = {
    # The order is the order in which the behaviours see each pushed message. The socket opens
    # second, at once: the whole bundle runs in one task, so every behaviour listens before the
    # first message can arrive, and the handshake overlaps the others' start.
    "session": (
        "page.js",
        "live.js",
        "drafts.js",
        "transcript.js",
        "composer.js",
        "order_list.js",
        "option_filter.js",
        "dock.js",
        "preview.js",
        "panel_actions.js",
        "question.js",
        "tasks.js",
        "order_drag.js",
        "attention.js",
        "workspace_loader.js",
    ),
    # Loaded by workspace_loader.js only on pages that show a workspace.
    "workspaces": ("comparison.js", "dashboard.js", "itinerary.js"),
    # Loaded only in a page framed by a listed site: talks to that site with postMessage.
    "embed": ("embed_frame.js",),
}
FOREVER = "public, max-age=31536000, immutable"

bp = Blueprint("assets", __name__)


@dataclass(frozen=True)
class Bundle:
    digest: str
    body: bytes


class Bundles:
    def __init__(self, folder: Path, reload: bool) -> None:
        self.folder = folder
        self.reload = reload
        self._built: dict[str, Bundle] = {}

    def get(self, name: str) -> Bundle:
        if self.reload or name not in self._built:
            self._built[name] = self._build(name)
        return self._built[name]

    def _build(self, name: str) -> Bundle:
        parts = [(self.folder / file).read_bytes() for file in BUNDLES[name]]
        body = b"\n".join(parts)
        return Bundle(hashlib.sha256(body).hexdigest()[:16], body)


def _bundles() -> Bundles:
    found: Bundles = current_app.extensions["tasksurface.assets"]
    return found


def bundle_url(name: str) -> str:
    return url_for("assets.bundle", name=name, digest=_bundles().get(name).digest)


@bp.get("/assets/<name>.<digest>.js")
def bundle(name: str, digest: str) -> Response:
    if name not in BUNDLES:
        return Response("no such bundle", status=404, mimetype="text/plain")
    built = _bundles().get(name)
    response = Response(built.body, mimetype="text/javascript")
    # A page from before a deploy asks for the old digest: it gets today's files, not kept.
    response.headers["Cache-Control"] = FOREVER if digest == built.digest else "no-cache"
    return response


def init_assets(app: Flask) -> None:
    app.extensions["tasksurface.assets"] = Bundles(Path(app.static_folder or "") / "js", reload=app.debug)
    app.register_blueprint(bp)
    app.jinja_env.globals["bundle_url"] = bundle_url
