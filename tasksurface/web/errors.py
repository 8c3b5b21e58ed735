"""One error shape for the JSON API: `{"error": {"code", "message"}}` with a fitting status."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from ..domain.ids import InvalidId
from ..services.errors import RequestRefused
from .ops import note_refusal


def error_response(status: int, code: str, message: str, detail: str | None = None) -> Response:
    error = {"code": code, "message": message}
    if detail:
        error["detail"] = detail
    response = jsonify({"error": error})
    response.status_code = status
    return response


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(RequestRefused)
    def _refused(exc: RequestRefused) -> Any:
        note_refusal(exc.code)
        if _wants_json():
            return error_response(exc.status, exc.code, exc.message, exc.detail)
        return app.response_class(exc.message, status=exc.status, mimetype="text/plain")

    @app.errorhandler(InvalidId)
    def _invalid_id(exc: InvalidId) -> Any:
        note_refusal("invalid-id")
        if _wants_json():
            return error_response(400, "invalid-id", str(exc))
        return app.response_class(str(exc), status=400, mimetype="text/plain")

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        if _wants_json():
            code = (exc.name or "error").lower().replace(" ", "-")
            return error_response(exc.code or 500, code, exc.description or exc.name)
        return exc
