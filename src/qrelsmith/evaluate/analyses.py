"""The analyses of `qrelsmith eval`, one function each: intervals, paired comparisons, the
stability study, queries needed, the recall curve, groups.

Each takes the per-query values (``Scores``: one queries x measures matrix per run, in qrels
order) and the options it needs, and returns the records of its part of the ``EvalReport``;
``evaluation.evaluate_runs`` composes them. Pure: no file, no printing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..buildfolder import Qrels
from ..config import EvalOptions
from ..models import (
    CurvePoint,
    GroupSummary,
    Interval,
    MeasureSummary,
    PairedComparison,
    QueriesNeeded,
    StabilityRow,
)
from .measures import MeasureSpec, parse_measures, per_query
from .runs import Run
from .statistics import (
    bootstrap_intervals,
    cluster_bootstrap_intervals,
    paired_comparisons,
    queries_needed,
    stability_by_size,
)


@dataclass(frozen=True)
class Scores:
    """Every run's per-query values: ``matrices[r]`` is queries x measures for ``names[r]``,
    rows in the order of ``qids``, columns in the order of ``specs``; ``clusters[i]`` is the
    article of ``qids[i]``."""

    names: list[str]
    specs: list[MeasureSpec]
    qids: list[str]
    clusters: list[str]
    matrices: list[np.ndarray]

    @property
    def several_articles(self) -> bool:
        """Two articles or more: whole articles can be resampled."""
        return len(set(self.clusters)) >= 2

    @property
    def articles_hold_several(self) -> bool:
        """Fewer articles than queries: some article holds several queries."""
        return len(set(self.clusters)) < len(self.qids)


def matrix(
    by_measure: Mapping[str, Mapping[str, float]], specs: Sequence[MeasureSpec], qids: list[str]
) -> np.ndarray:
    """queries x measures, in qrels order."""
    return np.array(
        [[by_measure[spec.name][qid] for spec in specs] for qid in qids], dtype=np.float64
    ).reshape(len(qids), len(specs))


def intervals(scores: Scores, options: EvalOptions) -> list[MeasureSummary]:
    """Every run's mean of every measure with its bootstrap interval over queries and, with two
    articles or more, over articles."""
    summaries: list[MeasureSummary] = []
    for name, values in zip(scores.names, scores.matrices, strict=True):
        plain = bootstrap_intervals(values, options.bootstrap_samples, options.seed)
        cluster: list[Interval | None] = (
            list(
                cluster_bootstrap_intervals(
                    values, scores.clusters, options.bootstrap_samples, options.seed
                )
            )
            if scores.several_articles
            else [None] * len(scores.specs)
        )
        for spec, p, c in zip(scores.specs, plain, cluster, strict=True):
            summaries.append(
                MeasureSummary(
                    run=name,
                    measure=spec.name,
                    queries=len(scores.qids),
                    mean=p.mean,
                    low=p.low,
                    high=p.high,
                    cluster_low=c.low if c else None,
                    cluster_high=c.high if c else None,
                )
            )
    return summaries


def paired(scores: Scores, options: EvalOptions) -> list[PairedComparison]:
    """Each later run against the first, measure by measure."""
    comparisons: list[PairedComparison] = []
    for r in range(1, len(scores.names)):
        comparisons += paired_comparisons(
            [spec.name for spec in scores.specs],
            scores.names[0],
            scores.names[r],
            scores.matrices[0],
            scores.matrices[r],
            samples=options.bootstrap_samples,
            rounds=options.permutation_rounds,
            seed=options.seed,
            clusters=scores.clusters if scores.several_articles else None,
        )
    return comparisons


def stability(scores: Scores, sizes: Sequence[int], options: EvalOptions) -> list[StabilityRow]:
    """The stability study: for each size, run and measure, how the mean moves over subsets
    (and, for each run after the first, how often its difference to the first flips).
    Subsets are drawn by whole articles when articles hold several queries."""
    matrices = scores.matrices
    values = np.hstack(matrices)
    diffs = np.hstack([m - matrices[0] for m in matrices[1:]]) if len(matrices) > 1 else None
    width = len(scores.specs)
    clusters = scores.clusters if scores.articles_hold_several else None
    rows: list[StabilityRow] = []
    for size in sizes:
        found = stability_by_size(
            values,
            diffs if diffs is not None else np.zeros((len(values), 0)),
            size,
            clusters=clusters,
            subsets=options.subsets,
            resamples=options.subset_resamples,
            rounds=options.subset_rounds,
            seed=options.seed,
            full_resamples=options.bootstrap_samples,
        )
        for r, name in enumerate(scores.names):
            for j, spec in enumerate(scores.specs):
                column = r * width + j
                compared = (r - 1) * width + j
                rows.append(
                    StabilityRow(
                        run=name,
                        measure=spec.name,
                        n=size,
                        subsets=options.subsets if size < len(values) else 1,
                        mean=float(found.mean[column]),
                        low=float(found.low[column]),
                        high=float(found.high[column]),
                        width=float(found.width[column]),
                        swap_rate=float(found.swap[compared]) if r else None,
                        wrong_call_rate=float(found.wrong[compared]) if r else None,
                    )
                )
    return rows


def needed(scores: Scores, delta: float) -> list[QueriesNeeded]:
    """`--need DELTA` for each run compared with the first, measure by measure; when articles
    hold several queries (and there are two or more), by article too."""
    clusters = scores.clusters if scores.several_articles and scores.articles_hold_several else None
    matrices = scores.matrices
    rows: list[QueriesNeeded] = []
    for r in range(1, len(scores.names)):
        figures = queries_needed(matrices[r] - matrices[0], delta, clusters)
        effect = figures.design_effect
        by_cluster, detectable = figures.needed_by_cluster, figures.detectable_by_cluster
        for j, spec in enumerate(scores.specs):
            rows.append(
                QueriesNeeded(
                    measure=spec.name,
                    run_a=scores.names[0],
                    run_b=scores.names[r],
                    queries=len(matrices[0]),
                    sd=float(figures.sd[j]),
                    delta=delta,
                    queries_needed=int(figures.needed[j]),
                    detectable=float(figures.detectable[j]),
                    design_effect=None if effect is None else float(effect[j]),
                    queries_needed_by_article=None if by_cluster is None else int(by_cluster[j]),
                    detectable_by_article=None if detectable is None else float(detectable[j]),
                )
            )
    return rows


def curve_specs(qrels: Qrels, cutoffs: Sequence[int], options: EvalOptions) -> list[MeasureSpec]:
    """R@k at each cut-off, with the evaluation's relevance threshold."""
    grades = {g for judged in qrels.values() for g in judged.values()}
    names = [f"R@{k}" for k in cutoffs]
    return parse_measures(names, rel=options.rel, gains=options.gains, grades=grades)


def curve(
    qrels: Qrels, runs: Mapping[str, Run], cutoffs: Sequence[int], options: EvalOptions
) -> list[CurvePoint]:
    """Every run's mean recall at each cut-off."""
    cut = curve_specs(qrels, cutoffs, options)
    points: list[CurvePoint] = []
    for name, run in runs.items():
        recall = per_query(qrels, run, cut)
        for k, spec in zip(cutoffs, cut, strict=True):
            column = recall[spec.name]
            mean = sum(column.values()) / len(column) if column else 0.0
            points.append(CurvePoint(run=name, k=k, measure=spec.name, mean=mean))
    return points


def groups(
    scores: Scores, by: str, group_of: Mapping[str, str], options: EvalOptions
) -> list[GroupSummary]:
    """Every measure of every run on each group's queries, with a bootstrap interval."""
    from .difficulty import TERCILES

    members: dict[str, list[int]] = {}
    for row, qid in enumerate(scores.qids):
        if qid in group_of:
            members.setdefault(group_of[qid], []).append(row)
    ordered = [g for g in TERCILES if g in members] if by == "overlap" else sorted(members)
    rows: list[GroupSummary] = []
    for group in ordered:
        picked = members[group]
        for name, values in zip(scores.names, scores.matrices, strict=True):
            found = bootstrap_intervals(values[picked], options.bootstrap_samples, options.seed)
            for spec, interval in zip(scores.specs, found, strict=True):
                rows.append(
                    GroupSummary(
                        by=by,
                        group=group,
                        queries=len(picked),
                        run=name,
                        measure=spec.name,
                        mean=interval.mean,
                        low=interval.low,
                        high=interval.high,
                    )
                )
    return rows
