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

from ..config import EvalOptions, Gains
from ..models import (
    CurvePoint,
    GroupSummary,
    Interval,
    JudgedShare,
    MeasureSummary,
    PairedComparison,
    QueriesNeeded,
    RankCount,
    RecallDetail,
    StabilityRow,
    ViewScore,
)
from ..store.buildfolder import Qrels
from .measures import MeasureSpec, Scorer, parse_measures
from .runs import Run
from .statistics import (
    bootstrap_intervals,
    cluster_bootstrap_intervals,
    compare_pairs,
    queries_needed,
    stability_by_size,
)

#: Judged@k's depth: the top 10, the prompt's share of a run in the study (R@10, MRR@10) and
#: TREC's usual pool depth, so Judged@10 says how much of what a reader sees was ever judged.
JUDGED_DEPTH = 10

#: Two runs whose Judged@10 differ by more than this are compared partly on documents nobody
#: judged: a tenth of the top 10 is one document per query, about the gain the study called
#: significant between its closest runs (one more correct hit at rank 1 in 70 queries moves MRR
#: by ~0.01); beyond it the paired comparison warns.
JUDGED_GAP = 0.1

#: `--ranks`: the rank of the first relevant document, in the study's buckets ("1位が1,092問、
#: 2位が242問、10位以内に無いものが201問"): 1, 2, 3, 4-10, none in the top 10.
RANK_BUCKETS: tuple[tuple[str, int, int], ...] = (
    ("1", 1, 1),
    ("2", 2, 2),
    ("3", 3, 3),
    ("4-10", 4, 10),
)
NO_RANK = "none"

#: `--views`: the measure shown under each labelling view, the one all three change (recall
#: and RR see only the threshold; nDCG@10 sees the grades and their gains), at the study's k.
VIEW_MEASURE = "nDCG@10"


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
    def article_count(self) -> int:
        """The articles the queries come from."""
        return len(set(self.clusters))

    @property
    def several_articles(self) -> bool:
        """Two articles or more: whole articles can be resampled."""
        return self.article_count >= 2

    @property
    def articles_hold_several(self) -> bool:
        """Fewer articles than queries: some article holds several queries."""
        return self.article_count < len(self.qids)


def matrix(
    by_measure: Mapping[str, Mapping[str, float]], specs: Sequence[MeasureSpec], qids: list[str]
) -> np.ndarray:
    """queries x measures, in qrels order."""
    return np.array(
        [[by_measure[spec.name][qid] for spec in specs] for qid in qids], dtype=np.float64
    ).reshape(len(qids), len(specs))


def intervals(scores: Scores, options: EvalOptions) -> list[MeasureSummary]:
    """Every run's mean of every measure with its bootstrap interval over queries and, with two
    articles or more, over articles (every run's columns side by side take one resampling, as
    each would alone: the draws depend on the seed only)."""
    width = len(scores.specs)
    values = np.hstack(scores.matrices) if scores.matrices else np.zeros((len(scores.qids), 0))
    plain = bootstrap_intervals(values, options.bootstrap_samples, options.seed)
    cluster: list[Interval | None] = (
        list(
            cluster_bootstrap_intervals(
                values, scores.clusters, options.bootstrap_samples, options.seed
            )
        )
        if scores.several_articles
        else [None] * values.shape[1]
    )
    summaries: list[MeasureSummary] = []
    for r, name in enumerate(scores.names):
        for j, spec in enumerate(scores.specs):
            p, c = plain[r * width + j], cluster[r * width + j]
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


def pairs(count: int, which: str) -> list[tuple[int, int]]:
    """The (A, B) run positions compared: each later run with the first, or every pair (A
    listed before B)."""
    if which == "all":
        return [(a, b) for a in range(count) for b in range(a + 1, count)]
    return [(0, b) for b in range(1, count)]


def paired(scores: Scores, which: str, options: EvalOptions) -> list[PairedComparison]:
    """B - A for each pair of ``pairs(which)``, measure by measure."""
    return compare_pairs(
        [spec.name for spec in scores.specs],
        scores.names,
        scores.matrices,
        pairs(len(scores.names), which),
        samples=options.bootstrap_samples,
        rounds=options.permutation_rounds,
        seed=options.seed,
        clusters=scores.clusters if scores.several_articles else None,
    )


def draws_articles(scores: Scores, draw: str | None) -> bool:
    """Whether `--sizes` subsets are drawn as whole articles: as ``draw`` says, by default
    (None) when articles hold several queries (a query drawn alone from its article's
    siblings would understate the spread)."""
    if draw is None:
        return scores.articles_hold_several
    return draw == "article" and scores.articles_hold_several


def stability(
    scores: Scores, sizes: Sequence[int], by_article: bool, options: EvalOptions
) -> list[StabilityRow]:
    """The stability study: for each size, run and measure, how the mean moves over subsets
    drawn as whole articles or as single queries (and, for each run after the first, how
    often its difference to the first flips)."""
    matrices = scores.matrices
    values = np.hstack(matrices)
    diffs = np.hstack([m - matrices[0] for m in matrices[1:]]) if len(matrices) > 1 else None
    width = len(scores.specs)
    clusters = scores.clusters if by_article else None
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


def needed(scores: Scores, delta: float, which: str) -> list[QueriesNeeded]:
    """`--need DELTA` for each pair of ``pairs(which)``, measure by measure; when articles
    hold several queries (and there are two or more), by article too."""
    clusters = scores.clusters if scores.several_articles and scores.articles_hold_several else None
    matrices = scores.matrices
    rows: list[QueriesNeeded] = []
    for a, r in pairs(len(scores.names), which):
        figures = queries_needed(matrices[r] - matrices[a], delta, clusters)
        effect = figures.design_effect
        by_cluster, detectable = figures.needed_by_cluster, figures.detectable_by_cluster
        for j, spec in enumerate(scores.specs):
            rows.append(
                QueriesNeeded(
                    measure=spec.name,
                    run_a=scores.names[a],
                    run_b=scores.names[r],
                    queries=len(matrices[a]),
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


def curve(scorer: Scorer, cutoffs: Sequence[int], name: str, run: Run) -> list[CurvePoint]:
    """A run's mean recall at each cut-off (``scorer``: of ``curve_specs``)."""
    recall = scorer.values(run)
    points: list[CurvePoint] = []
    for k, spec in zip(cutoffs, scorer.specs, strict=True):
        points.append(CurvePoint(run=name, k=k, measure=spec.name, mean=_mean(recall[spec.name])))
    return points


def _mean(column: Mapping[str, float]) -> float:
    """The mean of a measure's per-query values, in qrels order (0 without a query)."""
    return sum(column.values()) / len(column) if column else 0.0


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


def condensed(qrels: Qrels, run: Run) -> Run:
    """The run with the documents its query's qrels do not judge removed, the rest in their
    order (Sakai's condensed lists, SIGIR 2007): a document judged 0 stays."""
    return {
        qid: [(docid, score) for docid, score in docs if docid in qrels.get(qid, {})]
        for qid, docs in run.items()
    }


def judged_scorer(qrels: Qrels) -> Scorer:
    """The scorer of Judged@JUDGED_DEPTH (ir_measures) over ``qrels``."""
    spec = parse_measures([f"Judged@{JUDGED_DEPTH}"], rel=None, gains="linear", grades=())[0]
    return Scorer(qrels, [spec])


def judged(scorer: Scorer, name: str, run: Run) -> JudgedShare:
    """A run's Judged@JUDGED_DEPTH (``scorer``: ``judged_scorer``'s): the mean over the qrels'
    queries of the share of its top k that has a judgement, grade 0 included (a query it left
    out counts 0)."""
    spec = scorer.specs[0]
    return JudgedShare(run=name, measure=spec.name, mean=_mean(scorer.values(run)[spec.name]))


def judged_gaps(shares: Sequence[JudgedShare], compared: Sequence[tuple[int, int]]) -> list[str]:
    """A warning for each compared pair whose Judged@k differ by more than JUDGED_GAP."""
    found = []
    for a, b in compared:
        first, second = shares[a], shares[b]
        if abs(first.mean - second.mean) > JUDGED_GAP + 1e-12:
            found.append(
                f"{first.run}->{second.run}: {first.measure} {first.mean:.3f} vs "
                f"{second.mean:.3f}: the comparison leans on unjudged documents "
                "(--unjudged condensed scores without them)"
            )
    return found


def first_relevant(
    ranking: Sequence[tuple[str, float]], grades: Mapping[str, int], rel: int
) -> int:
    """The rank (from 1) of the first document of grade >= rel, 0 when there is none."""
    for rank, (docid, _) in enumerate(ranking, 1):
        if grades.get(docid, 0) >= rel:
            return rank
    return 0


def ranks(qrels: Qrels, name: str, run: Run, rel: int) -> list[RankCount]:
    """`--ranks`: how many of the qrels' queries have their first relevant document (grade
    >= rel) in the run at rank 1, 2, 3, 4-10, or not in the top 10 (a query it left out)."""
    deepest = RANK_BUCKETS[-1][2]
    total = len(qrels)
    counts = dict.fromkeys([label for label, _, _ in RANK_BUCKETS] + [NO_RANK], 0)
    for qid, grades in qrels.items():
        rank = first_relevant(run.get(qid, [])[:deepest], grades, rel)
        label = next((b for b, low, high in RANK_BUCKETS if low <= rank <= high), NO_RANK)
        counts[label] += 1
    return [
        RankCount(run=name, rank=label, queries=count, share=count / total if total else 0.0)
        for label, count in counts.items()
    ]


def view_scorers(qrels: Qrels, wanted: Sequence[str], options: EvalOptions) -> list[Scorer]:
    """`--views`: a scorer of VIEW_MEASURE for each labelling view of the study: strict (only
    grades >= rel relevant, all of gain 1: the named section alone), graded (the grades as
    gains, the article's other sections at 1) and exp (gains 2^grade - 1)."""
    grades = {g for judged in qrels.values() for g in judged.values()}
    scorers = []
    for view in wanted:
        judged_as = qrels
        if view == "strict":
            judged_as = {
                qid: {d: int(g >= options.rel) for d, g in docs.items()}
                for qid, docs in qrels.items()
            }
        gains: Gains = "exp" if view == "exp" else "linear"
        spec = parse_measures([VIEW_MEASURE], rel=None, gains=gains, grades=grades)[0]
        scorers.append(Scorer(judged_as, [spec]))
    return scorers


def views(scorers: Sequence[Scorer], wanted: Sequence[str], name: str, run: Run) -> list[ViewScore]:
    """A run's VIEW_MEASURE under each view of ``wanted`` (``scorers``: ``view_scorers``')."""
    return [
        ViewScore(
            run=name,
            view=view,
            measure=VIEW_MEASURE,
            mean=_mean(scorer.values(run)[scorer.specs[0].name]),
        )
        for view, scorer in zip(wanted, scorers, strict=True)
    ]


def recall_found(
    qrels: Qrels, run: Run, specs: Sequence[MeasureSpec]
) -> dict[str, tuple[int, int]]:
    """`--micro`, what it reads from a run: for every recall measure (R@k) of ``specs``, the
    relevant documents the run finds in the top k over all queries of the qrels, and all
    relevant documents."""
    counts: dict[str, tuple[int, int]] = {}
    for spec in specs:
        measure = spec.measure
        if measure is None or measure.NAME != "R":
            continue
        cutoff = measure.params.get("cutoff")
        rel = int(measure.params.get("rel", 1))
        found = relevant = 0
        for qid, judged in qrels.items():
            wanted = {d for d, g in judged.items() if g >= rel}
            relevant += len(wanted)
            top = run.get(qid, [])[:cutoff] if cutoff else run.get(qid, [])
            found += sum(1 for docid, _ in top if docid in wanted)
        counts[spec.name] = (found, relevant)
    return counts


def recall_detail(
    scores: Scores, found: Sequence[Mapping[str, tuple[int, int]]]
) -> list[RecallDetail]:
    """`--micro`: for every recall measure (R@k), each run's macro mean beside the micro ratio
    (relevant documents found in the top k over all queries / all relevant documents, from
    ``found``: each run's ``recall_found``) and the share of queries whose recall is 0 (seed
    003's two queries: macro 0.5, micro 0.1)."""
    rows: list[RecallDetail] = []
    for j, spec in enumerate(scores.specs):
        if spec.name not in (found[0] if found else {}):
            continue
        for name, values, counts in zip(scores.names, scores.matrices, found, strict=True):
            hits, relevant = counts[spec.name]
            column = values[:, j]
            rows.append(
                RecallDetail(
                    run=name,
                    measure=spec.name,
                    macro=float(column.mean()) if len(column) else 0.0,
                    micro=hits / relevant if relevant else 0.0,
                    zero_recall_rate=float(np.mean(column == 0)) if len(column) else 0.0,
                )
            )
    return rows
