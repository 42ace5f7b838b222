"""corpus.jsonl, golden.jsonl and report.json."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from .. import files, layout
from ..files import write_json
from ..models import Report
from .records import GoldenSet


def corpus_lines(records: GoldenSet) -> Iterator[str]:
    """corpus.jsonl: one section a line."""
    for record in records.corpus:
        yield files.dumps(record) + "\n"


def golden_lines(records: GoldenSet) -> Iterator[str]:
    """golden.jsonl: one query a line (its grade-2 targets are in the query)."""
    for query in records.queries:
        yield files.dumps(query) + "\n"


def write_report(folder: Path, report: Report) -> None:
    """Counts, skipped pages, rejected rows and the manifest."""
    write_json(folder / layout.REPORT, report)
