"""Evaluating runs against a build: per-query values, intervals, paired comparisons, warnings.

Pure: takes parsed qrels, runs and options, returns an ``EvalReport``; the CLI prints it as a
table for people or as JSON for scripts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np

from ..config import EvalOptions
from ..models import (
    CurvePoint,
    EvalReport,
    GroupSummary,
    Interval,
    MeasureSummary,
    PairedComparison,
    QueriesNeeded,
    StabilityRow,
)
from ..patterns import CURVE_CUTOFFS
from ..store.buildfolder import Qrels
from .measures import MeasureSpec, parse_measures, per_query
from .runs import Run
from .statistics import (
    POWER,
    bootstrap_intervals,
    cluster_bootstrap_intervals,
    paired_comparisons,
    power_factor,
    queries_needed,
    stability_by_size,
    units_per_subset,
)

#: Below this many articles a subset's cluster bootstrap is too narrow to read (a bootstrap
#: of 2 or 3 clusters can only reshuffle them); the table says so for those sizes.
FEW_ARTICLES = 10

#: A set size of `eval --sizes`: a number of queries, or the whole set.
Size = int | Literal["all"]

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


def parse_sizes(text: str) -> list[Size]:
    """``"20,50,all"`` -> [20, 50, "all"]; ValueError for anything else."""
    sizes: list[Size] = []
    for part in text.split(","):
        item = part.strip().lower()
        if item == "all":
            sizes.append("all")
        elif item.isdigit() and int(item) >= 2:
            sizes.append(int(item))
        else:
            raise ValueError(f"a set size is a whole number >= 2 or 'all', not {part.strip()!r}")
    return sizes


def resolve_sizes(sizes: Sequence[Size], queries: int) -> tuple[list[int], list[int]]:
    """The sizes to study, smallest first ('all' is the set's size), and those left out
    because they exceed the set."""
    wanted = sorted({queries if size == "all" else size for size in sizes})
    return [n for n in wanted if n <= queries], [n for n in wanted if n > queries]


def stability_rows(
    names: Sequence[str],
    specs: Sequence[MeasureSpec],
    matrices: Sequence[np.ndarray],
    clusters: Sequence[str] | None,
    sizes: Sequence[int],
    options: EvalOptions,
) -> list[StabilityRow]:
    """The stability study: for each size, run and measure, how the mean moves over subsets
    (and, for each run after the first, how often its difference to the first flips)."""
    values = np.hstack(matrices)
    diffs = np.hstack([m - matrices[0] for m in matrices[1:]]) if len(matrices) > 1 else None
    width = len(specs)
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
        for r, name in enumerate(names):
            for j, spec in enumerate(specs):
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


def needed_rows(
    names: Sequence[str],
    specs: Sequence[MeasureSpec],
    matrices: Sequence[np.ndarray],
    delta: float,
    clusters: Sequence[str] | None = None,
) -> list[QueriesNeeded]:
    """`--need DELTA` for each run compared with the first, measure by measure; with
    ``clusters`` (each query's article, when articles hold several), by article too."""
    rows: list[QueriesNeeded] = []
    for r in range(1, len(names)):
        figures = queries_needed(matrices[r] - matrices[0], delta, clusters)
        effect = figures.design_effect
        needed, detectable = figures.needed_by_cluster, figures.detectable_by_cluster
        for j, spec in enumerate(specs):
            rows.append(
                QueriesNeeded(
                    measure=spec.name,
                    run_a=names[0],
                    run_b=names[r],
                    queries=len(matrices[0]),
                    sd=float(figures.sd[j]),
                    delta=delta,
                    queries_needed=int(figures.needed[j]),
                    detectable=float(figures.detectable[j]),
                    design_effect=None if effect is None else float(effect[j]),
                    queries_needed_by_article=None if needed is None else int(needed[j]),
                    detectable_by_article=None if detectable is None else float(detectable[j]),
                )
            )
    return rows


def group_rows(
    by: str,
    group_of: Mapping[str, str],
    qids: Sequence[str],
    names: Sequence[str],
    specs: Sequence[MeasureSpec],
    matrices: Sequence[np.ndarray],
    options: EvalOptions,
) -> list[GroupSummary]:
    """Every measure of every run on each group's queries, with a bootstrap interval."""
    from .difficulty import TERCILES

    members: dict[str, list[int]] = {}
    for row, qid in enumerate(qids):
        if qid in group_of:
            members.setdefault(group_of[qid], []).append(row)
    ordered = [g for g in TERCILES if g in members] if by == "overlap" else sorted(members)
    rows: list[GroupSummary] = []
    for group in ordered:
        picked = members[group]
        for name, matrix in zip(names, matrices, strict=True):
            intervals = bootstrap_intervals(matrix[picked], options.bootstrap_samples, options.seed)
            for spec, interval in zip(specs, intervals, strict=True):
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


def format_groups(report: EvalReport) -> str:
    """`--by`: one line per group and run, every measure's mean and interval."""
    if not report.groups:
        return ""
    by = report.groups[0].by
    what = {
        "overlap": "thirds of the queries by the share of their units found in their "
        "labelled sections (low = the hardest for word matching)",
        "rule": "the rule that matched the label",
        "confidence": "label confidence below (low) or at least (high) the audit's low_confidence",
        "article": "article",
    }[by]
    lines = [f"by {by}: {what}; 95% intervals over the group's queries"]
    seen: dict[tuple[str, str], list[GroupSummary]] = {}
    for row in report.groups:
        seen.setdefault((row.group, row.run), []).append(row)
    width = max(len(group) for group, _ in seen)
    run_width = max(len(run) for run in report.runs)
    for (group, run), rows in seen.items():
        cells = " | ".join(f"{r.measure}={r.mean:.3f} [{r.low:.3f},{r.high:.3f}]" for r in rows)
        lines.append(f"{group:<{width}}  n={rows[0].queries:<5} {run:<{run_width}}  {cells}")
    return "\n".join(lines) + "\n"


def curve_specs(qrels: Qrels, options: EvalOptions) -> list[MeasureSpec]:
    """R@k at the seed's cut-offs, with the evaluation's relevance threshold."""
    grades = {g for judged in qrels.values() for g in judged.values()}
    names = [f"R@{k}" for k in CURVE_CUTOFFS]
    return parse_measures(names, rel=options.rel, gains=options.gains, grades=grades)


def evaluate_runs(
    qrels: Qrels,
    runs: dict[str, Run],
    specs: Sequence[MeasureSpec],
    articles: dict[str, str],
    options: EvalOptions,
    *,
    doc_ids: set[str] | None = None,
    keep_per_query: bool = False,
    sizes: Sequence[Size] = (),
    need: float | None = None,
    curve: bool = False,
    groups: tuple[str, Mapping[str, str]] | None = None,
    subset: str | None = None,
) -> EvalReport:
    """Score every run on every query of the qrels; compare each later run with the first.

    ``sizes`` adds the stability study, ``need`` the queries needed to detect a difference of
    that size, ``curve`` recall at the seed's cut-offs."""
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
    extra: dict[str, object] = {}
    matrices = [_matrix(values[name], specs, qids) for name in names]
    stability: list[StabilityRow] = []
    if sizes and qids:
        studied, left_out = resolve_sizes(sizes, len(qids))
        for size in left_out:
            warnings.append(f"--sizes {size}: more than the {len(qids)} queries, left out")
        by_article = len(set(clusters)) < len(qids)
        stability = stability_rows(
            names, specs, matrices, clusters if by_article else None, studied, options
        )
        extra["stability"] = {
            "draw": "article" if by_article else "query",
            "sizes": studied,
            "left_out": left_out,
            "subsets": options.subsets,
            "subset_resamples": options.subset_resamples,
            "subset_rounds": options.subset_rounds,
        }
    needed = []
    if need is not None and qids:
        several = 2 <= len(set(clusters)) < len(qids)  # articles holding several queries
        needed = needed_rows(names, specs, matrices, need, clusters if several else None)
    if need is not None:
        extra["need"] = {"delta": need, "power": POWER, "z_sum": power_factor()}
    points: list[CurvePoint] = []
    if curve:
        cut = curve_specs(qrels, options)
        for name, run in runs.items():
            recall = per_query(qrels, run, cut)
            for k, spec in zip(CURVE_CUTOFFS, cut, strict=True):
                column = recall[spec.name]
                mean = sum(column.values()) / len(column) if column else 0.0
                points.append(CurvePoint(run=name, k=k, measure=spec.name, mean=mean))
    grouped: list[GroupSummary] = []
    if groups is not None:
        by, group_of = groups
        grouped = group_rows(by, group_of, qids, names, specs, matrices, options)
        placed = sum(1 for qid in qids if qid in group_of)
        if placed < len(qids):
            warnings.append(f"--by {by}: {len(qids) - placed} queries belong to no group")
    return EvalReport(
        groups=grouped,
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
            **({"subset": subset} if subset else {}),
            **extra,
        },
        stability=stability,
        needed=needed,
        curve=points,
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


def format_stability(report: EvalReport) -> str:
    """The seed's table, one block per run: per size, each measure's mean over subsets, the
    2.5-97.5 % range of subset means and the mean interval width (swap and wrong-call rates
    for runs after the first)."""
    if not report.stability:
        return ""
    study = report.settings.get("stability")
    if not isinstance(study, dict):  # evaluate_runs sets it whenever it fills the rows
        return ""
    if study["draw"] == "article":
        how = (
            f"whole articles ({report.articles} articles hold the {report.queries} queries; "
            f"n queries = round(n x {report.articles}/{report.queries}) articles)"
        )
    else:
        how = "queries (each article holds one)"
    lines = [
        f"stability: {study['subsets']} subsets per size, drawn without replacement by {how}",
        "  [low,high] = 2.5-97.5% of the subsets' means; w = mean width of a subset's 95% "
        f"bootstrap interval ({study['subset_resamples']} resamples)",
        "  swap = share of subsets where B - A has the sign opposite to all queries'; wrong = "
        f"share where a sign-flip permutation test ({study['subset_rounds']} rounds) calls "
        "that opposite direction at p < 0.05",
    ]
    by_run: dict[str, dict[int, list[StabilityRow]]] = {}
    for row in report.stability:
        by_run.setdefault(row.run, {}).setdefault(row.n, []).append(row)
    digits = len(str(max(row.n for row in report.stability)))
    for run, by_size in by_run.items():
        lines.append(run if run == report.runs[0] else f"{run} (vs {report.runs[0]})")
        for n, rows in by_size.items():
            cells = []
            for row in rows:
                cell = (
                    f"{row.measure}={row.mean:.3f} [{row.low:.3f},{row.high:.3f}] w={row.width:.3f}"
                )
                if row.swap_rate is not None and row.wrong_call_rate is not None:
                    cell += f" swap={row.swap_rate:.3f} wrong={row.wrong_call_rate:.3f}"
                cells.append(cell)
            lines.append(f"n={n:>{digits}} " + " | ".join(cells))
    if study["draw"] == "article":
        few = [
            n
            for n in study["sizes"]
            if units_per_subset(n, report.queries, report.articles) < FEW_ARTICLES
        ]
        if few:
            lines.append(
                f"note: at n = {', '.join(map(str, few))} a subset holds fewer than "
                f"{FEW_ARTICLES} articles: a bootstrap over so few understates the width "
                "(read the [low,high] range there)"
            )
    left_out = study.get("left_out") or []
    if left_out:
        lines.append(f"left out (more than the {report.queries} queries): {left_out}")
    return "\n".join(lines) + "\n"


def format_needed(report: EvalReport) -> str:
    """`--need`: per compared pair and measure, the queries needed and the detectable difference."""
    if not report.needed:
        return ""
    delta = report.needed[0].delta
    lines = [
        f"queries needed to detect a mean difference of {delta:g} (95% confidence, 80% power)",
        "  needed = ((z_0.975 + z_0.80) * sd / delta)^2, sd of the per-query differences B - A; "
        "detectable = (z_0.975 + z_0.80) * sd / sqrt(queries); queries taken as independent",
    ]
    if report.needed[0].design_effect is not None:
        lines.append(
            "  by article: the same with the variance over whole articles, as this set's "
            "queries come; design effect = that variance / (sd^2 / queries)"
        )
    for row in report.needed:
        by_article = (
            f"; by article: design effect {row.design_effect:.2f}, "
            f"needed={row.queries_needed_by_article} detectable={row.detectable_by_article:.4f}"
            if row.design_effect is not None and row.sd > 0
            else ""
        )
        lines.append(
            f"{row.measure} {row.run_a}->{row.run_b}: sd={row.sd:.4f} "
            f"needed={row.queries_needed} (have {row.queries}) detectable={row.detectable:.4f}"
            + by_article
            + ("  (no query differs from the mean difference)" if row.sd == 0 else "")
        )
    return "\n".join(lines) + "\n"


def format_curve(report: EvalReport) -> str:
    """`--curve`: recall at each cut-off, one line per run (the seed's table for choosing k)."""
    if not report.curve:
        return ""
    measure = report.curve[0].measure.rsplit("@", 1)[0]
    width = max(len(run) for run in report.runs)
    lines = [f"recall at k ({measure}@k)"]
    for run in report.runs:
        cells = [f"@{p.k}={p.mean:.3f}" for p in report.curve if p.run == run]
        lines.append(f"{run:<{width}}  " + " ".join(cells))
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
