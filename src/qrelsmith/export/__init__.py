"""Writers for a build's outputs, one module per format, all atomic.

``EXPORTERS`` is the registry of golden-set writers: each takes the output folder, the corpus
and the queries. ``write_golden_set`` runs them all (what ``audit apply`` uses to write a
corrected version); ``write_build`` adds the corpus and the report.

A large build streams instead: ``render_article`` turns one article's records into its lines
of every file in ``LINE_FILES`` (in a worker process), and ``BuildWriter`` appends them in
article-id order. Both paths use the same line renderers, so they write the same bytes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, NamedTuple

from .. import layout
from ..errors import DataError
from ..files import atomic_open_bytes
from ..labels import sections_by_article
from ..models import CorpusRecord, GoldenQuery, Report
from . import beir, jsonl, trec

Exporter = Callable[[Path, Sequence[CorpusRecord], Sequence[GoldenQuery]], None]

EXPORTERS: dict[str, Exporter] = {
    "golden": jsonl.write_golden,
    "trec": trec.write_qrels,
    "topics": trec.write_queries_tsv,
    "beir": beir.write_beir,
}

LineRenderer = Callable[
    [Sequence[CorpusRecord], Sequence[GoldenQuery], Mapping[str, Sequence[str]]], Iterator[str]
]


class LineFile(NamedTuple):
    """One line-per-record output of a build: where it goes, its header, its line renderer."""

    name: str
    header: str
    lines: LineRenderer


#: Every line file of a build, in the order ``render_article`` returns their blocks.
LINE_FILES: tuple[LineFile, ...] = (
    LineFile(layout.CORPUS, "", jsonl.corpus_lines),
    LineFile(layout.GOLDEN, "", jsonl.golden_lines),
    LineFile(layout.QRELS, "", trec.qrels_lines),
    LineFile(layout.QUERIES, "", trec.topic_lines),
    LineFile(layout.BEIR_CORPUS, "", beir.document_lines),
    LineFile(layout.BEIR_QUERIES, "", beir.query_lines),
    LineFile(layout.BEIR_QRELS, beir.QRELS_HEADER, beir.qrels_lines),
)


def render_article(
    corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> tuple[bytes, ...]:
    """The UTF-8 bytes each of ``LINE_FILES`` gets for these records (one article's, or a
    whole build's: a query's qrels rows need its own article's sections among ``corpus``).
    Bytes: a worker encodes them, and the process that writes them only copies."""
    by_article = sections_by_article(corpus)
    return tuple(
        "".join(file.lines(corpus, queries, by_article)).encode("utf-8") for file in LINE_FILES
    )


class BuildWriter:
    """Every output of a build, written article by article; files appear only on success.

    Use as a context manager: ``write`` the blocks of each article in article-id order, then
    ``finish`` with the report. Leaving the block by an exception, or without ``finish``,
    removes every temporary file and leaves earlier outputs in place.
    """

    def __init__(self, out_dir: str | Path) -> None:
        self.folder = Path(out_dir)
        self._stack = contextlib.ExitStack()
        self._handles: list[IO[bytes]] = []
        self._finished = False

    def __enter__(self) -> BuildWriter:
        try:
            for file in LINE_FILES:
                handle = self._stack.enter_context(atomic_open_bytes(self.folder / file.name))
                handle.write(file.header.encode("utf-8"))
                self._handles.append(handle)
        except BaseException as exc:
            # The files opened so far see the error and are removed (close() would have
            # renamed them into place, half-written).
            self._stack.__exit__(type(exc), exc, exc.__traceback__)
            raise
        return self

    def write(self, blocks: Sequence[bytes]) -> None:
        """Append one article's blocks (from ``render_article``)."""
        for handle, block, file in zip(self._handles, blocks, LINE_FILES, strict=True):
            if block:
                try:
                    handle.write(block)
                except OSError as exc:
                    where = self.folder / file.name
                    raise DataError(f"cannot write {where}: {exc.strerror or exc}") from exc

    def finish(self, report: Report) -> None:
        """Write report.json; the line files are renamed into place when the block ends."""
        jsonl.write_report(self.folder, report)
        self._finished = True

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> bool | None:
        if kind is None and not self._finished:
            error = RuntimeError("BuildWriter left without finish(report)")
            self._stack.__exit__(type(error), error, None)
            raise error
        return self._stack.__exit__(kind, error, trace)


def write_golden_set(
    out_dir: str | Path, corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> None:
    """Write golden.jsonl, qrels.trec, queries.tsv and beir/ into ``out_dir``."""
    folder = Path(out_dir)
    for write in EXPORTERS.values():
        write(folder, corpus, queries)


def write_regraded(
    out_dir: str | Path,
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    rows: Iterable[tuple[str, str, int]],
) -> None:
    """A golden set graded elsewhere (``align``'s chunks): corpus.jsonl, golden.jsonl and
    queries.tsv as a build writes them; qrels.trec and beir/ from the (qid, docid, grade)
    ``rows``."""
    folder, graded = Path(out_dir), list(rows)
    jsonl.write_corpus(folder, corpus)
    jsonl.write_golden(folder, corpus, queries)
    trec.write_queries_tsv(folder, corpus, queries)
    trec.write_qrels_rows(folder, graded)
    beir.write_layout(folder, corpus, queries, graded)


def write_build(
    out_dir: str | Path,
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    report: Report,
) -> None:
    """Write every output of a build: corpus.jsonl, the golden set and report.json."""
    with BuildWriter(out_dir) as writer:
        writer.write(render_article(corpus, queries))
        writer.finish(report)
