"""Who is asking, whether they may, and the headers that keep model text inert in the browser.

Identity: an anonymous id in the signed, HttpOnly, SameSite session cookie, the team's user
named by a signed embed token (kept in that cookie), or — behind a trusted auth proxy — the user
named by a configured header. Every session route checks
ownership through `owned()`; a session someone else owns is simply not found.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from flask import Flask, Request, Response, current_app, request, session
from flask.sessions import SecureCookieSessionInterface, SessionMixin

from ..config import Settings
from ..domain import ids
from ..domain.embedding import embedding_on
from ..services.container import Services
from ..services.errors import Unauthenticated
from .assets import script_sources
from .errors import refusal_response

COOKIE_NAME = "tasksurface_session"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
RENEWING_METHODS = frozenset({"GET", "HEAD"})
SAME_SITE_FETCH = frozenset({"same-origin", "none"})
MAX_IDENTITY_CHARS = 150
EMBED_PREFIX = "embed:"
"""Owners named by a team's token; the namespace keeps them apart from proxy-named users."""


class _CookieInterface(SecureCookieSessionInterface):
    """Marks the cookie Secure whenever the request came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(request.is_secure) or super().get_cookie_secure(app)

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """A new or changed identity is always sent. A kept one is renewed (its lifetime starts
        again) whenever a page or a read is served, but not on each post in between: signing the
        cookie again was a tenth of what a panel submission cost the server."""
        return session.modified or (session.permanent and request.method in RENEWING_METHODS)


def _settings() -> Settings:
    services: Services = current_app.extensions["tasksurface"]
    return services.settings


def current_identity() -> str:
    header = _settings().identity_header
    if header:
        name = request.headers.get(header, "").strip()
        if not name or len(name) > MAX_IDENTITY_CHARS:
            raise Unauthenticated("unauthenticated", f"the {header} header names no user")
        return "user:" + name
    user = session.get("user")
    if _settings().embed_secret is not None and isinstance(user, str) and 0 < len(user) <= MAX_IDENTITY_CHARS:
        return EMBED_PREFIX + user
    anonymous = session.get("uid")
    if not isinstance(anonymous, str) or not ids.is_wire_id(anonymous):
        anonymous = secrets.token_urlsafe(18)
        session["uid"] = anonymous
        session.permanent = True
    return "anon:" + anonymous


def owned(sid: str) -> ids.SessionId:
    """Validate the id, then require that the caller owns the session (else 404)."""
    session_id = ids.session_id(sid)
    services: Services = current_app.extensions["tasksurface"]
    services.sessions.require_owner(session_id, current_identity())
    return session_id


def _same_origin(req: Request) -> bool:
    """Browsers say where a request comes from; requests that say nothing are not from a browser."""
    site = req.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site in SAME_SITE_FETCH
    origin = req.headers.get("Origin")
    if origin is None:
        return True
    parts, here = urlsplit(origin), urlsplit(req.host_url)
    return (parts.scheme, parts.netloc) == (here.scheme, here.netloc)


def _refuse_cross_site() -> Response | None:
    websocket = request.path.startswith("/ws/")
    if (request.method in UNSAFE_METHODS or websocket) and not _same_origin(request):
        return refusal_response(403, "cross-site-request", "requests from other sites are refused")
    return None


def _headers(response: Response) -> Response:
    host = request.host
    policy = "; ".join(
        (
            "default-src 'self'",
            " ".join(("script-src 'self'", *script_sources(current_app))),
            "style-src 'self'",
            "img-src 'self' data:" + _tile_source(),
            f"connect-src 'self' ws://{host} wss://{host}",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            f"frame-ancestors {_settings().frame_ancestors}",
        )
    )
    response.headers["Content-Security-Policy"] = policy
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    if request.endpoint != "static":
        response.headers.setdefault("Cache-Control", "no-store")  # private pages and data
    return response


def _tile_source() -> str:
    """The operator's map tile host, only when one is configured (never one a model names)."""
    tiles = _settings().map_tiles
    return " " + "https://" + urlsplit(tiles).netloc if tiles else ""


def init_security(app: Flask, settings: Settings) -> None:
    app.session_interface = _CookieInterface()
    # In a cross-site frame a Lax cookie is never sent, so every request would be a stranger.
    # A partitioned cookie is kept per embedding site (CHIPS) and must be Secure.
    framed = embedding_on(settings.frame_ancestors)
    app.config.update(
        SESSION_COOKIE_NAME=COOKIE_NAME,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="None" if framed else "Lax",
        SESSION_COOKIE_SECURE=framed,
        SESSION_COOKIE_PARTITIONED=framed,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 400,
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
    )
    app.before_request(_refuse_cross_site)
    app.after_request(_headers)
