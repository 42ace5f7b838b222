"""Writers for a build's outputs, one module per format, all atomic.

``EXPORTERS`` is the registry of golden-set writers: each takes the output folder, the corpus
and the queries. ``write_golden_set`` runs them all (what ``audit apply`` uses to write a
corrected version); ``write_build`` adds the corpus and the report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from ..models import CorpusRecord, GoldenQuery, Report
from . import beir, jsonl, trec

Exporter = Callable[[Path, Sequence[CorpusRecord], Sequence[GoldenQuery]], None]

EXPORTERS: dict[str, Exporter] = {
    "golden": jsonl.write_golden,
    "trec": trec.write_qrels,
    "topics": trec.write_queries_tsv,
    "beir": beir.write_beir,
}


def write_golden_set(
    out_dir: str | Path, corpus: Sequence[CorpusRecord], queries: Sequence[GoldenQuery]
) -> None:
    """Write golden.jsonl, qrels.trec, queries.tsv and beir/ into ``out_dir``."""
    folder = Path(out_dir)
    for write in EXPORTERS.values():
        write(folder, corpus, queries)


def write_build(
    out_dir: str | Path,
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    report: Report,
) -> None:
    """Write every output of a build: corpus.jsonl, the golden set and report.json."""
    folder = Path(out_dir)
    jsonl.write_corpus(folder, corpus)
    write_golden_set(folder, corpus, queries)
    jsonl.write_report(folder, report)
