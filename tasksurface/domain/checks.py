"""The small checks every parser step shares: unique ids, counts and text lengths, each a refusal."""

from __future__ import annotations

from collections.abc import Iterable

from .limits import Limits
from .refusals import Problem, SurfaceCode, SurfaceRefused


def refuse(code: SurfaceCode, message: str, where: str = "") -> SurfaceRefused:
    return SurfaceRefused(Problem(code, message, where))


def check_unique(ids: Iterable[tuple[str, str]]) -> None:
    seen: set[str] = set()
    for value, where in ids:
        if value in seen:
            raise refuse(SurfaceCode.DUPLICATE_ID, f"id {value!r} is used twice", where)
        seen.add(value)


def check_count(name: str, count: int, limit: int, where: str) -> None:
    if count > limit:
        raise refuse(SurfaceCode.LIMIT, f"{count} {name}; the limit {name} is {limit}", where)


def check_short(limits: Limits, text: str | None, where: str) -> None:
    if text is not None and len(text) > limits.short_text_chars:
        raise refuse(
            SurfaceCode.LIMIT,
            f"text is {len(text)} characters; the limit short_text_chars is {limits.short_text_chars}",
            where,
        )


def check_detail(limits: Limits, text: str | None, where: str) -> None:
    if text is not None and len(text) > limits.detail_chars:
        raise refuse(
            SurfaceCode.LIMIT,
            f"text is {len(text)} characters; the limit detail_chars is {limits.detail_chars}",
            where,
        )
