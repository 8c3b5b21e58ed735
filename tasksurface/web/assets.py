"""Script bundles: one behaviour per source file under `static/js`, one request per page.

A bundle's URL names a hash of its content, so a browser may keep it for good and a changed file
is simply a new URL. A bundle is built once per process: its comments and spare whitespace
removed (rjsmin, which only drops what cannot change meaning) and compressed once at brotli's
best, so a page's scripts cost neither bytes nor a compression per request. In debug mode the
files are read again on every request. The one script that must run before any file can arrive
(connect.js) is put in the page itself, and the content security policy allows it by its hash.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from pathlib import Path

import brotli
import rjsmin
from flask import Blueprint, Flask, Response, current_app, request, url_for
from markupsafe import Markup

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
    # In every page's head, loaded without blocking it: the theme switch.
    "head": ("theme.js",),
    # Loaded by workspace_loader.js only on pages that show a workspace.
    "workspaces": ("comparison.js", "dashboard.js", "itinerary.js"),
    # Loaded only in a page framed by a listed site: talks to that site with postMessage.
    "embed": ("embed_frame.js",),
}
FOREVER = "public, max-age=31536000, immutable"
INLINE = ("connect.js",)
"""Scripts that run inside the page as it is parsed, before any file could arrive: the chat page's
socket (see connect.js). The content security policy allows each by the hash of its text."""

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


@dataclass(frozen=True)
class InlineScript:
    text: str
    source: str
    """The policy's source expression that allows exactly this text: `'sha256-…'`."""


def inline_scripts(folder: Path) -> dict[str, InlineScript]:
    scripts = {}
    for name in INLINE:
        text = rjsmin.jsmin((folder / name).read_text(encoding="utf-8"))
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        scripts[name] = InlineScript(text, f"'sha256-{digest}'")
    return scripts


def inline_script(name: str) -> Markup:
    """The script's text to put between `<script>` tags (it holds no `</`, see the test)."""
    found: dict[str, InlineScript] = current_app.extensions["tasksurface.inline_scripts"]
    return Markup(found[name].text)


def script_sources(app: Flask) -> list[str]:
    """What the policy's `script-src` allows besides the host's own files."""
    found: dict[str, InlineScript] = app.extensions["tasksurface.inline_scripts"]
    return [script.source for script in found.values()]


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
    folder = Path(app.static_folder or "") / "js"
    app.extensions["tasksurface.assets"] = Bundles(folder, reload=app.debug)
    app.extensions["tasksurface.inline_scripts"] = inline_scripts(folder)
    app.register_blueprint(bp)
    app.jinja_env.globals["bundle_url"] = bundle_url
    app.jinja_env.globals["inline_script"] = inline_script
