"""Resampling over queries: bootstrap intervals, a cluster bootstrap over articles, and the
paired comparison of two runs (bootstrap interval of the mean difference, sign-flip
permutation test, win/tie/loss).

Every function takes a seed and makes its own ``numpy.random.Generator``, so a figure does not
depend on which other figures were computed before it. Resamples are drawn in blocks to keep
memory flat (2,000 resamples of 2,000 queries would otherwise be a 32 MB index matrix).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..models import Interval, PairedComparison
from ..patterns import CONFIDENCE, TIE_TOLERANCE

#: Rows drawn at once: bounds memory at BLOCK x n values whatever the resample count.
BLOCK = 256


def _percentiles(
    means: NDArray[np.float64], axis: int = 0
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    tail = (1.0 - CONFIDENCE) / 2.0 * 100.0
    low, high = np.percentile(means, [tail, 100.0 - tail], axis=axis)
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
        drawn = rng.integers(0, n, (rows, n))
        # how often each query is drawn, then one matrix product for every column: the same
        # means as gathering the drawn rows, without a rows x n x columns copy
        counts = np.bincount((np.arange(rows)[:, None] * n + drawn).ravel(), minlength=rows * n)
        means[start : start + rows] = (counts.reshape(rows, n).astype(np.float64) @ x) / n
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
    return compare_pairs(
        measures,
        [run_a, run_b],
        [a, b],
        [(0, 1)],
        samples=samples,
        rounds=rounds,
        seed=seed,
        clusters=clusters,
    )


def compare_pairs(
    measures: Sequence[str],
    names: Sequence[str],
    matrices: Sequence[NDArray[np.float64]],
    pairs: Sequence[tuple[int, int]],
    *,
    samples: int,
    rounds: int,
    seed: int,
    clusters: Sequence[str] | None = None,
) -> list[PairedComparison]:
    """``paired_comparisons`` of every (A, B) position pair of ``names`` at once: the pairs'
    differences side by side take one resampling (each pair's figures are those it gets
    alone, as every column of a resampling sees the same draws)."""
    if not pairs:
        return []
    d = np.hstack([matrices[b] - matrices[a] for a, b in pairs])
    plain = bootstrap_intervals(d, samples, seed)
    cluster: list[Interval | None] = [None] * d.shape[1]
    if clusters is not None and len(d):
        cluster = list(cluster_bootstrap_intervals(d, clusters, samples, seed))
    p_values = permutation_p_values(d, rounds, seed)
    results = []
    width = len(measures)
    for index, (a, b) in enumerate(pairs):
        for offset, measure in enumerate(measures):
            column = index * width + offset
            diff = d[:, column]
            by_article = cluster[column]
            results.append(
                PairedComparison(
                    measure=measure,
                    run_a=names[a],
                    run_b=names[b],
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


# --------------------------------------------------------------------------- stability by size

#: Elements of one working block of the stability study (draws x units x columns): 32 MB of
#: float64, whatever the set size or the number of subsets.
STABILITY_BLOCK = 1 << 22


@dataclass(frozen=True)
class SizeStability:
    """What K subsets of one size say, per column (``values``) and per compared pair (``diffs``).

    ``mean``, ``low``, ``high``: mean and 2.5-97.5 % range of the subsets' means; ``width``: the
    mean width of the subsets' own 95 % bootstrap intervals; ``swap``: share of subsets whose
    mean difference has the sign opposite to the full set's; ``wrong``: share whose
    permutation test (p < 0.05) calls that opposite direction.
    """

    n: int
    units: int
    mean: NDArray[np.float64]
    low: NDArray[np.float64]
    high: NDArray[np.float64]
    width: NDArray[np.float64]
    swap: NDArray[np.float64]
    wrong: NDArray[np.float64]


def _unit_sums(
    x: NDArray[np.float64], clusters: Sequence[str] | None
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per drawing unit (a query, or an article): the sums of its queries' values, its size."""
    if clusters is None:
        return x, np.ones(len(x), dtype=np.float64)
    _, inverse = np.unique(np.asarray(clusters, dtype=object), return_inverse=True)
    count = int(inverse.max()) + 1 if len(inverse) else 0
    sums = np.zeros((count, x.shape[1]), dtype=np.float64)
    np.add.at(sums, inverse, x)
    return sums, np.bincount(inverse, minlength=count).astype(np.float64)


def units_per_subset(size: int, queries: int, units: int) -> int:
    """Units drawn for a subset of ``size`` queries: ``size`` queries, or, when the units are
    articles, the number of whole articles that hold ``size`` queries on average."""
    if units == queries:
        return min(size, units)
    return min(units, max(1, int(size * units / queries + 0.5)))


def draw_units(rng: np.random.Generator, units: int, drawn: int, count: int) -> NDArray[np.intp]:
    """``count`` subsets of ``drawn`` distinct units out of ``units`` (rows of unit indices):
    the ``drawn`` smallest of a row of uniform numbers, a uniformly random subset."""
    if drawn >= units:
        return np.tile(np.arange(units), (count, 1))
    keys = rng.random((count, units))
    return np.argpartition(keys, drawn - 1, axis=1)[:, :drawn]


def stability_by_size(
    values: ArrayLike,
    diffs: ArrayLike,
    size: int,
    *,
    clusters: Sequence[str] | None,
    subsets: int,
    resamples: int,
    rounds: int,
    seed: int,
    full_resamples: int,
) -> SizeStability:
    """Draw ``subsets`` subsets of ``size`` queries (whole articles when ``clusters`` is given)
    and summarise each column of ``values`` (n queries x c) and ``diffs`` (n x d) over them.

    Within a subset the interval is the percentile bootstrap of ``resamples`` resamples of its
    units (the same resampled positions serve every subset, one matrix product per block) and
    the test is the sign-flip permutation test of ``rounds`` rounds, flipping whole units.
    A subset as large as the set is the set itself: its width is the full set's bootstrap
    interval of ``full_resamples`` resamples (the width ``eval`` prints for it), swap and
    wrong-call rates are 0. Seeded by (seed, size): a size's figures do not depend on the others.
    """
    x = _columns(values)
    d = _columns(diffs) if np.size(diffs) else np.zeros((len(x), 0))
    sums, sizes = _unit_sums(np.hstack([x, d]), clusters)
    value_sums, diff_sums = sums[:, : x.shape[1]], sums[:, x.shape[1] :]
    units = len(sizes)
    drawn = units_per_subset(size, len(x), units)
    full_diff = d.mean(axis=0) if len(d) else np.zeros(d.shape[1])
    direction = np.where(np.abs(full_diff) > TIE_TOLERANCE, np.sign(full_diff), 0.0)
    if drawn >= units:
        means = (
            bootstrap_means(x, full_resamples, seed)
            if clusters is None
            else cluster_bootstrap_means(x, clusters, full_resamples, seed)
        )
        low, high = _percentiles(means)
        mean = x.mean(axis=0)
        zeros = np.zeros(d.shape[1])
        return SizeStability(size, units, mean, mean, mean, high - low, zeros, zeros.copy())

    rng = np.random.default_rng([seed, size])
    picks = rng.integers(0, drawn, (resamples, drawn))
    counts = (
        np.bincount(
            (np.arange(resamples)[:, None] * drawn + picks).ravel(), minlength=resamples * drawn
        )
        .reshape(resamples, drawn)
        .astype(np.float64)
    )
    signs = (rng.integers(0, 2, (rounds, drawn), dtype=np.int8) * 2 - 1).astype(np.float64)
    alpha = 1.0 - CONFIDENCE
    columns, compared = x.shape[1], d.shape[1]
    widest = max(units, drawn * (columns + compared + 1), resamples * columns, rounds * compared)
    block = max(1, STABILITY_BLOCK // widest)
    subset_means = np.empty((subsets, columns))
    widths = np.empty((subsets, columns))
    opposite = np.zeros((subsets, compared), dtype=bool)
    wrong = np.zeros((subsets, compared), dtype=bool)
    for start in range(0, subsets, block):
        rows = min(block, subsets - start)
        chosen = draw_units(rng, units, drawn, rows)
        drawn_sizes = sizes[chosen]  # rows x drawn
        total = drawn_sizes.sum(axis=1)
        picked = value_sums[chosen]  # rows x drawn x columns
        subset_means[start : start + rows] = picked.sum(axis=1) / total[:, None]
        resampled = np.matmul(counts, picked) / (drawn_sizes @ counts.T)[:, :, None]
        low, high = _percentiles(resampled, axis=1)
        widths[start : start + rows] = high - low
        if compared:
            picked_diffs = diff_sums[chosen]
            observed = picked_diffs.sum(axis=1)  # rows x compared (sums over the subset)
            flipped = np.abs(np.matmul(signs, picked_diffs))  # rows x rounds x compared
            bound = np.abs(observed) - TIE_TOLERANCE * total[:, None]
            extreme = np.count_nonzero(flipped >= bound[:, None, :], axis=1)
            p_values = (extreme + 1) / (rounds + 1)
            against = observed * direction < -TIE_TOLERANCE * total[:, None]
            opposite[start : start + rows] = against
            wrong[start : start + rows] = against & (p_values < alpha)
    low, high = _percentiles(subset_means)
    return SizeStability(
        n=size,
        units=drawn,
        mean=subset_means.mean(axis=0),
        low=low,
        high=high,
        width=widths.mean(axis=0),
        swap=opposite.mean(axis=0),
        wrong=wrong.mean(axis=0),
    )


# --------------------------------------------------------------------------- queries needed

#: The power of the test behind `eval --need`: 80 %, the usual planning figure (Cohen).
POWER = 0.8


@dataclass(frozen=True)
class PowerFigures:
    """Per compared column: sd of the per-query differences, queries needed for ``delta``,
    and the smallest difference the current number of queries detects; with clusters, the
    design effect and both figures with it (None without clusters)."""

    sd: NDArray[np.float64]
    needed: NDArray[np.int64]
    detectable: NDArray[np.float64]
    design_effect: NDArray[np.float64] | None = None
    needed_by_cluster: NDArray[np.int64] | None = None
    detectable_by_cluster: NDArray[np.float64] | None = None


def power_factor() -> float:
    """z_{1-alpha/2} + z_{power}: 1.96 + 0.84 for 95 % confidence and 80 % power."""
    from scipy.stats import norm

    return float(norm.ppf(1.0 - (1.0 - CONFIDENCE) / 2.0) + norm.ppf(POWER))


def queries_needed(
    diffs: ArrayLike, delta: float, clusters: Sequence[str] | None = None
) -> PowerFigures:
    """The paired z-approximation: n = ((z_{1-a/2} + z_{1-b}) * sd_d / delta)^2, rounded up;
    detectable = (z_{1-a/2} + z_{1-b}) * sd_d / sqrt(n) at the current n.

    With ``clusters`` (each query's article, two articles or more), the same figures with the
    variance of the mean difference taken over whole clusters: design effect = that variance
    / (sd_d^2 / n), needed x design effect queries (drawn as the set's articles are), and
    detectable x sqrt(design effect)."""
    d = _columns(diffs)
    n = len(d)
    sd = d.std(axis=0, ddof=1) if n > 1 else np.zeros(d.shape[1])
    factor = power_factor()
    needed = _needed(_ratio(factor * sd, delta))
    detectable = factor * sd / np.sqrt(max(n, 1))
    if clusters is None or len(set(clusters)) < 2:
        return PowerFigures(sd=sd, needed=needed, detectable=detectable)
    effect = design_effect(d, clusters)
    return PowerFigures(
        sd=sd,
        needed=needed,
        detectable=detectable,
        design_effect=effect,
        needed_by_cluster=_needed(_ratio(factor * sd * np.sqrt(effect), delta)),
        detectable_by_cluster=detectable * np.sqrt(effect),
    )


#: The largest count of queries `--need` reports: what a 64-bit int holds. A tiny DELTA asks
#: for more (1e-11 needs ~1e21 queries); the figure is then this cap, shown as "more than".
NEEDED_CAP = int(np.iinfo(np.int64).max)


def _ratio(spread: NDArray[np.float64], delta: float) -> NDArray[np.float64]:
    """spread / delta, inf where a tiny delta overflows it (then capped by ``_needed``)."""
    with np.errstate(over="ignore"):
        return spread / delta


def _needed(ratio: NDArray[np.float64]) -> NDArray[np.int64]:
    """ceil(ratio^2), at least 1 (a count within float error of a whole number is that), at
    most NEEDED_CAP (a square too large for a float is that too)."""
    with np.errstate(over="ignore", invalid="ignore"):
        squared = np.ceil(ratio**2 - TIE_TOLERANCE)
    # float(NEEDED_CAP) rounds up to 2^63, which no int64 holds: compare before converting
    beyond = ~(squared < float(NEEDED_CAP))
    counts = np.where(beyond, 1, np.maximum(1, squared)).astype(np.int64)
    return np.where(beyond, np.int64(NEEDED_CAP), counts)


def design_effect(values: ArrayLike, clusters: Sequence[str]) -> NDArray[np.float64]:
    """Per column: the variance of the mean over whole clusters (the linearised, cluster-robust
    variance of a mean: G / (G - 1) * sum_g (T_g - n_g * mean)^2 / n^2, T_g a cluster's total)
    over the variance of a mean of independent values (sd^2 / n). 1 where queries are their own
    clusters; near the cluster size when a cluster's values are alike; 1 where every value is
    the same (no variance either way)."""
    x = _columns(values)
    n = len(x)
    groups, of = np.unique(np.asarray(clusters, dtype=str), return_inverse=True)
    g = len(groups)
    totals = np.zeros((g, x.shape[1]))
    np.add.at(totals, of, x)
    sizes = np.bincount(of, minlength=g).astype(np.float64)
    residual = totals - sizes[:, None] * x.mean(axis=0)
    clustered = g / (g - 1) * (residual**2).sum(axis=0) / n**2
    independent = x.var(axis=0, ddof=1) / n
    varies = np.ptp(x, axis=0) > 0  # not every value the same (their variance is float noise)
    with np.errstate(divide="ignore", invalid="ignore"):
        effect = np.where(varies & (independent > 0), clustered / independent, 1.0)
    return np.asarray(effect, dtype=np.float64)
