"""One-column forms of the evaluation statistics (the code works on queries x measures
matrices): what the statistics tests state their expectations in."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from qrelsmith.evaluate.statistics import (
    bootstrap_intervals,
    cluster_bootstrap_intervals,
    paired_comparisons,
    permutation_p_values,
)
from qrelsmith.models import Interval, PairedComparison


def bootstrap_interval(values: ArrayLike, samples: int, seed: int) -> Interval:
    """Mean of one column of per-query values and its 95 % percentile bootstrap interval."""
    return bootstrap_intervals(np.asarray(values, dtype=np.float64).ravel(), samples, seed)[0]


def cluster_bootstrap_interval(
    values: ArrayLike, clusters: Sequence[str], samples: int, seed: int
) -> Interval:
    """Mean and 95 % interval of one column when articles are the resampled unit."""
    column = np.asarray(values, dtype=np.float64).ravel()
    return cluster_bootstrap_intervals(column, clusters, samples, seed)[0]


def permutation_p_value(diffs: ArrayLike, rounds: int, seed: int) -> float:
    """Two-sided sign-flip permutation p-value of one column of differences."""
    return float(permutation_p_values(np.asarray(diffs, dtype=np.float64).ravel(), rounds, seed)[0])


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
    """B - A for one measure (see ``paired_comparisons``)."""
    a = np.asarray(values_a, dtype=np.float64).ravel()
    b = np.asarray(values_b, dtype=np.float64).ravel()
    return paired_comparisons(
        [measure], run_a, run_b, a, b, samples=samples, rounds=rounds, seed=seed, clusters=clusters
    )[0]
