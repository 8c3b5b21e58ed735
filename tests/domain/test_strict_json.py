"""JSON decoding that refuses duplicate keys (at any depth) and non-finite numbers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tasksurface.domain import strict_json
from tasksurface.domain.strict_json import DuplicateKey

from .strategies import json_values


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"a": 1, "a": 1}', "a"),
        ('{"a": 1, "b": 2, "a": 3}', "a"),
        ('{"outer": {"x": 1, "x": 2}}', "x"),
        ('[{"ok": 1}, {"y": 1, "y": null}]', "y"),
        ('{"a": [[{"deep": {"z": 1, "z": 2}}]]}', "z"),
        ('{"": 1, "": 2}', ""),
        ('{"é": 1, "\\u00e9": 2}', "é"),
    ],
)
def test_duplicate_keys_are_refused_at_any_depth(text: str, key: str) -> None:
    with pytest.raises(DuplicateKey) as info:
        strict_json.loads(text)
    assert info.value.key == key


def test_duplicate_keys_are_refused_many_levels_down() -> None:
    text = '{"k": ' * 50 + '{"dup": 1, "dup": 2}' + "}" * 50
    with pytest.raises(DuplicateKey):
        strict_json.loads(text)


def test_duplicate_key_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        strict_json.loads('{"a": 1, "a": 2}')


def test_equal_keys_in_different_objects_are_fine() -> None:
    assert strict_json.loads('{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}') == {
        "a": {"a": 1},
        "b": [{"a": 2}, {"a": 3}],
    }


def test_keys_differing_only_in_case_are_different_keys() -> None:
    assert strict_json.loads('{"a": 1, "A": 2}') == {"a": 1, "A": 2}


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "[1, NaN]", '{"x": Infinity}'])
def test_non_standard_constants_are_refused(text: str) -> None:
    with pytest.raises(ValueError) as info:
        strict_json.loads(text)
    assert not isinstance(info.value, DuplicateKey)


@pytest.mark.parametrize("text", ["1e400", "-1e400", "[1.5e309]", '{"x": 9e999}'])
def test_numbers_that_overflow_to_infinity_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        strict_json.loads(text)


def test_large_finite_numbers_are_fine() -> None:
    assert strict_json.loads("[1e308, -1e308, 123456789012345678901234567890]") == [
        1e308,
        -1e308,
        123456789012345678901234567890,
    ]


def test_deep_nesting_is_a_value_error_not_a_crash() -> None:
    with pytest.raises(ValueError):
        strict_json.loads("[" * 100_000 + "]" * 100_000)


def test_bytes_are_decoded() -> None:
    assert strict_json.loads('{"t": "é"}'.encode()) == {"t": "é"}


@pytest.mark.parametrize("text", ["", "{", "{'a': 1}", '{"a": 1,}', "[1] [2]", b"\xff"])
def test_invalid_json_is_a_value_error(text: str | bytes) -> None:
    with pytest.raises(ValueError):
        strict_json.loads(text)


def test_dumps_compact_is_sorted_tight_and_keeps_unicode() -> None:
    assert strict_json.dumps_compact({"b": [1, 2], "a": "é"}) == '{"a":"é","b":[1,2]}'


def test_dumps_compact_is_the_same_for_equal_values() -> None:
    assert strict_json.dumps_compact({"a": 1, "b": 2}) == strict_json.dumps_compact({"b": 2, "a": 1})


def test_utf8_size_counts_bytes() -> None:
    assert strict_json.utf8_size("é") == len('"é"'.encode())  # 4
    assert strict_json.utf8_size({"a": 1}) == len('{"a":1}')


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_loads_round_trips_standard_json(value: Any) -> None:
    assert strict_json.loads(json.dumps(value)) == value
    assert strict_json.loads(strict_json.dumps_compact(value)) == value


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text(max_size=5), json_values, min_size=1, max_size=4), st.data())
def test_repeating_any_key_is_refused(obj: dict[str, Any], data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(sorted(obj)))
    body = json.dumps(obj)[1:-1]
    text = "{" + body + ", " + json.dumps(key) + ": null}"
    with pytest.raises(DuplicateKey) as info:
        strict_json.loads(text)
    assert info.value.key == key


def test_the_decoder_s_refusals_say_what_is_wrong() -> None:
    with pytest.raises(strict_json.DuplicateKey) as duplicate:
        strict_json.loads('{"a": 1, "a": 2}')
    assert (str(duplicate.value), duplicate.value.key) == ("duplicate key 'a'", "a")
    with pytest.raises(ValueError) as constant:
        strict_json.loads("[NaN]")
    assert str(constant.value) == "NaN is not JSON"
    with pytest.raises(ValueError) as infinite:
        strict_json.loads("[1e999]")
    assert str(infinite.value) == "1e999 is not a finite number"
    with pytest.raises(ValueError) as deep:
        strict_json.loads("[" * 100_000 + "]" * 100_000)
    assert str(deep.value) == "the document is nested too deeply"
