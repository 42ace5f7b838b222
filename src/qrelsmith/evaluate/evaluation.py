"""Evaluating runs against a build: the composer of `qrelsmith eval`.

``evaluate_runs`` scores every run once, then calls the analyses (``analyses.py``) the request
asks for and gathers their records and warnings into an ``EvalReport``; ``tables.py`` shows it.
Pure: takes parsed qrels, runs and the request, returns the report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ..buildfolder import Qrels
from ..config import EvalOptions, EvalRequest
from ..models import EvalReport
from ..patterns import CURVE_CUTOFFS
from . import analyses
from .analyses import Scores
from .measures import MeasureSpec, parse_measures, per_query
from .runs import Run
from .statistics import POWER, power_factor

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


def measure_specs(qrels: Qrels, options: EvalOptions) -> list[MeasureSpec]:
    """The measures of the options (names may hold several, space-separated), with its rel and
    gains; UsageError for an unknown name."""
    grades = {g for judged in qrels.values() for g in judged.values()}
    names = [part for item in options.measures for part in item.split()]
    return parse_measures(names, rel=options.rel, gains=options.gains, grades=grades)


def score_runs(
    qrels: Qrels, runs: Mapping[str, Run], specs: list[MeasureSpec], articles: Mapping[str, str]
) -> tuple[dict[str, dict[str, dict[str, float]]], Scores]:
    """Every run's per-query values (run -> measure -> qid -> value) and the same as matrices."""
    qids = list(qrels)
    values = {name: per_query(qrels, run, specs) for name, run in runs.items()}
    return values, Scores(
        names=list(runs),
        specs=specs,
        qids=qids,
        clusters=[articles.get(qid, qid) for qid in qids],
        matrices=[analyses.matrix(values[name], specs, qids) for name in runs],
    )


def evaluate_runs(data: EvalInput, request: EvalRequest) -> EvalReport:
    """Score every run on every query of the qrels, then the analyses the request asks for:
    intervals and the paired comparisons always, the stability study with ``sizes``, the
    queries needed with ``need``, recall at k with ``curve``, groups with ``data.groups``."""
    options = request.options
    specs = measure_specs(data.qrels, options)
    values, scores = score_runs(data.qrels, data.runs, specs, data.articles)
    qids = scores.qids
    warnings: list[str] = []
    if not scores.several_articles and qids:
        # Resampling the one article draws the same queries every time: the interval would
        # have zero width, which reads as certainty rather than as "cannot tell".
        warnings.append(
            f"the {len(qids)} queries come from one article: the interval over articles [a] "
            "cannot be computed; the one over queries [q] assumes they are independent"
        )
    for name, run in data.runs.items():
        warnings += run_warnings(name, data.qrels, run, data.doc_ids)
    settings: dict[str, object] = {
        "seed": options.seed,
        "bootstrap_samples": options.bootstrap_samples,
        "permutation_rounds": options.permutation_rounds,
        "rel": options.rel,
        "gains": options.gains,
        **({"subset": data.subset} if data.subset else {}),
    }
    summaries = analyses.intervals(scores, options)
    comparisons = analyses.paired(scores, options)
    stability = []
    if request.sizes and qids:
        studied, left_out = resolve_sizes(request.sizes, len(qids))
        for size in left_out:
            warnings.append(f"--sizes {size}: more than the {len(qids)} queries, left out")
        stability = analyses.stability(scores, studied, options)
        settings["stability"] = {
            "draw": "article" if scores.articles_hold_several else "query",
            "sizes": studied,
            "left_out": left_out,
            "subsets": options.subsets,
            "subset_resamples": options.subset_resamples,
            "subset_rounds": options.subset_rounds,
        }
    needed = []
    if request.need is not None:
        if qids:
            needed = analyses.needed(scores, request.need)
        settings["need"] = {"delta": request.need, "power": POWER, "z_sum": power_factor()}
    curve = analyses.curve(data.qrels, data.runs, CURVE_CUTOFFS, options) if request.curve else []
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
        articles=len(set(scores.clusters)),
        settings=settings,
        stability=stability,
        needed=needed,
        curve=curve,
        summaries=summaries,
        comparisons=comparisons,
        per_query=values if request.per_query else None,
        warnings=warnings,
    )
