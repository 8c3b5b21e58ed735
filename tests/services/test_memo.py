"""The bounded memo behind the shared drawings and re-validated panels."""

from __future__ import annotations

from tasksurface.services.memo import BoundedMemo


def test_a_key_is_computed_once_and_the_least_recently_used_goes_first() -> None:
    computed: list[str] = []

    def compute(key: str) -> str:
        computed.append(key)
        return key.upper()

    memo = BoundedMemo[str](2)
    assert memo.get_or_compute("a", lambda: compute("a")) == "A"
    assert memo.get_or_compute("b", lambda: compute("b")) == "B"
    assert memo.get_or_compute("a", lambda: compute("a")) == "A"  # kept, and now the newest
    assert memo.get_or_compute("c", lambda: compute("c")) == "C"  # evicts b, not a
    assert len(memo) == 2
    assert memo.get_or_compute("a", lambda: compute("a")) == "A"
    assert memo.get_or_compute("b", lambda: compute("b")) == "B"
    assert computed == ["a", "b", "c", "b"]
