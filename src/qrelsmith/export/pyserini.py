"""Pyserini / Anserini: a JsonCollection (``id``, ``contents``), the topics TSV and qrels.

Anserini's JsonCollection indexes every ``*.jsonl`` file of a folder, reading ``id`` and
``contents`` (a build's corpus.jsonl has neither, so it indexes as 0 documents). ``contents``
is the heading and the text: BM25 over the section should see its heading too. Grades
survive: qrels.trec is a build's (2 the named section, 1 the rest of its article).
"""

from __future__ import annotations

from pathlib import Path

from ..store import files, layout
from ..store.files import atomic_open
from ..store.formats.trec import qrels_lines, topic_lines
from .records import ExportSource, contents

COLLECTION = "corpus"
DOCUMENTS = f"{COLLECTION}/docs.jsonl"
TOPICS = "topics.tsv"
QRELS = layout.QRELS
ENTRIES = frozenset({COLLECTION, TOPICS, QRELS})


def write(folder: Path, source: ExportSource) -> str:
    """The collection, topics and qrels; returns the summary's counts."""
    documents = files.write_jsonl(
        folder / DOCUMENTS, ({"id": r.id, "contents": contents(r)} for r in source.corpus)
    )
    with atomic_open(folder / TOPICS) as handle:
        handle.writelines(topic_lines(source.records))
    with atomic_open(folder / QRELS) as handle:
        handle.writelines(qrels_lines(source.records))
    return f"{documents} documents ({DOCUMENTS}), {len(source.queries)} topics, qrels"
