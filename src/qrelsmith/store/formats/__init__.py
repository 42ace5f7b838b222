"""The build folder's own output formats: what a build writes, apart from the export kinds.

A build folder's files come in formats (``BUILD_FORMATS``: corpus, golden, trec, beir), each a
tuple of ``OutputFile`` — a name (from layout.py), a header and a function from the
``GoldenSet`` to its lines. ``BuildWriter`` writes any such files, atomically: a build streams
the blocks ``render_article`` makes for one article at a time (in a worker process), and
``write_golden_set`` / ``write_regraded`` / ``write_build`` give it a whole set. Every path
uses the same line functions, so they write the same bytes. A page worker imports this
package, never ``export/`` (the kinds of ``qrelsmith export`` and their libraries).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, NamedTuple

from ...errors import DataError
from ...models import CorpusRecord, GoldenQuery, Report
from .. import layout
from ..files import atomic_open_bytes
from . import beir, jsonl, trec
from .goldenset import GoldenSet, golden_set

#: A file's lines for a golden set, in UTF-8 (JSON lines straight from pydantic's serializer,
#: which writes bytes; text lines through ``utf8``).
LineRenderer = Callable[[GoldenSet], Iterator[bytes]]


class OutputFile(NamedTuple):
    """One line-per-record output file: where it goes, its header, its line renderer."""

    name: str
    header: str
    lines: LineRenderer


def utf8(lines: Callable[[GoldenSet], Iterator[str]]) -> LineRenderer:
    """A renderer of text lines as one UTF-8 block (one encode for all of them)."""

    def encoded(records: GoldenSet) -> Iterator[bytes]:
        yield "".join(lines(records)).encode("utf-8")

    return encoded


#: The formats of a build folder and the files each writes (their order is the order of
#: ``render_article``'s blocks).
BUILD_FORMATS: dict[str, tuple[OutputFile, ...]] = {
    "corpus": (OutputFile(layout.CORPUS, "", jsonl.corpus_lines),),
    "golden": (OutputFile(layout.GOLDEN, "", jsonl.golden_lines),),
    "trec": (
        OutputFile(layout.QRELS, "", utf8(trec.qrels_lines)),
        OutputFile(layout.QUERIES, "", utf8(trec.topic_lines)),
    ),
    "beir": (
        OutputFile(layout.BEIR_CORPUS, "", beir.document_lines),
        OutputFile(layout.BEIR_QUERIES, "", beir.query_lines),
        OutputFile(layout.BEIR_QRELS, beir.QRELS_HEADER, utf8(beir.qrels_lines)),
    ),
}

#: Every line file of a build, in the order ``render_article`` returns their blocks.
LINE_FILES: tuple[OutputFile, ...] = tuple(f for files in BUILD_FORMATS.values() for f in files)
#: A golden set without its corpus (a reviewed version copies the build's corpus.jsonl).
GOLDEN_SET_FILES: tuple[OutputFile, ...] = tuple(
    f for kind in ("golden", "trec", "beir") for f in BUILD_FORMATS[kind]
)


def render(records: GoldenSet, files: Sequence[OutputFile] = LINE_FILES) -> tuple[bytes, ...]:
    """The UTF-8 bytes each of ``files`` gets for these records (headers not included)."""
    return tuple(b"".join(file.lines(records)) for file in files)


def render_article(
    corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> tuple[bytes, ...]:
    """The UTF-8 bytes each of ``LINE_FILES`` gets for these records (one article's, or a
    whole build's: a query's qrels rows need its own article's sections among ``corpus``).
    Bytes: a worker encodes them, and the process that writes them only copies."""
    return render(golden_set(corpus, queries))


class BuildWriter:
    """Every output of a build, written article by article; files appear only on success.

    Use as a context manager: ``write`` the blocks of each article in article-id order, then
    ``finish`` with the report. Leaving the block by an exception, or without ``finish``,
    removes every temporary file and leaves earlier outputs in place.
    """

    def __init__(self, out_dir: str | Path, files: Sequence[OutputFile] = LINE_FILES) -> None:
        self.folder = Path(out_dir)
        self.files = tuple(files)
        self._stack = contextlib.ExitStack()
        self._handles: list[IO[bytes]] = []
        self._finished = False

    def __enter__(self) -> BuildWriter:
        try:
            for file in self.files:
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
        for handle, block, file in zip(self._handles, blocks, self.files, strict=True):
            if block:
                try:
                    handle.write(block)
                except OSError as exc:
                    where = self.folder / file.name
                    raise DataError(f"cannot write {where}: {exc.strerror or exc}") from exc

    def finish(self, report: Report | None = None) -> None:
        """Write report.json (a build's); the files are renamed into place when the block
        ends."""
        if report is not None:
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


def write_files(out_dir: str | Path, records: GoldenSet, files: Sequence[OutputFile]) -> None:
    """The one writer of a whole set: ``files`` for ``records``, each atomically."""
    with BuildWriter(out_dir, files) as writer:
        writer.write(render(records, files))
        writer.finish()


def write_golden_set(
    out_dir: str | Path, corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> None:
    """Write golden.jsonl, qrels.trec, queries.tsv and beir/ into ``out_dir``."""
    write_files(out_dir, golden_set(corpus, queries), GOLDEN_SET_FILES)


def write_regraded(
    out_dir: str | Path,
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    rows: Iterable[tuple[str, str, int]],
) -> None:
    """A golden set graded elsewhere (``align``'s chunks): every file of a build but
    report.json, with qrels.trec and beir/ from the (qid, docid, grade) ``rows``."""
    write_files(out_dir, golden_set(corpus, queries, rows), LINE_FILES)


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
