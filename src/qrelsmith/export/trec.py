"""TREC qrels (``qid 0 docid grade``) and the topics file ``queries.tsv`` (``qid<TAB>query``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from .. import layout
from ..files import atomic_open
from ..labels import qrels_rows, sections_by_article
from ..models import CorpusRecord, GoldenQuery

#: One row of qrels.trec: query, iteration (always 0), document, grade.
QRELS_LINE = "{} 0 {} {}\n"

_LINE_BREAKS = re.compile(r"[\t\r\n\v\f\x85\u2028\u2029]+")


def one_line(text: str) -> str:
    """Text safe for one TSV field: tabs and line breaks become spaces."""
    return _LINE_BREAKS.sub(" ", text).strip()


def qrels_lines(
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    by_article: Mapping[str, Sequence[str]],
) -> Iterator[str]:
    """qrels.trec's lines: grade 2 and 1 rows of every query."""
    del corpus
    return graded_lines(queries, by_article, QRELS_LINE)


def graded_lines(
    queries: Sequence[GoldenQuery], by_article: Mapping[str, Sequence[str]], line: str
) -> Iterator[str]:
    """``line`` filled with (qid, docid, grade) for every graded section of every query."""
    for row in qrels_rows(queries, by_article):
        yield line.format(*row)


def topic_lines(
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    by_article: Mapping[str, Sequence[str]],
) -> Iterator[str]:
    """queries.tsv's lines."""
    del corpus, by_article
    for query in queries:
        yield f"{query.qid}\t{one_line(query.query)}\n"


def write_qrels(
    folder: Path, corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> None:
    """Grades 2 and 1 for every query, as trec_eval, pytrec_eval and ir_measures read them."""
    write_qrels_rows(folder, qrels_rows(queries, sections_by_article(corpus)))


def write_qrels_rows(folder: Path, rows: Iterable[tuple[str, str, int]]) -> None:
    """qrels.trec from (qid, docid, grade) rows graded elsewhere (``align``'s chunks)."""
    with atomic_open(folder / layout.QRELS) as handle:
        handle.writelines(QRELS_LINE.format(*row) for row in rows)


def write_queries_tsv(
    folder: Path, corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> None:
    """The topics file Pyserini and Anserini take."""
    with atomic_open(folder / layout.QUERIES) as handle:
        handle.writelines(topic_lines(corpus, queries, {}))
