"""Ragas: one ``SingleTurnSample`` a line, as ``EvaluationDataset.from_jsonl`` reads them.

``user_input`` is the query, ``reference`` the author's answer, ``reference_contexts`` the
texts of the grade-2 sections and ``reference_context_ids`` their ids: what Ragas' id-based
context precision and recall compare a run's ``retrieved_context_ids`` with. Binary: only
grade 2 survives (the rest of the article, grade 1, is not a reference context).
"""

from __future__ import annotations

from pathlib import Path

from ..store import files
from .records import ExportSource, contents

DATASET = "ragas.jsonl"
ENTRIES = frozenset({DATASET})


def write(folder: Path, source: ExportSource) -> str:
    """The samples; returns the summary's counts."""
    samples = []
    for query in source.queries:
        named = source.named(query)
        samples.append(
            {
                "user_input": query.query,
                "reference": query.answer,
                "reference_contexts": [contents(r) for r in named],
                "reference_context_ids": [r.id for r in named],
            }
        )
    files.write_jsonl(folder / DATASET, samples)
    return f"{len(samples)} samples ({DATASET})"
