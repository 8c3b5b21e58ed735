"""Request body and query parsing with typed refusals instead of guesses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import request

from ..domain import strict_json
from ..services.errors import RequestRefused


def json_body(*, allow_empty: bool = False) -> dict[str, Any]:
    raw = request.get_data(cache=True)
    if not raw and allow_empty:
        return {}
    if not request.is_json:
        raise RequestRefused("invalid-json", "send a JSON object with Content-Type: application/json")
    try:
        body = strict_json.loads(raw)
    except strict_json.DuplicateKey as exc:
        raise RequestRefused("duplicate-key", str(exc)) from exc
    except ValueError as exc:
        raise RequestRefused("invalid-json", f"the body is not JSON: {exc}") from exc
    if not isinstance(body, dict):
        raise RequestRefused("invalid-json", "the body must be a JSON object")
    return body


def optional_int(args: Mapping[str, str], name: str, default: int) -> int:
    value = args.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise RequestRefused("invalid-number", f"{name} must be a whole number") from None


def required_int(body: Mapping[str, Any], name: str) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RequestRefused("invalid-number", f"{name} must be a whole number")
    return value
