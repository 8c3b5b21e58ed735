"""Script bundles and stylesheets: files a browser keeps for good, one request each per page.

Scripts: one behaviour per source file under `static/js`, joined into one bundle per page part.
Stylesheets: the page's (`static/css/app.css`) and the workspaces' (loaded where one shows).
An asset's URL names a hash of its content, so a browser may keep it for good and a changed file
is simply a new URL: a returning visitor's page asks for none of them, not even to revalidate
(the stylesheet blocks the first paint, so a revalidation would hold every page view). Each is
built once per process: its comments and spare whitespace removed (rjsmin for a bundle, rcssmin
for a stylesheet; each drops only what cannot change meaning), then compressed once at brotli's
best, so a page's files cost neither bytes nor a compression per request. In debug mode the files
are read again on every request. The one script that must run before any file can arrive
(connect.js) is put in the page itself, and the content security policy allows it by its hash.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import brotli
import rcssmin
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
        "dock_fields.js",
        "dock_size.js",
        "dock.js",
        "preview.js",
        "panel_actions.js",
        "question.js",
        "tasks.js",
        "order_drag.js",
        "attention.js",
        "workspace_loader.js",
        "theme.js",  # the chat page's head loads no file of its own: its theme switch is here
    ),
    # In the head of every page but the chat page (whose bundle has it), loaded without blocking
    # it: the theme switch.
    "head": ("theme.js",),
    # Loaded by workspace_loader.js only on pages that show a workspace.
    "workspaces": ("comparison.js", "dashboard.js", "itinerary.js"),
    # Loaded only in a page framed by a listed site: talks to that site with postMessage.
    "embed": ("embed_frame.js",),
}
STYLESHEETS: dict[str, str] = {
    # In every page's head: the one file that blocks the first paint.
    "app": "app.css",
    # Linked by the pages that show a workspace, or by workspace_loader.js when one appears.
    "workspaces": "workspaces.css",
}
FOREVER = "public, max-age=31536000, immutable"
INLINE = ("connect.js",)
"""Scripts that run inside the page as it is parsed, before any file could arrive: the chat page's
socket (see connect.js). The content security policy allows each by the hash of its text."""

bp = Blueprint("assets", __name__)


@dataclass(frozen=True)
class Asset:
    digest: str
    body: bytes

    @cached_property
    def brotli(self) -> bytes:
        """`body` compressed once, for every browser that accepts it (first asked for, not at
        build: in debug mode every page builds its assets again, and a page only names them)."""
        compressed: bytes = brotli.compress(self.body, quality=11)
        return compressed


KINDS = {"js": "text/javascript", "css": "text/css"}


class Assets:
    """The script bundles (`js`) and stylesheets (`css`) under the static folder."""

    def __init__(self, static: Path, reload: bool) -> None:
        self.static = static
        self.reload = reload
        self._built: dict[tuple[str, str], Asset] = {}

    def known(self, kind: str, name: str) -> bool:
        return name in (BUNDLES if kind == "js" else STYLESHEETS)

    def get(self, kind: str, name: str) -> Asset:
        key = (kind, name)
        if self.reload or key not in self._built:
            self._built[key] = self._build(kind, name)
        return self._built[key]

    def _build(self, kind: str, name: str) -> Asset:
        if kind == "js":
            parts = [(self.static / "js" / file).read_text(encoding="utf-8") for file in BUNDLES[name]]
            body = rjsmin.jsmin("\n".join(parts)).encode()
        else:
            source = (self.static / "css" / STYLESHEETS[name]).read_text(encoding="utf-8")
            body = rcssmin.cssmin(source).encode()
        return Asset(hashlib.sha256(body).hexdigest()[:16], body)


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


def _assets() -> Assets:
    found: Assets = current_app.extensions["tasksurface.assets"]
    return found


def bundle_url(name: str) -> str:
    return url_for("assets.asset", name=name, digest=_assets().get("js", name).digest, kind="js")


def stylesheet_url(name: str) -> str:
    return url_for("assets.asset", name=name, digest=_assets().get("css", name).digest, kind="css")


@bp.get("/assets/<name>.<digest>.<any(js, css):kind>")
def asset(name: str, digest: str, kind: str) -> Response:
    assets = _assets()
    if not assets.known(kind, name):
        return Response("no such file", status=404, mimetype="text/plain")
    built = assets.get(kind, name)
    if request.accept_encodings["br"]:  # already compressed: the compression layer leaves it be
        response = Response(built.brotli, mimetype=KINDS[kind], headers={"Content-Encoding": "br"})
    else:
        response = Response(built.body, mimetype=KINDS[kind])
    response.vary.add("Accept-Encoding")
    # A page from before a deploy asks for the old digest: it gets today's files, not kept.
    response.headers["Cache-Control"] = FOREVER if digest == built.digest else "no-cache"
    return response


def init_assets(app: Flask) -> None:
    static = Path(app.static_folder or "")
    app.extensions["tasksurface.assets"] = Assets(static, reload=app.debug)
    app.extensions["tasksurface.inline_scripts"] = inline_scripts(static / "js")
    app.register_blueprint(bp)
    app.jinja_env.globals["bundle_url"] = bundle_url
    app.jinja_env.globals["stylesheet_url"] = stylesheet_url
    app.jinja_env.globals["inline_script"] = inline_script
