"""Request body and query parsing with typed refusals instead of guesses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import request
from werkzeug.datastructures import MultiDict

from ..domain import strict_json
from ..services.errors import RequestRefused, UnsupportedMediaType


def json_body(*, allow_empty: bool = False) -> dict[str, Any]:
    raw = request.get_data(cache=True)
    if not raw and allow_empty:
        return {}
    if not request.is_json:
        raise UnsupportedMediaType("unsupported-media-type", "send JSON with Content-Type: application/json")
    try:
        body = strict_json.loads(raw)
    except strict_json.DuplicateKey as exc:
        raise RequestRefused("duplicate-key", str(exc)) from exc
    except ValueError as exc:
        raise RequestRefused("invalid-json", f"the body is not JSON: {exc}") from exc
    if not isinstance(body, dict):
        raise RequestRefused("invalid-json", "the body must be a JSON object")
    return body


MAX_INT = 2**31 - 1
"""Seqs and page sizes fit a 32-bit column; anything larger is a mistake, not a request."""


def optional_int(args: Mapping[str, str], name: str, default: int) -> int:
    """A non-negative whole number in ASCII digits, or a typed refusal."""
    value = args.get(name)
    if value is None:
        return default
    number = _whole_number(value)
    if number is None:
        raise RequestRefused("invalid-number", f"{name} must be a whole number from 0 to {MAX_INT}")
    return number


def seq_list(args: MultiDict[str, str], name: str, *, most: int, at_most: int) -> tuple[int, ...]:
    """Repeated `name=<seq>`: each an event seq from 1 to `at_most`, at most `most` of them."""
    values = args.getlist(name)
    if len(values) > most:
        raise RequestRefused("invalid-number", f"{name} names at most {most} rows")
    seqs: set[int] = set()
    for value in values:
        seq = _whole_number(value)
        if seq is None or not 0 < seq <= at_most:
            raise RequestRefused("invalid-number", f"{name} must be a seq from 1 to {at_most}")
        seqs.add(seq)
    return tuple(sorted(seqs))


def _whole_number(value: str) -> int | None:
    """ASCII digits from 0 to MAX_INT. The length is checked first: `int` raises a ValueError on
    text of more than a few thousand digits, and that must be a refusal like any other."""
    if not (value.isascii() and value.isdigit()) or len(value.lstrip("0")) > len(str(MAX_INT)):
        return None
    number = int(value)
    return number if number <= MAX_INT else None


def refuse_unknown(body: Mapping[str, Any], allowed: set[str]) -> None:
    """Closed request shapes: a misspelt property is an error, not silently ignored."""
    extra = set(body) - allowed
    if extra:
        raise RequestRefused("invalid-request", f"unknown properties: {', '.join(sorted(extra))}")


def required_int(body: Mapping[str, Any], name: str) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_INT:
        raise RequestRefused("invalid-number", f"{name} must be a whole number")
    return value
