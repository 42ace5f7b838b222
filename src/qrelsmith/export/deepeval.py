"""DeepEval: goldens as ``EvaluationDataset.add_goldens_from_json_file`` reads them.

``input`` is the query, ``expected_output`` the author's answer, ``context`` the texts of the
grade-2 sections, ``source_file`` the page; ``additional_metadata`` keeps the qid and the
sections' ids, to join results back. Binary: only grade 2 survives.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..store.files import write_text
from .records import ExportSource, contents

GOLDENS = "goldens.json"
ENTRIES = frozenset({GOLDENS})


def write(folder: Path, source: ExportSource) -> str:
    """The goldens; returns the summary's counts."""
    goldens = []
    for query in source.queries:
        named = source.named(query)
        goldens.append(
            {
                "input": query.query,
                "expected_output": query.answer,
                "context": [contents(r) for r in named],
                "source_file": query.origin.path,
                "additional_metadata": {"qid": query.qid, "context_ids": [r.id for r in named]},
            }
        )
    write_text(folder / GOLDENS, json.dumps(goldens, ensure_ascii=False, indent=1) + "\n")
    return f"{len(goldens)} goldens ({GOLDENS})"
