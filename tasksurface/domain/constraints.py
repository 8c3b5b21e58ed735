"""One value checked against a V2 field's declared type and bounds: initial and submitted alike.

A value that is not answered (`""` for text, `None` for a number or a date, no option for a
multi-choice) is refused only when the field is required; the other constraints apply to
answered values, as a person filling a form expects.
"""

from __future__ import annotations

import decimal
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from . import patterns
from .model_v2 import DateField, MultiChoiceFieldV2, NumberField, TextFieldV2
from .refusals import Problem, SubmissionCode

_EXACT = decimal.Context(prec=1000, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
"""Enough digits that any JSON number's step check is exact, never rounded."""
_EMAIL = r"[^@\s]+@[^@\s.]+(\.[^@\s.]+)+"


def number_problem(field: NumberField, value: Any) -> Problem | None:
    where = field.id
    if value is None:
        return Problem(SubmissionCode.REQUIRED, "this field is required", where) if field.required else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return Problem(SubmissionCode.WRONG_TYPE, "expected a number", where)
    if field.integer and not isinstance(value, int):
        return Problem(SubmissionCode.NOT_AN_INTEGER, "expected a whole number", where)
    if field.minimum is not None and value < field.minimum:
        return Problem(
            SubmissionCode.BELOW_MINIMUM,
            f"the smallest value is {field.minimum}",
            where,
            {"minimum": field.minimum},
        )
    if field.maximum is not None and value > field.maximum:
        return Problem(
            SubmissionCode.ABOVE_MAXIMUM,
            f"the largest value is {field.maximum}",
            where,
            {"maximum": field.maximum},
        )
    if field.step is not None and not on_step(value, field.step, field.minimum):
        base = field.minimum if field.minimum is not None else 0
        return Problem(
            SubmissionCode.OFF_STEP,
            f"use a multiple of {field.step} from {base}",
            where,
            {"step": field.step, "base": base},
        )
    return None


def on_step(value: int | float, step: int | float, minimum: int | float | None) -> bool:
    """Whether `value` is `minimum` (or 0) plus a whole number of steps, in exact decimals."""

    def exact(number: int | float) -> decimal.Decimal:
        return decimal.Decimal(repr(number))  # a float's shortest repr, an int's digits: both exact

    base = exact(minimum if minimum is not None else 0)
    try:
        remainder = _EXACT.remainder(_EXACT.subtract(exact(value), base), exact(step))
    except decimal.InvalidOperation:
        return False
    return remainder == 0


def is_iso_date(text: object) -> bool:
    """`YYYY-MM-DD` naming a real calendar day; no time, so no time zone applies."""
    if not isinstance(text, str) or len(text) != 10 or text[4] != "-" or text[7] != "-":
        return False
    digits = text[:4] + text[5:7] + text[8:]
    if not (digits.isascii() and digits.isdigit()):
        return False
    try:
        date(int(text[:4]), int(text[5:7]), int(text[8:]))
    except ValueError:
        return False
    return True


def date_problem(field: DateField, value: Any) -> Problem | None:
    where = field.id
    if value is None or value == "":
        return Problem(SubmissionCode.REQUIRED, "this field is required", where) if field.required else None
    if not is_iso_date(value):
        return Problem(SubmissionCode.NOT_A_DATE, "expected a date as YYYY-MM-DD", where)
    # Valid ISO dates of four-digit years sort as text in calendar order.
    if field.minimum is not None and value < field.minimum:
        return Problem(
            SubmissionCode.BELOW_MINIMUM,
            f"the earliest date is {field.minimum}",
            where,
            {"minimum": field.minimum},
        )
    if field.maximum is not None and value > field.maximum:
        return Problem(
            SubmissionCode.ABOVE_MAXIMUM,
            f"the latest date is {field.maximum}",
            where,
            {"maximum": field.maximum},
        )
    return None


def text_problem(field: TextFieldV2, value: str) -> Problem | None:
    """Constraints of an answered text; `required` and the type are checked by the caller."""
    where = field.id
    if value == "":
        return None
    if field.minLength is not None and len(value) < field.minLength:
        return Problem(
            SubmissionCode.TOO_SHORT,
            f"write at least {field.minLength} characters",
            where,
            {"minimum": field.minLength},
        )
    if field.maxLength is not None and len(value) > field.maxLength:
        return Problem(
            SubmissionCode.TOO_LONG,
            f"write at most {field.maxLength} characters",
            where,
            {"maximum": field.maxLength},
        )
    if field.format == "email" and not patterns.matches_whole(_EMAIL, value):
        return Problem(SubmissionCode.INVALID_FORMAT, "expected an email address", where, {"format": "email"})
    if field.format == "url" and not is_web_url(value):
        return Problem(SubmissionCode.INVALID_FORMAT, "expected a web address", where, {"format": "url"})
    if field.pattern is not None and not patterns.matches_whole(field.pattern, value):
        return Problem(SubmissionCode.PATTERN_MISMATCH, "this does not have the expected form", where)
    return None


def is_web_url(text: str) -> bool:
    """An absolute http(s) address with a host and no white space."""
    if any(ch.isspace() for ch in text):
        return False
    try:
        parts = urlsplit(text)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def count_problem(field: MultiChoiceFieldV2, count: int) -> Problem | None:
    where = field.id
    if count == 0:
        return (
            Problem(SubmissionCode.REQUIRED, "choose at least one option", where) if field.required else None
        )
    if field.minItems is not None and count < field.minItems:
        return Problem(
            SubmissionCode.TOO_FEW,
            f"choose at least {field.minItems}",
            where,
            {"minimum": field.minItems},
        )
    if field.maxItems is not None and count > field.maxItems:
        return Problem(
            SubmissionCode.TOO_MANY,
            f"choose at most {field.maxItems}",
            where,
            {"maximum": field.maxItems},
        )
    return None
