"""Precision intervals, checked against a hand computation (the seed's 38 right out of 40)."""

from __future__ import annotations

import math

import pytest

from qrelsmith.audit.stats import effective_size, weighted_proportion, wilson_interval


def hand_wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval written out from the textbook formula."""
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


def test_seed_38_of_40_matches_hand_computation() -> None:
    low, high = hand_wilson(38, 40)
    assert (round(low, 3), round(high, 3)) == (0.835, 0.986)
    estimate = weighted_proportion([(1.0, True)] * 38 + [(1.0, False)] * 2)
    assert estimate.value == pytest.approx(0.95)
    assert estimate.low == pytest.approx(low, abs=1e-4)
    assert estimate.high == pytest.approx(high, abs=1e-4)
    assert str(estimate) == "0.950  [0.835, 0.986]"


def test_weights_scale_out_and_shrink_the_effective_size() -> None:
    # Equal weights of any size give the unweighted interval.
    assert weighted_proportion([(2.5, True)] * 38 + [(2.5, False)] * 2).low == pytest.approx(
        weighted_proportion([(1.0, True)] * 38 + [(1.0, False)] * 2).low
    )
    # 10 rows weighing 1 (all right) and 10 weighing 3 (half right): (10 + 15) / 40.
    rows = [(1.0, True)] * 10 + [(3.0, True)] * 5 + [(3.0, False)] * 5
    estimate = weighted_proportion(rows)
    assert estimate.value == pytest.approx(25 / 40)
    assert estimate.effective_n == pytest.approx(40**2 / (10 + 90))
    assert (estimate.low, estimate.high) == pytest.approx(wilson_interval(25 / 40, 16.0))


def test_edges() -> None:
    assert effective_size([]) == 0.0
    assert weighted_proportion([]).n == 0
    assert wilson_interval(1.0, 40)[1] == 1.0


def test_interval_z_is_the_quantile_of_the_configured_confidence() -> None:
    # the audit's Wilson z and the evaluation's percentiles share patterns.CONFIDENCE: the z is
    # written out (see audit/stats.py), so it must stay the normal quantile of that confidence
    from scipy.special import ndtri

    from qrelsmith import patterns
    from qrelsmith.audit.stats import CONFIDENCE_Z

    assert float(ndtri((1 + patterns.CONFIDENCE) / 2)) == CONFIDENCE_Z
