"""TREC qrels (``qid 0 docid grade``) and the topics file ``queries.tsv`` (``qid<TAB>query``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from ..files import atomic_open
from ..labels import qrels_rows, sections_by_article
from ..models import CorpusRecord, GoldenQuery

QRELS = "qrels.trec"
QUERIES = "queries.tsv"

_LINE_BREAKS = re.compile(r"[\t\r\n\v\f\x85\u2028\u2029]+")


def one_line(text: str) -> str:
    """Text safe for one TSV field: tabs and line breaks become spaces."""
    return _LINE_BREAKS.sub(" ", text).strip()


def write_qrels(
    folder: Path, corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> None:
    """Grades 2 and 1 for every query, as trec_eval, pytrec_eval and ir_measures read them."""
    by_article = sections_by_article(corpus)
    with atomic_open(folder / QRELS) as handle:
        for qid, docid, grade in qrels_rows(queries, by_article):
            handle.write(f"{qid} 0 {docid} {grade}\n")


def write_queries_tsv(
    folder: Path, corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> None:
    """The topics file Pyserini and Anserini take."""
    del corpus
    with atomic_open(folder / QUERIES) as handle:
        for query in queries:
            handle.write(f"{query.qid}\t{one_line(query.query)}\n")
