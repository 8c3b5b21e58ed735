"""What alternated runs of two versions say about a change: the paired differences and how sure
they are.

Cold page loads on a shared machine swing by more than most changes move them, so a difference of
medians read once is as likely the machine as the change. Runs taken in pairs (one of each version,
the order swapped every pair) share the machine's moment; the median of their differences, with an
interval from resampling the pairs, says whether the runs can tell the two apart at all.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

RESAMPLES = 4000
"""Bootstrap resamples: enough that the interval's ends move by well under a millisecond."""
FEWEST_PAIRS = 10
"""Below this, resampling a handful of pairs gives an interval far narrower than the truth."""


@dataclass(frozen=True)
class Paired:
    pairs: int
    base_median: float
    change_median: float
    median_difference: float
    """Median of (change − base) over the pairs: negative is faster."""
    mean_difference: float
    low: float
    high: float
    """The 95 % bootstrap interval of `median_difference`."""

    @property
    def verdict(self) -> str:
        if self.pairs < FEWEST_PAIRS:
            return f"too few pairs to tell (fewer than {FEWEST_PAIRS})"
        if self.low <= 0 <= self.high:
            return "cannot tell them apart"
        return "faster" if self.high < 0 else "slower"


def paired(base: Sequence[float], change: Sequence[float], seed: int = 14) -> Paired:
    """`base[i]` and `change[i]` are one pair. The same seed gives the same interval."""
    if len(base) != len(change) or not base:
        raise ValueError("paired runs need as many of each version, and at least one")
    differences = [c - b for b, c in zip(base, change, strict=True)]
    draw = random.Random(seed)
    medians = sorted(
        statistics.median(draw.choices(differences, k=len(differences))) for _ in range(RESAMPLES)
    )
    return Paired(
        pairs=len(differences),
        base_median=statistics.median(base),
        change_median=statistics.median(change),
        median_difference=statistics.median(differences),
        mean_difference=statistics.fmean(differences),
        low=medians[int(0.025 * RESAMPLES)],
        high=medians[int(0.975 * RESAMPLES) - 1],
    )
