"""AutoRAG: ``qa.parquet`` (``qid``, ``query``, ``retrieval_gt``, ``generation_gt``) and
``corpus.parquet`` (``doc_id``, ``contents``, ``metadata``), needing pyarrow (the [hf] extra).

``retrieval_gt`` is AutoRAG's list of lists: every inner list must be retrieved (and), any id
of one inner list will do (or); a reference naming two sections ("A／B") gives ``[[a], [b]]``.
Binary: only grade 2 survives. ``metadata`` holds the page (``path``, ``url``), its ``title``
and the section's ``heading``; AutoRAG fills ``last_modified_datetime`` itself when absent.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError
from ..store.files import atomic_open_bytes
from .records import ExportSource, contents

QA = "qa.parquet"
CORPUS = "corpus.parquet"
ENTRIES = frozenset({QA, CORPUS})


def write(folder: Path, source: ExportSource) -> str:
    """Both tables; returns the summary's counts."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise UsageError("export autorag writes Parquet: pip install 'qrelsmith[hf]'") from exc
    metadata = pa.struct(
        [
            ("path", pa.string()),
            ("url", pa.string()),
            ("title", pa.string()),
            ("heading", pa.string()),
        ]
    )
    corpus = pa.Table.from_pylist(
        [
            {
                "doc_id": r.id,
                "contents": contents(r),
                "metadata": {"path": r.path, "url": r.url, "title": r.title, "heading": r.heading},
            }
            for r in source.corpus
        ],
        schema=pa.schema(
            [("doc_id", pa.string()), ("contents", pa.string()), ("metadata", metadata)]
        ),
    )
    qa = pa.Table.from_pylist(
        [
            {
                "qid": q.qid,
                "query": q.query,
                "retrieval_gt": [[r.id] for r in source.named(q)],
                "generation_gt": [q.answer],
            }
            for q in source.queries
        ],
        schema=pa.schema(
            [
                ("qid", pa.string()),
                ("query", pa.string()),
                ("retrieval_gt", pa.list_(pa.list_(pa.string()))),
                ("generation_gt", pa.list_(pa.string())),
            ]
        ),
    )
    for name, table in ((QA, qa), (CORPUS, corpus)):
        with atomic_open_bytes(folder / name) as handle:
            pq.write_table(table, handle, compression="zstd")
    return f"{qa.num_rows} queries ({QA}), {corpus.num_rows} documents ({CORPUS})"
