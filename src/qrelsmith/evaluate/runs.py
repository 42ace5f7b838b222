"""TREC runs: read (a path, ``-`` for stdin, or an open text file), ordered as trec_eval
orders them, and written.

A bad line is a ``DataError`` naming the file and that line. A build's own files (qrels.trec
among them) are read by ``buildfolder``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO

from ..errors import DataError
from ..files import read_source

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


def read_run(source: str | Path | IO[str], warn: Callable[[str], None] | None = None) -> Run:
    """Read a TREC run (``qid Q0 docid rank score tag``); duplicates of a docid keep the first
    (``warn`` is told how many there were). A line that is no run line, or whose score is no
    finite number (NaN, inf would rank as numbers do not), is a DataError naming the file and
    the line."""
    text, name = read_source(source)
    seen: set[tuple[str, str]] = set()
    unique = []
    duplicates: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 6:
            raise DataError(f"{name}:{number}: not a TREC run line (qid Q0 docid rank score tag)")
        qid, _, docid, _, score_text, _ = parts
        try:
            score = float(score_text)
        except ValueError:
            raise DataError(
                f"{name}:{number}: the score {score_text[:40]!r} is not a number"
            ) from None
        if not math.isfinite(score):
            raise DataError(
                f"{name}:{number}: the score {score_text[:40]!r} is not a finite number"
            )
        if (qid, docid) in seen:
            duplicates.append(number)
            continue
        seen.add((qid, docid))
        unique.append((qid, docid, score))
    if duplicates and warn is not None:
        lines = ", ".join(map(str, duplicates[:5])) + (" ..." if len(duplicates) > 5 else "")
        warn(
            f"{name}: {len(duplicates)} lines repeat a (query, document) pair of an earlier "
            f"line and are left out (line {lines})"
        )
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
