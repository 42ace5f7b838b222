"""Evaluating runs against a build: per-query values, intervals, paired comparisons, warnings.

Pure: takes parsed qrels, runs and options, returns an ``EvalReport``; the CLI prints it as a
table for people or as JSON for scripts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..buildfolder import Qrels
from ..config import EvalOptions
from ..models import EvalReport, Interval, MeasureSummary, PairedComparison
from .measures import MeasureSpec, per_query
from .runs import Run
from .statistics import (
    bootstrap_intervals,
    cluster_bootstrap_intervals,
    paired_comparisons,
)

#: Unknown document ids named in a warning before "...".
WARN_EXAMPLES = 3


def _matrix(
    by_measure: dict[str, dict[str, float]], specs: Sequence[MeasureSpec], qids: list[str]
) -> np.ndarray:
    """queries x measures, in qrels order."""
    return np.array(
        [[by_measure[spec.name][qid] for spec in specs] for qid in qids], dtype=np.float64
    ).reshape(len(qids), len(specs))


def run_warnings(name: str, qrels: Qrels, run: Run, doc_ids: set[str] | None) -> list[str]:
    """Queries of the qrels the run lacks (they count 0), and retrieved ids not in the corpus."""
    warnings = []
    missing = [qid for qid in qrels if qid not in run]
    if missing:
        warnings.append(
            f"{name}: {len(missing)} of {len(qrels)} queries have no results and count as 0"
        )
    extra = [qid for qid in run if qid not in qrels]
    if extra:
        warnings.append(f"{name}: {len(extra)} queries are not in the qrels and are ignored")
    if doc_ids is not None:
        unknown = sorted({d for docs in run.values() for d, _ in docs if d not in doc_ids})
        if unknown:
            examples = ", ".join(unknown[:WARN_EXAMPLES])
            more = ", ..." if len(unknown) > WARN_EXAMPLES else ""
            warnings.append(
                f"{name}: {len(unknown)} retrieved documents are not in the "
                f"corpus ({examples}{more})"
            )
    return warnings


def evaluate_runs(
    qrels: Qrels,
    runs: dict[str, Run],
    specs: Sequence[MeasureSpec],
    articles: dict[str, str],
    options: EvalOptions,
    *,
    doc_ids: set[str] | None = None,
    keep_per_query: bool = False,
) -> EvalReport:
    """Score every run on every query of the qrels; compare each later run with the first."""
    qids = list(qrels)
    clusters = [articles.get(qid, qid) for qid in qids]
    values: dict[str, dict[str, dict[str, float]]] = {}
    warnings: list[str] = []
    summaries: list[MeasureSummary] = []
    by_article = len(set(clusters)) >= 2
    if not by_article and qids:
        # Resampling the one article draws the same queries every time: the interval would
        # have zero width, which reads as certainty rather than as "cannot tell".
        warnings.append(
            f"the {len(qids)} queries come from one article: the interval over articles [a] "
            "cannot be computed; the one over queries [q] assumes they are independent"
        )
    for name, run in runs.items():
        warnings += run_warnings(name, qrels, run, doc_ids)
        values[name] = per_query(qrels, run, specs)
        matrix = _matrix(values[name], specs, qids)
        plain = bootstrap_intervals(matrix, options.bootstrap_samples, options.seed)
        cluster: list[Interval | None] = (
            list(
                cluster_bootstrap_intervals(
                    matrix, clusters, options.bootstrap_samples, options.seed
                )
            )
            if by_article
            else [None] * len(specs)
        )
        for spec, p, c in zip(specs, plain, cluster, strict=True):
            summaries.append(
                MeasureSummary(
                    run=name,
                    measure=spec.name,
                    queries=len(qids),
                    mean=p.mean,
                    low=p.low,
                    high=p.high,
                    cluster_low=c.low if c else None,
                    cluster_high=c.high if c else None,
                )
            )
    comparisons: list[PairedComparison] = []
    names = list(runs)
    for other in names[1:]:
        comparisons += paired_comparisons(
            [spec.name for spec in specs],
            names[0],
            other,
            _matrix(values[names[0]], specs, qids),
            _matrix(values[other], specs, qids),
            samples=options.bootstrap_samples,
            rounds=options.permutation_rounds,
            seed=options.seed,
            clusters=clusters if by_article else None,
        )
    return EvalReport(
        runs=names,
        measures=[spec.name for spec in specs],
        queries=len(qids),
        articles=len(set(clusters)),
        settings={
            "seed": options.seed,
            "bootstrap_samples": options.bootstrap_samples,
            "permutation_rounds": options.permutation_rounds,
            "rel": options.rel,
            "gains": options.gains,
        },
        summaries=summaries,
        comparisons=comparisons,
        per_query=values if keep_per_query else None,
        warnings=warnings,
    )


def format_table(report: EvalReport) -> str:
    """A plain-text table for people: means with both intervals, then the paired comparisons."""
    lines = [
        f"{report.queries} queries in {report.articles} articles; 95% intervals from "
        f"{report.settings['bootstrap_samples']} resamples of queries [q] and of articles [a]",
    ]
    width_run = max([len("run")] + [len(name) for name in report.runs])
    width_measure = max([len("measure")] + [len(m) for m in report.measures])
    lines.append(
        f"{'run':<{width_run}}  {'measure':<{width_measure}}  "
        f"{'mean':>6}  {'CI95 [q]':>15}  {'CI95 [a]':>15}"
    )
    for s in report.summaries:
        articles = (
            f"[{s.cluster_low:.4f},{s.cluster_high:.4f}]"
            if s.cluster_low is not None and s.cluster_high is not None
            else f"{'n/a':>15}"
        )
        lines.append(
            f"{s.run:<{width_run}}  {s.measure:<{width_measure}}  {s.mean:6.4f}  "
            f"[{s.low:.4f},{s.high:.4f}]  {articles}"
        )
    if report.comparisons:
        lines.append("")
        lines.append(
            f"paired: B - A, permutation test with {report.settings['permutation_rounds']} rounds"
        )
        for c in report.comparisons:
            cluster = (
                f" CI95[a]=[{c.cluster_low:+.4f},{c.cluster_high:+.4f}]"
                if c.cluster_low is not None and c.cluster_high is not None
                else ""
            )
            lines.append(
                f"{c.measure} {c.run_a}->{c.run_b}: diff={c.diff:+.4f} "
                f"CI95=[{c.low:+.4f},{c.high:+.4f}]{cluster} perm_p={c.p_value:.4f} "
                f"win/tie/loss={c.wins}/{c.ties}/{c.losses}"
            )
    return "\n".join(lines) + "\n"


def format_per_query(report: EvalReport) -> str:
    """Tab-separated ``run measure qid value`` lines (trec_eval -q style)."""
    if report.per_query is None:
        return ""
    lines = []
    for run, measures in report.per_query.items():
        for measure, by_qid in measures.items():
            for qid, value in by_qid.items():
                lines.append(f"{run}\t{measure}\t{qid}\t{value:.4f}")
    return "\n".join(lines) + "\n"
