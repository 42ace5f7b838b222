"""The layout BEIR's GenericDataLoader loads: corpus.jsonl, queries.jsonl, qrels/test.tsv."""

from __future__ import annotations

from collections.abc import Iterator

from ...models import BeirQuery
from .. import files
from .goldenset import GoldenSet

QRELS_HEADER = "query-id\tcorpus-id\tscore\n"
QRELS_LINE = "{}\t{}\t{}\n"


def document_lines(records: GoldenSet) -> Iterator[bytes]:
    """Sections as documents: ``title`` is the heading. Cut from corpus.jsonl's lines, which
    hold the same JSON of the id, the heading and the text: each text is escaped once."""
    return map(document_line, records.corpus_lines)


_ID, _ARTICLE_ID, _HEADING = b'{"id":', b',"article_id":', b',"heading":'


def document_line(corpus_line: bytes) -> bytes:
    """A ``BeirDocument``'s line from the ``CorpusRecord`` line of the same section.

    A record's JSON opens with its id and ends with its heading and text (the model's field
    order), and a JSON string writes each quote of its value as ``\\"``: the ``,"name":``
    between two fields cannot occur inside a value, so the first one found is that field's.
    """
    article_id = corpus_line.index(_ARTICLE_ID)
    heading = corpus_line.index(_HEADING, article_id)
    return b"".join(
        (
            b'{"_id":',
            corpus_line[len(_ID) : article_id],
            b',"title":',
            corpus_line[heading + len(_HEADING) :],
        )
    )


def query_lines(records: GoldenSet) -> Iterator[bytes]:
    """Queries as ``{"_id", "text"}``."""
    for q in records.queries:
        yield files.json_line(BeirQuery(_id=q.qid, text=q.query))


def qrels_lines(records: GoldenSet) -> Iterator[str]:
    """The graded qrels as the test split (after ``QRELS_HEADER``)."""
    return records.filled(QRELS_LINE)
