"""Label precision from an audit: weighted estimate and a 95% Wilson interval. Pure functions.

A stratified sample over-represents risky rows, so every reviewed row carries a weight (the
number of queries it stands for). The estimate is the weighted mean; its interval is Wilson's
score interval at Kish's effective sample size ``(sum w)^2 / sum w^2``, which is the plain Wilson
interval when all weights are equal. No finite-population correction: the precision measured is
that of the labelling rules, which will label the next build too, not only this one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..models import Estimate

#: The standard normal quantile at (1 + patterns.CONFIDENCE) / 2, for the audit's Wilson
#: intervals: the stdlib's NormalDist is a bit off in the last digits (1.9599639845400536),
#: scipy's exact one costs the build a 0.25 s import, so the value is written out; a test checks
#: it against scipy's ``ndtri`` so it cannot drift from CONFIDENCE.
CONFIDENCE_Z = 1.959963984540054


def wilson_interval(proportion: float, n: float, z: float = CONFIDENCE_Z) -> tuple[float, float]:
    """Wilson's score interval for ``proportion`` seen over ``n`` (maybe effective) trials."""
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (proportion + z2 / (2 * n)) / denominator
    half = z * math.sqrt(proportion * (1 - proportion) / n + z2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_half_width(proportion: float, n: float, z: float = CONFIDENCE_Z) -> float:
    """Half the width of the Wilson interval: what a sample of ``n`` will pin the value down to."""
    low, high = wilson_interval(proportion, n, z)
    return (high - low) / 2


def effective_size(weights: Iterable[float]) -> float:
    """Kish's effective sample size of weighted rows: ``(sum w)^2 / sum w^2``."""
    values = list(weights)
    squares = sum(w * w for w in values)
    return sum(values) ** 2 / squares if squares else 0.0


def weighted_proportion(rows: Iterable[tuple[float, bool]]) -> Estimate:
    """Weighted share of ``True`` among (weight, outcome) rows, with its Wilson interval."""
    pairs = list(rows)
    total = sum(weight for weight, _ in pairs)
    if not pairs or total <= 0:
        return Estimate(value=0.0, low=0.0, high=1.0, n=0, effective_n=0.0)
    value = sum(weight for weight, outcome in pairs if outcome) / total
    n_eff = effective_size(weight for weight, _ in pairs)
    low, high = wilson_interval(value, n_eff)
    return Estimate(value=value, low=low, high=high, n=len(pairs), effective_n=n_eff)
