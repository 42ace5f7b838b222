"""The layout BEIR's GenericDataLoader loads: corpus.jsonl, queries.jsonl, qrels/test.tsv."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from .. import files, layout
from ..files import atomic_open
from ..labels import qrels_rows, sections_by_article
from ..models import BeirDocument, BeirQuery, CorpusRecord, GoldenQuery
from .trec import graded_lines

QRELS_HEADER = "query-id\tcorpus-id\tscore\n"
QRELS_LINE = "{}\t{}\t{}\n"


def document_lines(
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    by_article: Mapping[str, Sequence[str]],
) -> Iterator[str]:
    """Sections as documents: ``title`` is the heading."""
    del queries, by_article
    for r in corpus:
        yield files.dumps(BeirDocument(_id=r.id, title=r.heading, text=r.text)) + "\n"


def query_lines(
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    by_article: Mapping[str, Sequence[str]],
) -> Iterator[str]:
    """Queries as ``{"_id", "text"}``."""
    del corpus, by_article
    for q in queries:
        yield files.dumps(BeirQuery(_id=q.qid, text=q.query)) + "\n"


def qrels_lines(
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    by_article: Mapping[str, Sequence[str]],
) -> Iterator[str]:
    """The graded qrels as the test split (the header is ``QRELS_HEADER``)."""
    del corpus
    return graded_lines(queries, by_article, QRELS_LINE)


def write_beir(
    folder: Path, corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> None:
    """Sections as documents (title = heading), queries, and the graded qrels as the test split."""
    write_layout(folder, corpus, queries, qrels_rows(queries, sections_by_article(corpus)))


def write_layout(
    folder: Path,
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    rows: Iterable[tuple[str, str, int]],
) -> None:
    """The BEIR layout of these records with (query, document, grade) rows; ``write_beir``
    grades them by the build's rule, ``align`` by its chunks' overlap."""
    with atomic_open(folder / layout.BEIR_CORPUS) as handle:
        handle.writelines(document_lines(corpus, queries, {}))
    with atomic_open(folder / layout.BEIR_QUERIES) as handle:
        handle.writelines(query_lines(corpus, queries, {}))
    with atomic_open(folder / layout.BEIR_QRELS) as handle:
        handle.write(QRELS_HEADER)
        handle.writelines(QRELS_LINE.format(*row) for row in rows)
