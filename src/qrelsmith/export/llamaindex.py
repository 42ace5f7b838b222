"""LlamaIndex: an ``EmbeddingQAFinetuneDataset`` JSON (``queries``, ``corpus``,
``relevant_docs``), which its retriever evaluation and embedding fine-tuning load with
``EmbeddingQAFinetuneDataset.from_json``. Binary: ``relevant_docs`` lists the grade-2
sections only.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..store.files import write_text
from .records import ExportSource, contents

DATASET = "llamaindex.json"
ENTRIES = frozenset({DATASET})


def write(folder: Path, source: ExportSource) -> str:
    """The dataset; returns the summary's counts."""
    queries = {q.qid: q.query for q in source.queries}
    corpus = {r.id: contents(r) for r in source.corpus}
    relevant = {q.qid: [r.id for r in source.named(q)] for q in source.queries}
    dataset = {"queries": queries, "corpus": corpus, "relevant_docs": relevant, "mode": "text"}
    write_text(folder / DATASET, json.dumps(dataset, ensure_ascii=False, indent=1) + "\n")
    return f"{len(queries)} queries, {len(corpus)} documents ({DATASET})"
