"""Script bundles: one behaviour per source file under `static/js`, one request per page.

A bundle's URL names a hash of its content, so a browser may keep it for good and a changed
file is simply a new URL. A bundle is built once per process: its comments and spare whitespace
removed (rjsmin, which only drops what cannot change meaning) and compressed once at brotli's
best, so a page's scripts cost neither bytes nor a compression per request. In debug mode the
files are read again on every request.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import brotli
import rjsmin
from flask import Blueprint, Flask, Response, current_app, request, url_for

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
    # In every page's head, loaded without blocking it: the theme, and on the chat page the socket
    # (connect.js), so its handshake overlaps the page's first layout.
    "head": ("theme.js", "connect.js"),
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
    brotli: bytes
    """`body` compressed once, for every browser that accepts it."""


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
        parts = [(self.folder / file).read_text(encoding="utf-8") for file in BUNDLES[name]]
        body = rjsmin.jsmin("\n".join(parts)).encode()
        return Bundle(hashlib.sha256(body).hexdigest()[:16], body, brotli.compress(body, quality=11))


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
    if request.accept_encodings["br"]:  # already compressed: the compression layer leaves it be
        response = Response(built.brotli, mimetype="text/javascript", headers={"Content-Encoding": "br"})
    else:
        response = Response(built.body, mimetype="text/javascript")
    response.vary.add("Accept-Encoding")
    # A page from before a deploy asks for the old digest: it gets today's files, not kept.
    response.headers["Cache-Control"] = FOREVER if digest == built.digest else "no-cache"
    return response


def init_assets(app: Flask) -> None:
    app.extensions["tasksurface.assets"] = Bundles(Path(app.static_folder or "") / "js", reload=app.debug)
    app.register_blueprint(bp)
    app.jinja_env.globals["bundle_url"] = bundle_url
