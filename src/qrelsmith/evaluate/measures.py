"""Per-query measures: ir_measures (pytrec_eval) for the standard ones, our own code for Ragas'
context precision, and trec_eval's ``-c`` rule (qrels queries absent from a run score 0).

Measure names are ir_measures' syntax (``nDCG@10``, ``R(rel=2)@100``, ``RR@10``, ``P@5``,
``AP@100``, ``Success@1``) plus ``CP@k`` for context precision, reported in ir_measures'
canonical form (parameters at their default are left out: ``R(rel=1)@10`` is ``R@10``).
A relevance threshold given once (``rel``) is applied to every measure that takes one and does
not name its own; the ``exp`` gains turn nDCG's gain of grade g into 2^g - 1.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import ir_measures

from ..config import Gains
from ..errors import UsageError
from ..store.buildfolder import Qrels
from .runs import Run

_CONTEXT_PRECISION = re.compile(r"^(?:CP|ContextPrecision)(?:\(rel=(\d+)\))?@(\d+)$")


@dataclass(frozen=True)
class MeasureSpec:
    """One measure to compute: an ir_measures measure, or context precision (``measure`` None)."""

    name: str
    measure: ir_measures.Measure | None = None
    cutoff: int = 0
    rel: int = 1


def context_precision(ranking: Sequence[str], judged: dict[str, int], k: int, rel: int) -> float:
    """Ragas' context precision@k of one ranking.

    sum over ranks i <= k of precision@i * v_i, divided by the number of relevant documents in
    the top k (v_i = 1 when the document at i has grade >= rel). Unlike AP the denominator does
    not count relevant documents that were not retrieved; no relevant document in the top k
    gives 0.
    """
    hits = 0
    total = 0.0
    for position, docid in enumerate(ranking[:k], 1):
        if judged.get(docid, 0) >= rel:
            hits += 1
            total += hits / position
    return total / hits if hits else 0.0


def parse_measures(
    names: Iterable[str], *, rel: int | None, gains: Gains, grades: Iterable[int]
) -> list[MeasureSpec]:
    """Turn measure names into specs; unknown names raise UsageError."""
    grade_set = sorted({int(g) for g in grades} | {0})
    specs: list[MeasureSpec] = []
    for raw in names:
        name = raw.strip()
        if not name:
            continue
        cp = _CONTEXT_PRECISION.match(name)
        if cp:
            threshold = int(cp.group(1)) if cp.group(1) else (rel if rel is not None else 1)
            cutoff = int(cp.group(2))
            _check_cutoff(name, cutoff)
            # named like ir_measures names its own: the default rel=1 is left out
            label = "CP" if threshold == 1 else f"CP(rel={threshold})"
            specs.append(MeasureSpec(name=f"{label}@{cutoff}", cutoff=cutoff, rel=threshold))
            continue
        try:
            measure = ir_measures.parse_measure(name)
        except (ValueError, NameError, KeyError, AttributeError) as exc:
            raise UsageError(f"unknown measure {name!r}: {exc}") from exc
        _check_cutoff(name, measure.params.get("cutoff"))
        supported = getattr(measure, "SUPPORTED_PARAMS", {})
        if rel is not None and "rel" in supported and "rel" not in measure.params:
            measure = measure(rel=rel)
        if gains == "exp" and "gains" in supported and "gains" not in measure.params:
            measure = measure(gains={g: 2**g - 1 if g > 0 else 0 for g in grade_set})
        specs.append(MeasureSpec(name=str(measure), measure=measure))
    if not specs:
        raise UsageError("no measures given")
    names_seen = [spec.name for spec in specs]
    if len(set(names_seen)) != len(names_seen):
        raise UsageError("a measure is named twice")
    return specs


def takes_rel(name: str) -> bool:
    """Whether a measure named so takes its relevance threshold from ``--rel``: it has one and
    does not name its own (``R@10`` does, ``R(rel=1)@10``, ``nDCG@10`` do not)."""
    if _CONTEXT_PRECISION.match(name.strip()):
        return "(rel=" not in name
    try:
        measure = ir_measures.parse_measure(name.strip())
    except (ValueError, NameError, KeyError, AttributeError):
        return False
    return "rel" in getattr(measure, "SUPPORTED_PARAMS", {}) and "rel" not in measure.params


def _check_cutoff(name: str, cutoff: object) -> None:
    """A cutoff below 1 is refused here: pytrec_eval's C code aborts the process on @0."""
    if cutoff is not None and (not isinstance(cutoff, int) or cutoff < 1):
        raise UsageError(f"measure {name!r}: the cutoff (@k) must be at least 1")


#: The ir_measures providers whose measures with a cut-off k read only a run's top k (any
#: order of its ties): pytrec_eval's (trec_eval's P_k, recall_k, ndcg_cut_k, map_cut_k,
#: success_k), msmarco's RR@k and judged's Judged@k, checked against their sources
#: (ir_measures 0.4.3). A run is cut before them, not before other providers, whose
#: measures were not checked so.
CUT_PROVIDERS = frozenset({"pytrec_eval", "msmarco", "judged"})


@dataclass(frozen=True)
class _Provided:
    """The measures one ir_measures provider computes, its evaluator over the qrels, and the
    depth of run it reads: the deepest cut-off of its measures (None: one has none, the whole
    run)."""

    evaluator: ir_measures.providers.Evaluator
    depth: int | None


def _providers(measures: Sequence[ir_measures.Measure], qrels: Qrels) -> list[_Provided]:
    """Each measure with the provider ir_measures' default pipeline would give it (the first
    available one that supports it, as its FallbackProvider chooses), one evaluator a
    provider. Called directly, the providers skip the fallback's per-result bookkeeping."""
    left = list(measures)
    found: list[_Provided] = []
    for provider in ir_measures.DefaultPipeline.providers:
        mine = [m for m in left if provider.supports(m)]
        if not mine or not provider.is_available():
            continue
        left = [m for m in left if all(m is not taken for taken in mine)]
        # pytrec_eval puts an nDCG without gains into its first invocation (trec_eval's nDCG
        # does not read the relevance level): listed last, it shares the pass over the run of
        # the measures with a rel instead of a pass of its own
        mine.sort(key=lambda m: m.NAME == "nDCG" and "gains" not in m.params)
        depth = _depth(mine) if provider.NAME in CUT_PROVIDERS else None
        found.append(_Provided(provider.evaluator(mine, qrels), depth))
    if left:
        ir_measures.evaluator(left, qrels)  # raises ir_measures' own "Unsupported measures"
    return found


def _depth(measures: Sequence[ir_measures.Measure]) -> int | None:
    """The deepest cut-off of ``measures`` when every one has a cut-off and counts every
    document (None: the whole run; ``judged_only`` looks past unjudged documents, so beyond
    its cut-off in the run)."""
    cutoffs = [m.params.get("cutoff") for m in measures]
    if any(m.params.get("judged_only") for m in measures):
        return None
    return max(cutoffs) if all(isinstance(c, int) for c in cutoffs) else None


def top(docs: list[tuple[str, float]], depth: int | None) -> list[tuple[str, float]]:
    """A ranking cut to what any measure of cut-off ``depth`` can see, whatever order a
    provider breaks ties in: the ``depth`` best scores and every document tied with the last
    of them (None: the whole ranking)."""
    if depth is None or len(docs) <= depth:
        return docs
    last = docs[depth - 1][1]
    end = depth
    while end < len(docs) and docs[end][1] == last:
        end += 1
    return docs[:end]


class Scorer:
    """Per-query values of ``specs`` for any number of runs against one qrels: each
    ir_measures provider's evaluator reads the qrels once (not once a run) and sees each run
    cut to the depth its measures read; context precision is ours."""

    def __init__(self, qrels: Qrels, specs: Sequence[MeasureSpec]) -> None:
        self.qrels = qrels
        self.specs = list(specs)
        standard = [spec.measure for spec in specs if spec.measure is not None]
        # by identity first: a measure hashes by its repr, costly once a result
        self._names = {id(spec.measure): spec.name for spec in specs if spec.measure is not None}
        self._equal = {spec.measure: spec.name for spec in specs if spec.measure is not None}
        self._provided = _providers(standard, qrels) if standard and qrels else []

    def values(self, run: Run) -> dict[str, dict[str, float]]:
        """measure name -> qid -> value, for every query of the qrels (absent from the run:
        the measure's default, 0)."""
        qids = list(self.qrels)
        values = {
            spec.name: dict.fromkeys(qids, float(spec.measure.DEFAULT if spec.measure else 0.0))
            for spec in self.specs
        }
        for provided in self._provided:
            # a query without results scores the default (ir_measures' Judged@k would divide
            # by its zero results: a condensed run can have none left)
            scored = {qid: dict(top(run[qid], provided.depth)) for qid in qids if run.get(qid)}
            if scored:
                self._fill(provided.evaluator, scored, values)
        for spec in self.specs:
            if spec.measure is not None:
                continue
            column = values[spec.name]
            for qid in qids:
                if qid in run:
                    ranking = [docid for docid, _ in run[qid][: spec.cutoff]]
                    column[qid] = context_precision(ranking, self.qrels[qid], spec.cutoff, spec.rel)
        return values

    def _name(self, measure: ir_measures.Measure) -> str:
        """The name of one of our measures, as a provider hands it back."""
        return self._names.get(id(measure)) or self._equal[measure]

    def _fill(
        self,
        evaluator: ir_measures.providers.Evaluator,
        scored: dict[str, dict[str, float]],
        values: dict[str, dict[str, float]],
    ) -> None:
        """The evaluator's values of the run ``scored`` into ``values``."""
        invokers = getattr(evaluator, "invokers", None)
        if invokers is not None:
            # pytrec_eval's provider: its RelevanceEvaluator called once an invocation, the
            # results taken as they come (what its iter_calc does, without a Metric a value)
            for invoker in invokers:
                for qid, found in invoker.evaluator.evaluate(scored).items():
                    for measure_str, value in found.items():
                        column = values[self._name(invoker.measure_map[measure_str][0])]
                        if qid in column:
                            column[qid] = float(value)
            return
        for metric in evaluator.iter_calc(scored):
            column = values[self._name(metric.measure)]
            if metric.query_id in column:
                column[metric.query_id] = float(metric.value)


def per_query(qrels: Qrels, run: Run, specs: Sequence[MeasureSpec]) -> dict[str, dict[str, float]]:
    """measure name -> qid -> value, for every query of the qrels (absent from the run: 0)."""
    return Scorer(qrels, specs).values(run)
