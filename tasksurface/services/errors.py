"""Typed refusals of a request, which the web layer turns into `{"error": {code, message}}`."""

from __future__ import annotations


class RequestRefused(Exception):
    status = 400

    def __init__(self, code: str, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail
        """A finer code behind `code` (e.g. `answer.id-conflict` behind `invalid-answer`)."""


class Unauthenticated(RequestRefused):
    """The request names no user this host accepts (no proxy header, a refused token)."""

    status = 401


class Forbidden(RequestRefused):
    status = 403


class NotFound(RequestRefused):
    status = 404


class Conflict(RequestRefused):
    status = 409


class UnsupportedMediaType(RequestRefused):
    status = 415


def check_text(value: str, what: str) -> None:
    """Text must be encodable Unicode: a lone surrogate is refused before it reaches storage."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RequestRefused("invalid-text", f"{what} is not valid Unicode text") from None
