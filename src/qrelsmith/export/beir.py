"""The layout BEIR's GenericDataLoader loads: corpus.jsonl, queries.jsonl, qrels/test.tsv."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..files import atomic_open, write_jsonl
from ..labels import qrels_rows, sections_by_article
from ..models import BeirDocument, BeirQuery, CorpusRecord, GoldenQuery

FOLDER = "beir"


def write_beir(
    folder: Path, corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> None:
    """Sections as documents (title = heading), queries, and the graded qrels as the test split."""
    target = folder / FOLDER
    write_jsonl(
        target / "corpus.jsonl",
        (BeirDocument(_id=r.id, title=r.heading, text=r.text) for r in corpus),
    )
    write_jsonl(target / "queries.jsonl", (BeirQuery(_id=q.qid, text=q.query) for q in queries))
    by_article = sections_by_article(corpus)
    with atomic_open(target / "qrels" / "test.tsv") as handle:
        handle.write("query-id\tcorpus-id\tscore\n")
        for qid, docid, grade in qrels_rows(queries, by_article):
            handle.write(f"{qid}\t{docid}\t{grade}\n")
