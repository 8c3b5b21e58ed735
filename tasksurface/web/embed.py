"""Embedding in a team's own site: the token exchange at `/embed`, the host-page script at
`/embed.js`, and what a framed page needs to know (the embedding origin, theme, one-shot events).

The frame learns the embedding origin only from `/embed`, and only if it is listed in
`TASKSURFACE_FRAME_ANCESTORS`; it is kept in the (per-site partitioned) identity cookie.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, g, redirect, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..domain import ids
from ..domain.embedding import origin_listed
from ..services.container import Services
from ..services.errors import Forbidden
from .embed_token import TokenRefused, verify_token
from .i18n import LANGUAGES, remember_language
from .security import current_identity

bp = Blueprint("embed", __name__)
THEMES = frozenset({"auto", "light", "dark"})
IDENTITY_KEYS = ("uid", "user", "name", "created")
SCRIPT = Path(__file__).resolve().parents[2] / "static" / "embed.js"


def _services() -> Services:
    found: Services = current_app.extensions["tasksurface"]
    return found


@bp.get("/embed")
def exchange() -> BaseResponse:
    """Exchange the token for the identity, note the embedding site, and drop the token from the URL."""
    settings = _services().settings
    origin = request.args.get("origin", "")
    if origin and not origin_listed(origin, settings.frame_ancestors):
        raise Forbidden("embed.origin-not-listed", "this origin is not in TASKSURFACE_FRAME_ANCESTORS")
    token = request.args.get("token", "")
    secret = settings.embed_secret
    if token and secret is None:
        raise TokenRefused("embed.off", "TASKSURFACE_EMBED_SECRET is not set, so tokens are not taken")
    if secret is not None and not token:
        raise TokenRefused("token.missing", "this host names its users by token: pass ?token=")
    if secret is not None:
        user = verify_token(token, secret.get_secret_value())  # refused before anything is written
        session.pop("uid", None)
        session["user"] = user.sub
        if user.name:
            session["name"] = user.name
        else:
            session.pop("name", None)
        session.permanent = True
    current_identity()  # an anonymous visitor gets an id now, like on any page
    if origin:
        session["embed_origin"] = origin
    theme = request.args.get("theme", "")
    if theme in THEMES:
        session["embed_theme"] = theme
    target = url_for("pages.index")
    wanted = request.args.get("session", "")
    if wanted and ids.is_wire_id(wanted):
        target = url_for("pages.session", sid=wanted)  # the page itself checks ownership
    response = redirect(target, 303)
    lang = request.args.get("lang", "")
    if lang in LANGUAGES:
        remember_language(response, lang)
    return response


@bp.post("/embed/sign-out")
def sign_out() -> Response:
    """Forget who uses this browser (for this embedding site); the framing itself stays."""
    for key in IDENTITY_KEYS:
        session.pop(key, None)
    return Response(status=204)


@bp.get("/embed.js")
def script() -> Response:
    """The one script tag a host page needs; it loads nothing else."""
    response = Response(SCRIPT.read_bytes(), mimetype="text/javascript")
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


def note_created(session_id: str) -> None:
    """Remember once that this frame just started a session, so it can tell the host page."""
    if session.get("embed_origin"):
        session["created"] = session_id


def _framing() -> dict[str, object]:
    """Once per request: a page renders partials first, and the one-shot note must reach the page."""
    if "embed_framing" not in g:
        g.embed_framing = _read_framing()
    found: dict[str, object] = g.embed_framing
    return found


def _read_framing() -> dict[str, object]:
    origin = session.get("embed_origin") if "embed_origin" in session else None
    listed = isinstance(origin, str) and origin_listed(origin, _services().settings.frame_ancestors)
    created = None
    sid = (request.view_args or {}).get("sid")
    if listed and sid and session.get("created") == sid:
        created = session.pop("created")
    theme = session.get("embed_theme") if "embed_theme" in session else None
    named = "user" in session and _services().settings.embed_secret is not None
    name = session.get("name") if named else None  # shown only while tokens name the user
    return {
        "embed_origin": origin if listed else None,
        "embed_created": created,
        "embed_theme": theme if theme in THEMES else None,
        "embed_user_name": name if isinstance(name, str) else None,
    }


def init_embedding(app: Flask) -> None:
    app.register_blueprint(bp)
    app.context_processor(_framing)
