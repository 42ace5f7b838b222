"""Resampling over queries: bootstrap intervals, a cluster bootstrap over articles, and the
paired comparison of two runs (bootstrap interval of the mean difference, sign-flip
permutation test, win/tie/loss).

Every function takes a seed and makes its own ``numpy.random.Generator``, so a figure does not
depend on which other figures were computed before it. Resamples are drawn in blocks to keep
memory flat (2,000 resamples of 2,000 queries would otherwise be a 32 MB index matrix).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from pydantic import BaseModel, ConfigDict

#: Two per-query values closer than this are a tie (float noise from the measure's arithmetic).
TIE_TOLERANCE = 1e-9
#: Rows drawn at once: bounds memory at BLOCK x n values whatever the resample count.
BLOCK = 256
#: The interval's coverage: 95 %, as in the seed and Smucker et al.
CONFIDENCE = 0.95


class Interval(BaseModel):
    """A mean and its percentile interval."""

    model_config = ConfigDict(frozen=True)

    mean: float
    low: float
    high: float


class PairedComparison(BaseModel):
    """Run B minus run A on the same queries."""

    model_config = ConfigDict(frozen=True)

    measure: str
    run_a: str
    run_b: str
    queries: int
    diff: float
    low: float
    high: float
    cluster_low: float | None = None
    cluster_high: float | None = None
    p_value: float
    wins: int
    ties: int
    losses: int


def _percentiles(means: NDArray[np.float64]) -> tuple[float, float]:
    tail = (1.0 - CONFIDENCE) / 2.0 * 100.0
    low, high = np.percentile(means, [tail, 100.0 - tail])
    return float(low), float(high)


def bootstrap_means(values: ArrayLike, samples: int, seed: int) -> NDArray[np.float64]:
    """Means of ``samples`` resamples (with replacement) of the per-query values."""
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    rng = np.random.default_rng(seed)
    means = np.empty(samples, dtype=np.float64)
    for start in range(0, samples, BLOCK):
        rows = min(BLOCK, samples - start)
        means[start : start + rows] = x[rng.integers(0, n, (rows, n))].mean(axis=1)
    return means


def bootstrap_interval(values: ArrayLike, samples: int, seed: int) -> Interval:
    """Mean of the per-query values and its 95 % percentile bootstrap interval."""
    x = np.asarray(values, dtype=np.float64)
    if len(x) == 0:
        return Interval(mean=0.0, low=0.0, high=0.0)
    low, high = _percentiles(bootstrap_means(x, samples, seed))
    return Interval(mean=float(x.mean()), low=low, high=high)


def cluster_bootstrap_means(
    values: ArrayLike, clusters: Sequence[str], samples: int, seed: int
) -> NDArray[np.float64]:
    """Means over queries when whole clusters (articles) are resampled with replacement.

    The mean of a resample is the sum of the drawn clusters' values over the number of their
    queries, i.e. a query-level mean, so it estimates the same quantity as the plain mean.
    """
    x = np.asarray(values, dtype=np.float64)
    labels, inverse = np.unique(np.asarray(clusters, dtype=object), return_inverse=True)
    sums = np.bincount(inverse, weights=x, minlength=len(labels))
    sizes = np.bincount(inverse, minlength=len(labels)).astype(np.float64)
    count = len(labels)
    rng = np.random.default_rng(seed)
    means = np.empty(samples, dtype=np.float64)
    for start in range(0, samples, BLOCK):
        rows = min(BLOCK, samples - start)
        drawn = rng.integers(0, count, (rows, count))
        means[start : start + rows] = sums[drawn].sum(axis=1) / sizes[drawn].sum(axis=1)
    return means


def cluster_bootstrap_interval(
    values: ArrayLike, clusters: Sequence[str], samples: int, seed: int
) -> Interval:
    """Mean and 95 % interval when articles, not queries, are the resampled unit."""
    x = np.asarray(values, dtype=np.float64)
    if len(x) == 0:
        return Interval(mean=0.0, low=0.0, high=0.0)
    low, high = _percentiles(cluster_bootstrap_means(x, clusters, samples, seed))
    return Interval(mean=float(x.mean()), low=low, high=high)


def permutation_p_value(diffs: ArrayLike, rounds: int, seed: int) -> float:
    """Two-sided sign-flip permutation test of mean(diffs) = 0.

    Under the null the two runs are exchangeable per query, so each difference keeps its size
    and gets a random sign. p = (#{|mean of flipped| >= |observed|} + 1) / (rounds + 1).
    """
    d = np.asarray(diffs, dtype=np.float64)
    n = len(d)
    if n == 0:
        return 1.0
    observed = abs(d.mean())
    rng = np.random.default_rng(seed)
    extreme = 0
    for start in range(0, rounds, BLOCK):
        rows = min(BLOCK, rounds - start)
        signs = rng.integers(0, 2, (rows, n), dtype=np.int8) * 2 - 1
        flipped = np.abs(signs @ d) / n
        # the tolerance keeps the observed arrangement itself counted despite rounding
        extreme += int(np.count_nonzero(flipped >= observed - TIE_TOLERANCE))
    return (extreme + 1) / (rounds + 1)


def paired_comparison(
    measure: str,
    run_a: str,
    run_b: str,
    values_a: ArrayLike,
    values_b: ArrayLike,
    *,
    samples: int,
    rounds: int,
    seed: int,
    clusters: Sequence[str] | None = None,
) -> PairedComparison:
    """B - A per query: mean difference, bootstrap interval(s), permutation p, wins/ties/losses."""
    a = np.asarray(values_a, dtype=np.float64)
    b = np.asarray(values_b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError("paired values must cover the same queries")
    d = b - a
    interval = bootstrap_interval(d, samples, seed)
    cluster_low = cluster_high = None
    if clusters is not None and len(d):
        cluster = cluster_bootstrap_interval(d, clusters, samples, seed)
        cluster_low, cluster_high = cluster.low, cluster.high
    return PairedComparison(
        measure=measure,
        run_a=run_a,
        run_b=run_b,
        queries=len(d),
        diff=interval.mean,
        low=interval.low,
        high=interval.high,
        cluster_low=cluster_low,
        cluster_high=cluster_high,
        p_value=permutation_p_value(d, rounds, seed),
        wins=int(np.count_nonzero(d > TIE_TOLERANCE)),
        ties=int(np.count_nonzero(np.abs(d) <= TIE_TOLERANCE)),
        losses=int(np.count_nonzero(d < -TIE_TOLERANCE)),
    )
