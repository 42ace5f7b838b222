"""ir_datasets: ``docs.tsv`` (``doc_id<TAB>text``) beside ``queries.tsv`` and ``qrels.trec``,
and ``dataset.py``, whose ``load()`` gives the three through ``ir_datasets.create_dataset``.
Grades survive (the qrels are a build's); the heading opens each document's text.
"""

from __future__ import annotations

from pathlib import Path

from ..store import layout
from ..store.files import atomic_open, write_text
from ..store.formats.trec import one_line, qrels_lines, topic_lines
from .records import ExportSource, contents

DOCS = "docs.tsv"
QUERIES = layout.QUERIES  # the build's own files, under the same names
QRELS = layout.QRELS
LOADER = "dataset.py"
ENTRIES = frozenset({DOCS, QUERIES, QRELS, LOADER})

LOADER_TEXT = f'''"""This golden set for ir_datasets: ``load()`` gives docs, queries and qrels.

    import dataset  # this file, from its folder (or importlib)
    ds = dataset.load()
    for doc in ds.docs_iter(): ...   # GenericDoc(doc_id, text)
    ds.qrels_iter()                  # TrecQrel(query_id, doc_id, relevance, iteration)
"""

from pathlib import Path

import ir_datasets

HERE = Path(__file__).resolve().parent


def load():
    """The dataset of this folder (written by qrelsmith export ir_datasets)."""
    return ir_datasets.create_dataset(
        docs_tsv=str(HERE / "{DOCS}"),
        queries_tsv=str(HERE / "{QUERIES}"),
        qrels_trec=str(HERE / "{QRELS}"),
    )
'''


def write(folder: Path, source: ExportSource) -> str:
    """docs, queries, qrels and the loader; returns the summary's counts."""
    with atomic_open(folder / DOCS) as handle:
        handle.writelines(f"{r.id}\t{one_line(contents(r))}\n" for r in source.corpus)
    with atomic_open(folder / QUERIES) as handle:
        handle.writelines(topic_lines(source.records))
    with atomic_open(folder / QRELS) as handle:
        handle.writelines(qrels_lines(source.records))
    write_text(folder / LOADER, LOADER_TEXT)
    return (
        f"{len(source.corpus)} documents ({DOCS}), {len(source.queries)} queries, qrels, {LOADER}"
    )
