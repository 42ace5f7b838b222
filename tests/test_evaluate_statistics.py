"""Bootstrap, cluster bootstrap and the paired comparison: seeded, reproducible, sensible."""

from __future__ import annotations

import numpy as np
import pytest

from statistics_helpers import (
    bootstrap_interval,
    cluster_bootstrap_interval,
    paired_comparison,
    permutation_p_value,
)


def test_bootstrap_is_seeded_and_contains_the_mean() -> None:
    values = np.random.default_rng(1).random(200)
    first = bootstrap_interval(values, 2000, seed=0)
    assert first == bootstrap_interval(values, 2000, seed=0)
    assert first != bootstrap_interval(values, 2000, seed=1)
    assert first.mean == pytest.approx(values.mean())
    assert first.low < first.mean < first.high
    # the width of a mean's interval is about 2 * 1.96 * sd / sqrt(n)
    expected = 2 * 1.96 * values.std(ddof=1) / np.sqrt(len(values))
    assert first.high - first.low == pytest.approx(expected, rel=0.15)


def test_constant_values_give_a_point_interval() -> None:
    interval = bootstrap_interval([1.0] * 30, 500, seed=0)
    assert (interval.mean, interval.low, interval.high) == (1.0, 1.0, 1.0)


def test_cluster_bootstrap_is_wider_when_queries_of_an_article_agree() -> None:
    rng = np.random.default_rng(2)
    article_level = rng.random(40)  # each article is easy or hard as a whole
    values = np.repeat(article_level, 8) + rng.normal(0, 0.02, 320)
    clusters = [f"a{i}" for i in range(40) for _ in range(8)]
    plain = bootstrap_interval(values, 2000, seed=0)
    cluster = cluster_bootstrap_interval(values, clusters, 2000, seed=0)
    assert cluster.mean == plain.mean
    assert (cluster.high - cluster.low) > 2 * (plain.high - plain.low)


def test_cluster_bootstrap_of_singletons_matches_the_plain_one() -> None:
    values = np.random.default_rng(3).random(300)
    plain = bootstrap_interval(values, 2000, seed=0)
    cluster = cluster_bootstrap_interval(values, [str(i) for i in range(300)], 2000, seed=0)
    assert cluster.low == pytest.approx(plain.low, abs=0.01)
    assert cluster.high == pytest.approx(plain.high, abs=0.01)


def test_permutation_test() -> None:
    rng = np.random.default_rng(4)
    assert permutation_p_value(np.zeros(50), 1000, seed=0) == 1.0
    shifted = rng.normal(0.3, 0.2, 100)
    assert permutation_p_value(shifted, 1000, seed=0) == pytest.approx(1 / 1001)
    noise = rng.normal(0.0, 0.2, 100)
    assert permutation_p_value(noise, 2000, seed=0) > 0.05
    assert permutation_p_value(noise, 2000, seed=0) == permutation_p_value(noise, 2000, seed=0)


def test_small_sample_permutation_p_is_exact_enough() -> None:
    # 5 positive differences of equal size: only 2 of the 32 sign patterns are as extreme
    p = permutation_p_value([1.0] * 5, 20000, seed=0)
    assert p == pytest.approx(2 / 32, abs=0.01)


def test_paired_comparison_counts_and_direction() -> None:
    a = [0.0, 0.5, 1.0, 1.0, 0.2]
    b = [1.0, 0.5, 0.0, 1.0, 0.7]
    result = paired_comparison(
        "RR@10",
        "old",
        "new",
        a,
        b,
        samples=500,
        rounds=500,
        seed=0,
        clusters=["x", "x", "y", "z", "z"],
    )
    assert (result.wins, result.ties, result.losses) == (2, 2, 1)
    assert result.diff == pytest.approx(0.1)
    assert result.low <= result.diff <= result.high
    assert result.cluster_low is not None and result.cluster_high is not None
    assert result.run_a == "old" and result.run_b == "new" and result.queries == 5
    with pytest.raises(ValueError):
        paired_comparison("m", "a", "b", [1.0], [1.0, 2.0], samples=100, rounds=100, seed=0)
