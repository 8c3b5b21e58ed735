"""Refusals in the shape each caller reads: `{"error": {"code", "message"}}` for the JSON API and
the websocket, a small page in the reader's language (with a way back) for people."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from flask_babel import gettext
from werkzeug.exceptions import HTTPException

from ..domain.ids import InvalidId
from ..services.errors import RequestRefused
from .i18n import N_
from .ops import note_refusal
from .problems import refusal_text

PAGE_STATUSES = frozenset({400, 401, 403, 404})
"""Statuses a person may meet on a page; others keep the server's own answer."""
TITLES = {
    400: N_("This request could not be read"),
    401: N_("We don't know who you are"),
    403: N_("This request was refused"),
    404: N_("Nothing here"),
}
EXPLANATIONS = {
    400: N_("Something in the address or the form is not what this page expects."),
    401: N_("This page needs to know who is asking. Open it again from the site that sent you here."),
    403: N_("Requests from other sites are not taken, so that nobody can act for you from elsewhere."),
    404: N_("There is no such page or session, or it belongs to someone else."),
}
CODE_EXPLANATIONS = {
    "token.missing": N_("The address carries no sign-in token."),
    "token.malformed": N_("The sign-in token cannot be read."),
    "token.bad-signature": N_("The sign-in token is not signed with this site's key."),
    "token.algorithm": N_("The sign-in token is not signed the way this site requires (HS256)."),
    "token.expired": N_("The sign-in token has expired. Go back and open the chat again."),
    "token.not-yet-valid": N_(
        "The sign-in token is not valid yet. Check the clock of the server that made it."
    ),
    "token.missing-claim": N_("The sign-in token does not say who you are and until when."),
    "token.invalid-claim": N_("The sign-in token names a user this site cannot take."),
    "embed.off": N_("Signing in from another site is not set up here."),
    "embed.origin-not-listed": N_("The site that opened this chat is not one this chat may be shown in."),
}


def error_response(status: int, code: str, message: str, detail: str | None = None) -> Response:
    error = {"code": code, "message": message}
    if detail:
        error["detail"] = detail
    response = jsonify({"error": error})
    response.status_code = status
    return response


def _wants_json() -> bool:
    return request.path.startswith(("/api/", "/ws/")) or request.accept_mimetypes.best == "application/json"


def page_response(status: int, code: str, detail: str | None = None) -> Response:
    """The page a person sees instead of bare text: what happened, the code, and a way back.

    Only a 400 says what in the request was wrong: in the page's words where it has them, else
    in the refusal's own (English) words.
    """
    explanation = CODE_EXPLANATIONS.get(code) or EXPLANATIONS[status]
    body = render_template(
        "error.html",
        status=status,
        code=code,
        detail=refusal_text(code, detail) if status == 400 and detail else None,
        title=gettext(TITLES[status]),
        explanation=gettext(explanation),
    )
    return Response(body, status=status, mimetype="text/html")


def refusal_response(status: int, code: str, message: str, detail: str | None = None) -> Response:
    if _wants_json() or status not in PAGE_STATUSES:
        return error_response(status, code, message, detail)
    return page_response(status, code, message)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(RequestRefused)
    def _refused(exc: RequestRefused) -> Any:
        note_refusal(exc.code)
        if _wants_json() or exc.status not in PAGE_STATUSES:
            return error_response(exc.status, exc.code, exc.message, exc.detail)
        return page_response(exc.status, exc.code, exc.message)

    @app.errorhandler(InvalidId)
    def _invalid_id(exc: InvalidId) -> Any:
        note_refusal("invalid-id")
        return refusal_response(400, "invalid-id", str(exc))

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        code = (exc.name or "error").lower().replace(" ", "-")
        if _wants_json():
            return error_response(exc.code or 500, code, exc.description or exc.name)
        if exc.code in PAGE_STATUSES:
            return page_response(exc.code, code)
        return exc
