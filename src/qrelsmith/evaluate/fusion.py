"""Reciprocal rank fusion of runs already written (Cormack, Clarke and Buettcher, SIGIR 2009):
`qrelsmith baseline DIR --method rrf --runs A.trec B.trec`.

A document's fused score is the sum, over the runs that retrieve it for the query, of
1 / (k + r): r its rank in that run, counted from 1 in trec_eval's order of the run (score
down, then document id down: ``runs.read_run``'s, not the rank column), k = 60 by default
(``patterns.RRF_K``). The fused run is ranked as every baseline run is: the score as written
(6 decimals) down, then the document id down, the top k of ``--k``. Its tag names the method,
k and the fused runs' tags in order (``rrf-k60-bm25-c2-3+tfidf-c2-3``).

Only runs of the build are fused: a run none of whose queries or documents the build knows
is refused as eval refuses it (``runs.check_run_ids``), and so is a run naming a single query
or document the build does not hold (its fused scores would be sums over other things).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np

from ..errors import DataError
from ..store.buildfolder import Build
from ..store.layout import CORPUS, QUERIES
from .baseline import written_micro
from .runs import Run, check_run_ids, retrieved_ids

#: Unknown ids named in a refusal before "...".
SHOWN_IDS = 3


def fuse(
    runs: Sequence[Run], k: int, depth: int, qids: Iterable[str]
) -> Iterator[tuple[str, list[tuple[str, float]]]]:
    """(qid, its fused top ``depth`` (document id, written score)) for each of ``qids`` in
    that order; a query no run retrieves anything for is left out."""
    for qid in qids:
        scores: dict[str, float] = {}
        for run in runs:  # summed run after run, in the order given: the same doubles each time
            for rank, (docid, _) in enumerate(run.get(qid, ()), 1):
                scores[docid] = scores.get(docid, 0.0) + 1.0 / (k + rank)
        if scores:
            yield qid, ranked(scores, depth)


def ranked(scores: Mapping[str, float], depth: int) -> list[tuple[str, float]]:
    """The ``depth`` best (document id, score): the score as written with 6 decimals down,
    then the id down (the baseline ranker's order), each score the double of its text."""
    ids = list(scores)
    written = written_micro(np.fromiter(scores.values(), np.float64, len(ids))).tolist()
    order = sorted(range(len(ids)), key=lambda i: (written[i], ids[i]), reverse=True)
    return [(ids[i], written[i] / 1e6) for i in order[:depth]]


def check_fusable(
    shown: str, run: Run, build: Build, folder: str, topics: Mapping[str, str]
) -> None:
    """DataError unless every query and every document of ``run`` is the build's: a run of
    another build is refused as eval refuses it, then any id the build does not hold."""
    check_run_ids(shown, run, build, folder)
    queries = [qid for qid in run if qid not in topics]
    if queries:
        raise DataError(
            f"{shown}: {len(queries)} of its {len(run)} queries are not in {folder}/{QUERIES} "
            f"({_examples(queries)}): only runs of this build are fused"
        )
    documents = sorted(retrieved_ids(run) - build.doc_ids)
    if documents:
        raise DataError(
            f"{shown}: {len(documents)} of its retrieved documents are not in "
            f"{folder}/{CORPUS} ({_examples(documents)}): only runs of this build are fused"
        )


def _examples(ids: Sequence[str]) -> str:
    return ", ".join(ids[:SHOWN_IDS]) + (", ..." if len(ids) > SHOWN_IDS else "")


def fused_tag(method_tag: str, tags: Sequence[str]) -> str:
    """The fused run's tag: the method's (``rrf-k60``), then the fused runs' joined by +."""
    return "-".join([method_tag, "+".join(tag or "untagged" for tag in tags)])
