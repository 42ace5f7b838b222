"""TREC runs: read (a path, ``-`` for stdin, or an open text file), ordered as trec_eval
orders them, and written.

A bad line is a ``DataError`` naming the file and that line. A build's own files (qrels.trec
among them) are read by ``buildfolder``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from itertools import chain, compress
from operator import gt, itemgetter, ne
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ..errors import DataError
from ..store.files import read_source
from ..store.layout import CORPUS, QRELS, QUERIES

if TYPE_CHECKING:
    from ..store.buildfolder import Build

#: qid -> [(docid, score)], best first in trec_eval's order
Run = dict[str, list[tuple[str, float]]]

#: A run file as runs are written (ours, trec_eval's, Anserini's): six fields a line, one space
#: between them, each line ended by a line break. A file that matches as a whole is split into
#: its fields at once (``read_run``'s fast path); any other file (tabs, blank lines, a line
#: that is no run line) is read line by line, which names a bad line. ``\S`` is the white
#: space of ``str.split``, so the fields align.
CANONICAL_RUN = re.compile(r"(?:\S++ \S++ \S++ \S++ \S++ \S++\n)*+")


def order_run(scored: Iterable[tuple[str, str, float]]) -> Run:
    """Group (qid, docid, score) and sort as trec_eval does: score down, then docid down.

    trec_eval ignores the rank column; ties in score are broken by the document id in
    decreasing string order, so our own measures see the same ranking as ir_measures.
    """
    run: Run = {}
    for qid, docid, score in scored:
        run.setdefault(qid, []).append((docid, score))
    for docs in run.values():
        # (score, docid) both descending in one sort: a run written in that order (as ours
        # are) is one already-sorted pass
        docs.sort(key=_score_then_docid, reverse=True)
    return run


def _score_then_docid(item: tuple[str, float]) -> tuple[float, str]:
    return item[1], item[0]


def read_run(source: str | Path | IO[str], warn: Callable[[str], None] | None = None) -> Run:
    """Read a TREC run (``qid Q0 docid rank score tag``); duplicates of a docid keep the first
    (``warn`` is told how many there were). A line that is no run line, or whose score is no
    finite number (NaN, inf would rank as numbers do not), is a DataError naming the file and
    the line."""
    return read_tagged_run(source, warn)[0]


def read_tagged_run(
    source: str | Path | IO[str], warn: Callable[[str], None] | None = None
) -> tuple[Run, str]:
    """``read_run``'s run and its tag: the last field of its first line ('' without one)."""
    text, name = read_source(source)
    run = canonical_run(text)
    if run is None:
        run = run_by_lines(text, name, warn)
    first = text.split(None, 6)  # the first line's six fields, and the rest
    return run, first[5] if len(first) > 5 else ""


def canonical_run(text: str) -> Run | None:
    """The run of a file in CANONICAL_RUN's form whose scores are finite numbers and whose
    queries name each document once, as ``run_by_lines`` reads it; None for any other file
    (``run_by_lines`` then says what is wrong, or warns of the repeated documents)."""
    if text and not text.endswith("\n"):
        text += "\n"
    if CANONICAL_RUN.fullmatch(text) is None:
        return None
    fields = text.split()
    if not fields:
        return {}
    qids, docids = fields[0::6], fields[2::6]
    try:
        scores = list(map(float, fields[4::6]))
    except ValueError:
        return None
    if not all(map(math.isfinite, scores)):
        return None
    pairs = list(zip(docids, scores, strict=True))
    # a query's lines are usually together: one slice each, joined when a query comes back
    starts = [0, *compress(range(1, len(qids)), map(ne, qids[1:], qids[:-1]))]
    run: Run = {}
    for low, high in zip(starts, [*starts[1:], len(qids)], strict=True):
        docs = run.get(qids[low])
        if docs is None:
            run[qids[low]] = pairs[low:high]
        else:
            docs += pairs[low:high]
    for docs in run.values():
        if len(dict(docs)) != len(docs):
            return None
        ranked = list(map(itemgetter(1), docs))
        if not all(map(gt, ranked, ranked[1:])):  # scores falling, no tie: in order already
            docs.sort(key=_score_then_docid, reverse=True)
    return run


def run_by_lines(text: str, name: str, warn: Callable[[str], None] | None = None) -> Run:
    """``read_run`` line by line: any white space between fields, blank lines, repeated
    documents (the first kept, ``warn`` told); a bad line is a DataError naming it."""
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
        if docs:  # one write a query: 100 small writes cost more than the formatting
            handle.write(ranking_lines(qid, docs, tag))
            count += len(docs)
    return count


def ranking_lines(qid: str, docs: list[tuple[str, float]], tag: str) -> str:
    """One query's run lines, as ``write_run`` writes them."""
    return "".join(
        f"{qid} Q0 {docid} {rank} {score:.6f} {tag}\n"
        for rank, (docid, score) in enumerate(docs, 1)
    )


def write_lines(handle: IO[str], chunks: Iterable[tuple[int, str]]) -> int:
    """Write run text already formatted, as (line count, text) chunks; returns the lines."""
    count = 0
    for lines, text in chunks:
        handle.write(text)
        count += lines
    return count


def run_names(paths: list[str]) -> list[str]:
    """A name for each run file: its stem, its path when two runs share the stem, ``stdin``
    for ``-``."""
    stems = [Path(p).stem if p != "-" else "stdin" for p in paths]
    return [p if stems.count(s) > 1 else s for p, s in zip(paths, stems, strict=True)]


def retrieved_ids(run: Run) -> set[str]:
    """Every document id a run retrieves."""
    return set(map(itemgetter(0), chain.from_iterable(run.values())))


def check_run_ids(shown: str, run: Run, build: Build, folder: str) -> None:
    """DataError when a run names none of the build's queries or none of its documents: it
    was made for another build (or other chunks), and would score 0 (eval) or look suspicious
    everywhere (check) without saying why. The queries are the qrels' (the topics' for a
    build without qrels.trec)."""
    queries, where = (build.qrels, QRELS) if build.qrels else (build.topics, QUERIES)
    if not any(qid in queries for qid in run):
        raise DataError(
            f"{shown}: none of its {len(run)} queries is in {folder}/{where}: "
            "a run of another build?"
        )
    if build.corpus:
        retrieved = retrieved_ids(run)
        if retrieved.isdisjoint(build.doc_ids):
            raise DataError(
                f"{shown}: none of its {len(retrieved)} retrieved documents is in "
                f"{folder}/{CORPUS}: a run of another build, or of your own chunks "
                "(qrelsmith align maps the labels to them)?"
            )
