"""TREC qrels (``qid 0 docid grade``) and the topics file ``queries.tsv`` (``qid<TAB>query``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .goldenset import GoldenSet

#: One row of qrels.trec: query, iteration (always 0), document, grade.
QRELS_LINE = "{} 0 {} {}\n"

_LINE_BREAKS = re.compile(r"[\t\r\n\v\f\x85\u2028\u2029]+")


def one_line(text: str) -> str:
    """Text safe for one TSV field: tabs and line breaks become spaces."""
    return _LINE_BREAKS.sub(" ", text).strip()


def qrels_lines(records: GoldenSet) -> Iterator[str]:
    """qrels.trec: grades 2 and 1, as trec_eval, pytrec_eval and ir_measures read them."""
    return records.filled(QRELS_LINE)


def topic_lines(records: GoldenSet) -> Iterator[str]:
    """queries.tsv, the topics file Pyserini and Anserini take."""
    for query in records.queries:
        yield f"{query.qid}\t{one_line(query.query)}\n"
