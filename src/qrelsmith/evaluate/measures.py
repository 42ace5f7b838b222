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


class Scorer:
    """Per-query values of ``specs`` for any number of runs against one qrels: ir_measures'
    evaluator reads the qrels once (not once a run), context precision is ours."""

    def __init__(self, qrels: Qrels, specs: Sequence[MeasureSpec]) -> None:
        self.qrels = qrels
        self.specs = list(specs)
        standard = [spec.measure for spec in specs if spec.measure is not None]
        self._names = {spec.measure: spec.name for spec in specs if spec.measure is not None}
        self._evaluator = ir_measures.evaluator(standard, qrels) if standard and qrels else None

    def values(self, run: Run) -> dict[str, dict[str, float]]:
        """measure name -> qid -> value, for every query of the qrels (absent from the run: 0)."""
        qids = list(self.qrels)
        values = {spec.name: dict.fromkeys(qids, 0.0) for spec in self.specs}
        if self._evaluator is not None:
            scored = {qid: dict(run[qid]) for qid in qids if qid in run}
            # a measure's hash is its repr, costly a result: look each result's measure up by
            # identity first (the entry holds the measure, so its id is not reused meanwhile)
            by_id: dict[int, tuple[object, dict[str, float]]] = {}
            for metric in self._evaluator.iter_calc(scored) if scored else ():
                entry = by_id.get(id(metric.measure))
                if entry is None or entry[0] is not metric.measure:
                    column = values[self._names[metric.measure]]
                    entry = by_id[id(metric.measure)] = (metric.measure, column)
                if metric.query_id in entry[1]:
                    entry[1][metric.query_id] = float(metric.value)
        for spec in self.specs:
            if spec.measure is not None:
                continue
            column = values[spec.name]
            for qid in qids:
                if qid in run:
                    ranking = [docid for docid, _ in run[qid]]
                    column[qid] = context_precision(ranking, self.qrels[qid], spec.cutoff, spec.rel)
        return values


def per_query(qrels: Qrels, run: Run, specs: Sequence[MeasureSpec]) -> dict[str, dict[str, float]]:
    """measure name -> qid -> value, for every query of the qrels (absent from the run: 0)."""
    return Scorer(qrels, specs).values(run)
