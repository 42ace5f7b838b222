"""corpus.jsonl, golden.jsonl and report.json."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from .. import files, layout
from ..files import write_json, write_jsonl
from ..models import CorpusRecord, GoldenQuery, Report


def corpus_lines(
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    by_article: Mapping[str, Sequence[str]],
) -> Iterator[str]:
    """corpus.jsonl's lines for these sections."""
    del queries, by_article
    for record in corpus:
        yield files.dumps(record) + "\n"


def golden_lines(
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    by_article: Mapping[str, Sequence[str]],
) -> Iterator[str]:
    """golden.jsonl's lines for these queries."""
    del corpus, by_article
    for query in queries:
        yield files.dumps(query) + "\n"


def write_corpus(folder: Path, corpus: Sequence[CorpusRecord]) -> None:
    """One section a line."""
    write_jsonl(folder / layout.CORPUS, corpus)


def write_golden(
    folder: Path, corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> None:
    """One query a line (the corpus is not needed: the grade-2 targets are in the query)."""
    del corpus
    write_jsonl(folder / layout.GOLDEN, queries)


def write_report(folder: Path, report: Report) -> None:
    """Counts, skipped pages, rejected rows and the manifest."""
    write_json(folder / layout.REPORT, report)
