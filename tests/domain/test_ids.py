"""The one wire id syntax and the branded id constructors."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tasksurface.domain import ids
from tasksurface.domain.ids import WIRE_ID_PATTERN, InvalidId, is_wire_id

CONSTRUCTORS: list[tuple[Callable[[object], str], str]] = [
    (ids.session_id, "sessionId"),
    (ids.message_id, "messageId"),
    (ids.call_id, "callId"),
    (ids.inbox_item_id, "itemId"),
    (ids.rpc_id, "rpcId"),
    (ids.surface_id, "surfaceId"),
    (ids.submission_id, "submissionId"),
    (ids.dismissal_id, "dismissalId"),
    (ids.answer_id, "answerId"),
]

GOOD = [
    "abcdefgh",
    "x" * 64,
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "0123456789",
    "ts_AbC-123_xyz",
    "--------",
    "________",
]

BAD: list[Any] = [
    "",
    "abcdefg",  # 7
    "x" * 65,
    "abcd efgh",
    "abcd.efgh",
    "abcd/efgh",
    "abcd+efgh",
    "abcdefgh\n",
    "\nabcdefgh",
    " abcdefgh",
    "abcdéfgh",
    "ａｂｃｄｅｆｇｈ",  # fullwidth letters
    "abcdefg\u0000",
    None,
    12345678,
    b"abcdefgh",
    ["abcdefgh"],
]


@pytest.mark.parametrize("value", GOOD)
def test_wire_ids_are_8_to_64_safe_characters(value: str) -> None:
    assert is_wire_id(value)


@pytest.mark.parametrize("value", BAD)
def test_anything_else_is_not_a_wire_id(value: Any) -> None:
    assert not is_wire_id(value)


def test_length_bounds_are_exact() -> None:
    assert [is_wire_id("a" * n) for n in (7, 8, 64, 65)] == [False, True, True, False]


def test_the_published_pattern_says_the_same_thing() -> None:
    pattern = re.compile(WIRE_ID_PATTERN)
    for value in GOOD:
        assert pattern.fullmatch(value)
    for value in BAD:
        if isinstance(value, str):
            assert not pattern.fullmatch(value), value


@pytest.mark.parametrize(("make", "what"), CONSTRUCTORS, ids=[w for _, w in CONSTRUCTORS])
def test_constructors_return_good_ids_unchanged(make: Callable[[object], str], what: str) -> None:
    for value in GOOD:
        made = make(value)
        assert made == value and type(made) is str


@pytest.mark.parametrize(("make", "what"), CONSTRUCTORS, ids=[w for _, w in CONSTRUCTORS])
def test_constructors_raise_invalid_id_for_bad_input(make: Callable[[object], str], what: str) -> None:
    for value in BAD:
        with pytest.raises(InvalidId) as info:
            make(value)
        assert info.value.what == what
        assert info.value.value == value or info.value.value is value
        assert what in str(info.value)


def test_invalid_id_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        ids.surface_id("nope")


def test_the_refusal_names_the_id_and_the_rule() -> None:
    with pytest.raises(InvalidId) as info:
        ids.answer_id("short")
    assert str(info.value) == "answerId must be 8-64 characters of A-Z, a-z, 0-9, '_' or '-'"
    assert WIRE_ID_PATTERN == "^[A-Za-z0-9_-]{8,64}$"
