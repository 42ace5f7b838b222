"""Evaluating runs against a build: the composer of `qrelsmith eval`.

``evaluate_runs`` scores every run once (``RunScorer``: all that is read from a run's
documents, run by run, so runs can be scored in several processes), then calls the analyses
(``analyses.py``) the request asks for and gathers their records and warnings into an
``EvalReport`` (``evaluate_scored``); ``tables.py`` shows it. Pure: takes parsed qrels, runs
and the request, returns the report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ..config import EvalOptions, EvalRequest
from ..models import CurvePoint, EvalReport, JudgedShare, RankCount, ViewScore
from ..patterns import EVAL_MEASURES
from ..store.buildfolder import Qrels
from . import analyses
from .analyses import Scores
from .measures import MeasureSpec, Scorer, parse_measures, takes_rel
from .runs import Run, retrieved_ids
from .statistics import POWER, power_factor, units_per_subset

#: A set size of `eval --sizes`: a number of queries, or the whole set.
Size = int | Literal["all"]

#: Unknown document ids named in a warning before "...".
WARN_EXAMPLES = 3


@dataclass(frozen=True)
class EvalInput:
    """What an evaluation reads: the qrels, the runs by name, each query's article, the
    corpus's ids (None: not checked), ``groups`` for `--by` (its name and each query's group)
    and the name of the subset the qrels were cut to (`--subset`)."""

    qrels: Qrels
    runs: Mapping[str, Run]
    articles: Mapping[str, str]
    doc_ids: set[str] | None = None
    groups: tuple[str, Mapping[str, str]] | None = None
    subset: str | None = None


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
        unknown = sorted(retrieved_ids(run) - doc_ids)
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


def measure_specs(qrels: Qrels, options: EvalOptions) -> list[MeasureSpec]:
    """The measures of the options (names may hold several, space-separated), with its rel and
    gains; UsageError for an unknown name."""
    grades = {g for judged in qrels.values() for g in judged.values()}
    names = [part for item in options.measures for part in item.split()]
    return parse_measures(names, rel=options.rel, gains=options.gains, grades=grades)


@dataclass(frozen=True)
class RunScores:
    """What the evaluation reads from one run's documents: its per-query values (measure ->
    qid -> value), its Judged@k, its warnings, and, where asked, its first relevant ranks,
    recall curve, labelling views and recall counts (``analyses.recall_found``). Each run's
    are its own, so runs can be scored apart (in several processes) and put side by side."""

    values: dict[str, dict[str, float]]
    judged: JudgedShare
    warnings: list[str]
    ranks: list[RankCount]
    curve: list[CurvePoint]
    views: list[ViewScore]
    recall: dict[str, tuple[int, int]]


class RunScorer:
    """Scores runs one at a time for an evaluation: every measure's evaluator (and those of
    the analyses asked for) reads the qrels once, here, for all the runs."""

    def __init__(self, data: EvalInput, request: EvalRequest) -> None:
        self.qrels, self.doc_ids, self.request = data.qrels, data.doc_ids, request
        options = request.options
        self.specs = measure_specs(data.qrels, options)
        self.scorer = Scorer(data.qrels, self.specs)
        self.judged = analyses.judged_scorer(data.qrels)
        self.curve = (
            Scorer(data.qrels, analyses.curve_specs(data.qrels, request.curve, options))
            if request.curve
            else None
        )
        self.views = analyses.view_scorers(data.qrels, request.views, options)

    def score(self, name: str, run: Run) -> RunScores:
        """One run's scores. With ``unjudged = "condensed"`` everything but Judged@k and the
        warnings reads the run without its unjudged documents."""
        request, qrels = self.request, self.qrels
        read = analyses.condensed(qrels, run) if request.unjudged == "condensed" else run
        return RunScores(
            values=self.scorer.values(read),
            judged=analyses.judged(self.judged, name, run),
            warnings=run_warnings(name, qrels, run, self.doc_ids),
            ranks=analyses.ranks(qrels, name, read, request.options.rel) if request.ranks else [],
            curve=analyses.curve(self.curve, request.curve, name, read) if self.curve else [],
            views=analyses.views(self.views, request.views, name, read),
            recall=analyses.recall_found(qrels, read, self.specs) if request.micro else {},
        )


def score_matrices(
    qids: list[str],
    scored: Mapping[str, RunScores],
    specs: list[MeasureSpec],
    articles: Mapping[str, str],
) -> Scores:
    """Every run's per-query values as matrices."""
    return Scores(
        names=list(scored),
        specs=specs,
        qids=qids,
        clusters=[articles.get(qid, qid) for qid in qids],
        matrices=[analyses.matrix(run.values, specs, qids) for run in scored.values()],
    )


def rel_warnings(qrels: Qrels, options: EvalOptions) -> list[str]:
    """``options.rel`` above every grade (every measure taking it scores 0), or, for measures
    the user named, hiding grades below it that the measure's own default (rel=1) counts."""
    grades = {g for judged in qrels.values() for g in judged.values()}
    top = max(grades, default=0)
    if options.rel > top:
        return [
            f"--rel {options.rel} is above every grade in the qrels (the highest is {top}): "
            "every measure that takes a relevance threshold scores 0"
        ]
    below = sorted(g for g in grades if 1 <= g < options.rel)
    if not below or list(options.measures) == list(EVAL_MEASURES):
        return []
    names = [part for item in options.measures for part in item.split()]
    hidden = [name for name in names if takes_rel(name)]
    if not hidden:
        return []
    example = hidden[0] if "(" in hidden[0] else hidden[0].replace("@", "(rel=1)@", 1)
    return [
        f"--rel {options.rel} applies to {', '.join(hidden)} as named: grade "
        f"{', '.join(map(str, below))} does not count there ({example} or --rel 1 counts it)"
    ]


def study_sizes(
    scores: Scores, sizes: Sequence[Size], by_article: bool
) -> tuple[list[int], list[int], list[int]]:
    """The sizes of `--sizes` to study, smallest first; those left out because they exceed
    the set; and those left out because, drawing whole articles, every subset would hold every
    article: the whole set, although the size is below it."""
    queries = len(scores.qids)
    studied, above = resolve_sizes(sizes, queries)
    whole: list[int] = []
    if by_article:
        articles = len(set(scores.clusters))
        whole = [
            n for n in studied if n < queries and units_per_subset(n, queries, articles) >= articles
        ]
    return [n for n in studied if n not in whole], above, whole


def evaluate_runs(data: EvalInput, request: EvalRequest) -> EvalReport:
    """Score every run on every query of the qrels, then the analyses the request asks for:
    Judged@k, intervals and the paired comparisons always, the stability study with
    ``sizes``, the queries needed with ``need``, recall at k with ``curve``, the first
    relevant rank with ``ranks``, the labelling views with ``views``, micro recall with
    ``micro``, groups with ``data.groups``. With ``unjudged = "condensed"`` every analysis
    but Judged@k reads the runs without their unjudged documents."""
    scorer = RunScorer(data, request)
    scored = {name: scorer.score(name, run) for name, run in data.runs.items()}
    return evaluate_scored(data, request, scored)


def evaluate_scored(
    data: EvalInput, request: EvalRequest, scored: Mapping[str, RunScores]
) -> EvalReport:
    """``evaluate_runs`` of runs already scored (``RunScorer.score``, in run order; this
    reads ``data`` but its runs)."""
    options = request.options
    specs = measure_specs(data.qrels, options)
    shares = [run.judged for run in scored.values()]
    scores = score_matrices(list(data.qrels), scored, specs, data.articles)
    values = {name: run.values for name, run in scored.items()}
    qids = scores.qids
    warnings: list[str] = []
    if not scores.several_articles and qids:
        # Resampling the one article draws the same queries every time: the interval would
        # have zero width, which reads as certainty rather than as "cannot tell".
        warnings.append(
            f"the {len(qids)} queries come from one article: the interval over articles [a] "
            "cannot be computed; the one over queries [q] assumes they are independent"
        )
    for run in scored.values():
        warnings += run.warnings
    warnings += rel_warnings(data.qrels, options)
    compared = analyses.pairs(len(scores.names), request.pairs)
    warnings += analyses.judged_gaps(shares, compared)
    settings: dict[str, object] = {
        "seed": options.seed,
        "bootstrap_samples": options.bootstrap_samples,
        "permutation_rounds": options.permutation_rounds,
        "rel": options.rel,
        "gains": options.gains,
        "unjudged": request.unjudged,
        "pairs": request.pairs,
        **({"subset": data.subset} if data.subset else {}),
    }
    summaries = analyses.intervals(scores, options)
    comparisons = analyses.paired(scores, request.pairs, options)
    stability = []
    if request.sizes and qids:
        by_article = analyses.draws_articles(scores, request.draw)
        studied, above, whole = study_sizes(scores, request.sizes, by_article)
        warnings += [f"--sizes {n}: more than the {len(qids)} queries, left out" for n in above]
        warnings += [
            f"--sizes {n}: a subset of whole articles would hold all {scores.article_count} "
            "articles, the whole set: left out (--draw query draws single queries)"
            for n in whole
        ]
        stability = analyses.stability(scores, studied, by_article, options)
        settings["stability"] = {
            "draw": "article" if by_article else "query",
            "draw_asked": request.draw,
            "sizes": studied,
            "left_out": above,
            **({"whole_set": whole} if whole else {}),
            "subsets": options.subsets,
            "subset_resamples": options.subset_resamples,
            "subset_rounds": options.subset_rounds,
        }
    needed = []
    if request.need is not None:
        if qids:
            needed = analyses.needed(scores, request.need, request.pairs)
        settings["need"] = {"delta": request.need, "power": POWER, "z_sum": power_factor()}
    grouped = []
    if data.groups is not None:
        by, group_of = data.groups
        grouped = analyses.groups(scores, by, group_of, options)
        placed = sum(1 for qid in qids if qid in group_of)
        if placed < len(qids):
            warnings.append(f"--by {by}: {len(qids) - placed} queries belong to no group")
    return EvalReport(
        groups=grouped,
        runs=scores.names,
        measures=[spec.name for spec in specs],
        queries=len(qids),
        articles=scores.article_count,
        settings=settings,
        stability=stability,
        needed=needed,
        curve=[point for run in scored.values() for point in run.curve],
        summaries=summaries,
        comparisons=comparisons,
        per_query=values if request.per_query else None,
        warnings=warnings,
        judged=shares,
        ranks=[row for run in scored.values() for row in run.ranks],
        views=[
            row
            for view in request.views
            for run in scored.values()
            for row in run.views
            if row.view == view
        ],
        recall=analyses.recall_detail(scores, [run.recall for run in scored.values()])
        if request.micro
        else [],
    )
