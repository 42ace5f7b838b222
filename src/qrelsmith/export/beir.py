"""The layout BEIR's GenericDataLoader loads: corpus.jsonl, queries.jsonl, qrels/test.tsv."""

from __future__ import annotations

from collections.abc import Iterator

from .. import files
from ..models import BeirDocument, BeirQuery
from .records import GoldenSet

QRELS_HEADER = "query-id\tcorpus-id\tscore\n"
QRELS_LINE = "{}\t{}\t{}\n"


def document_lines(records: GoldenSet) -> Iterator[bytes]:
    """Sections as documents: ``title`` is the heading."""
    for r in records.corpus:
        yield files.json_line(BeirDocument(_id=r.id, title=r.heading, text=r.text))


def query_lines(records: GoldenSet) -> Iterator[bytes]:
    """Queries as ``{"_id", "text"}``."""
    for q in records.queries:
        yield files.json_line(BeirQuery(_id=q.qid, text=q.query))


def qrels_lines(records: GoldenSet) -> Iterator[str]:
    """The graded qrels as the test split (after ``QRELS_HEADER``)."""
    return records.filled(QRELS_LINE)
