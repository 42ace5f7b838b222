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

from ..models import Interval, PairedComparison
from ..patterns import CONFIDENCE, TIE_TOLERANCE

#: Rows drawn at once: bounds memory at BLOCK x n values whatever the resample count.
BLOCK = 256


def _percentiles(means: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    tail = (1.0 - CONFIDENCE) / 2.0 * 100.0
    low, high = np.percentile(means, [tail, 100.0 - tail], axis=0)
    return low, high


def _columns(values: ArrayLike) -> NDArray[np.float64]:
    x = np.asarray(values, dtype=np.float64)
    return x.reshape(len(x), -1)


def bootstrap_means(values: ArrayLike, samples: int, seed: int) -> NDArray[np.float64]:
    """Means of ``samples`` resamples (with replacement) of the per-query values.

    ``values`` is one column per measure (n queries x m) or a vector; the same resampled
    queries serve every column, so a column's figures do not depend on the other columns.
    """
    x = _columns(values)
    n = len(x)
    rng = np.random.default_rng(seed)
    means = np.empty((samples, x.shape[1]), dtype=np.float64)
    for start in range(0, samples, BLOCK):
        rows = min(BLOCK, samples - start)
        means[start : start + rows] = x[rng.integers(0, n, (rows, n))].mean(axis=1)
    return means


def _intervals(x: NDArray[np.float64], means: NDArray[np.float64]) -> list[Interval]:
    low, high = _percentiles(means)
    return [
        Interval(mean=float(m), low=float(lo), high=float(hi))
        for m, lo, hi in zip(x.mean(axis=0), low, high, strict=True)
    ]


def bootstrap_intervals(values: ArrayLike, samples: int, seed: int) -> list[Interval]:
    """Per column: mean of the per-query values and its 95 % percentile bootstrap interval."""
    x = _columns(values)
    if len(x) == 0:
        return [Interval(mean=0.0, low=0.0, high=0.0)] * x.shape[1]
    return _intervals(x, bootstrap_means(x, samples, seed))


def cluster_bootstrap_means(
    values: ArrayLike, clusters: Sequence[str], samples: int, seed: int
) -> NDArray[np.float64]:
    """Means over queries when whole clusters (articles) are resampled with replacement.

    The mean of a resample is the sum of the drawn clusters' values over the number of their
    queries, i.e. a query-level mean, so it estimates the same quantity as the plain mean.
    """
    x = _columns(values)
    labels, inverse = np.unique(np.asarray(clusters, dtype=object), return_inverse=True)
    count = len(labels)
    sums = np.zeros((count, x.shape[1]), dtype=np.float64)
    np.add.at(sums, inverse, x)
    sizes = np.bincount(inverse, minlength=count).astype(np.float64)
    rng = np.random.default_rng(seed)
    means = np.empty((samples, x.shape[1]), dtype=np.float64)
    for start in range(0, samples, BLOCK):
        rows = min(BLOCK, samples - start)
        drawn = rng.integers(0, count, (rows, count))
        means[start : start + rows] = sums[drawn].sum(axis=1) / sizes[drawn].sum(axis=1)[:, None]
    return means


def cluster_bootstrap_intervals(
    values: ArrayLike, clusters: Sequence[str], samples: int, seed: int
) -> list[Interval]:
    """Per column: mean and 95 % interval when articles, not queries, are resampled."""
    x = _columns(values)
    if len(x) == 0:
        return [Interval(mean=0.0, low=0.0, high=0.0)] * x.shape[1]
    return _intervals(x, cluster_bootstrap_means(x, clusters, samples, seed))


def permutation_p_values(diffs: ArrayLike, rounds: int, seed: int) -> NDArray[np.float64]:
    """Per column, two-sided sign-flip permutation test of mean(diffs) = 0.

    Under the null the two runs are exchangeable per query, so each difference keeps its size
    and gets a random sign. p = (#{|mean of flipped| >= |observed|} + 1) / (rounds + 1). One
    sign matrix serves every column (one matrix product per block).
    """
    d = _columns(diffs)
    n = len(d)
    if n == 0:
        return np.ones(d.shape[1])
    observed = np.abs(d.mean(axis=0))
    rng = np.random.default_rng(seed)
    extreme = np.zeros(d.shape[1], dtype=np.int64)
    for start in range(0, rounds, BLOCK):
        rows = min(BLOCK, rounds - start)
        signs = (rng.integers(0, 2, (rows, n), dtype=np.int8) * 2 - 1).astype(np.float64)
        flipped = np.abs(signs @ d) / n
        # the tolerance keeps the observed arrangement itself counted despite rounding
        extreme += np.count_nonzero(flipped >= observed - TIE_TOLERANCE, axis=0)
    return (extreme + 1) / (rounds + 1)


def paired_comparisons(
    measures: Sequence[str],
    run_a: str,
    run_b: str,
    values_a: ArrayLike,
    values_b: ArrayLike,
    *,
    samples: int,
    rounds: int,
    seed: int,
    clusters: Sequence[str] | None = None,
) -> list[PairedComparison]:
    """B - A per query, one column per measure: mean difference, bootstrap interval(s),
    permutation p-value, wins/ties/losses."""
    a = _columns(values_a)
    b = _columns(values_b)
    if a.shape != b.shape or a.shape[1] != len(measures):
        raise ValueError("paired values must cover the same queries and measures")
    d = b - a
    plain = bootstrap_intervals(d, samples, seed)
    cluster: list[Interval | None] = [None] * len(measures)
    if clusters is not None and len(d):
        cluster = list(cluster_bootstrap_intervals(d, clusters, samples, seed))
    p_values = permutation_p_values(d, rounds, seed)
    results = []
    for column, measure in enumerate(measures):
        diff = d[:, column]
        by_article = cluster[column]
        results.append(
            PairedComparison(
                measure=measure,
                run_a=run_a,
                run_b=run_b,
                queries=len(diff),
                diff=plain[column].mean,
                low=plain[column].low,
                high=plain[column].high,
                cluster_low=by_article.low if by_article else None,
                cluster_high=by_article.high if by_article else None,
                p_value=float(p_values[column]),
                wins=int(np.count_nonzero(diff > TIE_TOLERANCE)),
                ties=int(np.count_nonzero(np.abs(diff) <= TIE_TOLERANCE)),
                losses=int(np.count_nonzero(diff < -TIE_TOLERANCE)),
            )
        )
    return results
