"""The reading of an A/B run of two versions: a change is called faster or slower only when its
pairs' interval leaves zero out."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from paired import paired


def loads(n: int, seed: int) -> list[float]:
    """Cold loads of one version on a noisy machine: 180-320 ms."""
    draw = random.Random(seed)
    return [draw.uniform(180, 320) for _ in range(n)]


def test_the_same_runs_on_both_sides_cannot_be_told_apart() -> None:
    base = loads(30, 1)
    result = paired(base, list(base))
    assert (result.median_difference, result.low, result.high) == (0, 0, 0)
    assert result.verdict == "cannot tell them apart"


def test_a_steady_gain_is_faster_by_exactly_that() -> None:
    base = loads(30, 2)
    result = paired(base, [b - 12 for b in base])
    assert result.median_difference == pytest.approx(-12)
    assert result.mean_difference == pytest.approx(-12)
    assert result.low == pytest.approx(-12)
    assert result.high == pytest.approx(-12)
    assert result.verdict == "faster"


def test_a_loss_inside_noise_that_the_pairs_share_is_still_seen() -> None:
    """The machine's swing is the same for both loads of a pair, so a 15 ms loss shows through
    swings ten times its size, where the two medians alone would say little."""
    base = loads(40, 3)
    own = random.Random(4)
    change = [b + 15 + own.uniform(-5, 5) for b in base]
    result = paired(base, change)
    assert result.verdict == "slower"
    assert 10 < result.low <= result.median_difference <= result.high < 20


def test_versions_whose_loads_are_unrelated_noise_cannot_be_told_apart() -> None:
    result = paired(loads(30, 5), loads(30, 6))
    assert result.low < 0 < result.high
    assert result.verdict == "cannot tell them apart"


def test_the_interval_is_the_same_for_the_same_seed_and_holds_the_median() -> None:
    base, change = loads(25, 7), loads(25, 8)
    first, again = paired(base, change), paired(base, change)
    assert first == again
    assert first.low <= first.median_difference <= first.high
    assert paired(base, change, seed=99).median_difference == first.median_difference


def test_the_medians_of_each_version_are_reported_beside_the_differences() -> None:
    result = paired([200, 210, 300], [190, 230, 240])
    assert (result.pairs, result.base_median, result.change_median) == (3, 210, 230)
    assert result.median_difference == -10  # differences -10, +20, -60


def test_a_handful_of_pairs_gets_no_verdict_however_steady_it_looks() -> None:
    """Two pairs that agree give an interval of almost nothing: the bootstrap cannot know how
    the machine swings from so few, so no change is called faster on them."""
    result = paired([312.7, 344.0], [301.6, 332.9])
    assert result.high < 0
    assert result.verdict.startswith("too few pairs")
    assert paired(loads(10, 9), [x - 12 for x in loads(10, 9)]).verdict == "faster"


@pytest.mark.parametrize(("base", "change"), [([], []), ([200.0], [200.0, 210.0])])
def test_runs_that_do_not_pair_up_are_refused(base: list[float], change: list[float]) -> None:
    with pytest.raises(ValueError, match="paired runs"):
        paired(base, change)
