"""TREC runs: read (a path, ``-`` for stdin, or an open text file), ordered as trec_eval
orders them, and written.

Parsing of the lines is left to ir_measures' ``read_trec_run``; we only turn its
``ValueError`` into a ``DataError`` that names the file and the first bad line. A build's own
files (qrels.trec among them) are read by ``buildfolder``.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path
from typing import IO

import ir_measures

from ..errors import DataError
from ..files import first_bad_line, read_source

#: qid -> [(docid, score)], best first in trec_eval's order
Run = dict[str, list[tuple[str, float]]]


def order_run(scored: Iterable[tuple[str, str, float]]) -> Run:
    """Group (qid, docid, score) and sort as trec_eval does: score down, then docid down.

    trec_eval ignores the rank column; ties in score are broken by the document id in
    decreasing string order, so our own measures see the same ranking as ir_measures.
    """
    run: Run = {}
    for qid, docid, score in scored:
        run.setdefault(qid, []).append((docid, score))
    for docs in run.values():
        docs.sort(key=lambda item: item[0], reverse=True)
        docs.sort(key=lambda item: item[1], reverse=True)
    return run


def read_run(source: str | Path | IO[str]) -> Run:
    """Read a TREC run (``qid Q0 docid rank score tag``); duplicates of a docid keep the first."""
    text, name = read_source(source)
    try:
        docs = [
            (doc.query_id, doc.doc_id, float(doc.score))
            for doc in ir_measures.read_trec_run(io.StringIO(text))
        ]
    except ValueError as exc:
        line = first_bad_line(text.splitlines(), 6)
        raise DataError(
            f"{name}:{line}: not a TREC run line (qid Q0 docid rank score tag)"
        ) from exc
    seen: set[tuple[str, str]] = set()
    unique = []
    for qid, docid, score in docs:
        if (qid, docid) not in seen:
            seen.add((qid, docid))
            unique.append((qid, docid, score))
    return order_run(unique)


def write_run(
    handle: IO[str], run: Run | Iterable[tuple[str, list[tuple[str, float]]]], tag: str
) -> int:
    """Write ``qid Q0 docid rank score tag`` lines (a run, or its (qid, ranking) pairs as
    they come); returns the number of lines."""
    count = 0
    for qid, docs in run.items() if isinstance(run, dict) else run:
        for rank, (docid, score) in enumerate(docs, 1):
            handle.write(f"{qid} Q0 {docid} {rank} {score:.6f} {tag}\n")
            count += 1
    return count
