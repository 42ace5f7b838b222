"""corpus.jsonl, golden.jsonl and report.json."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ...models import Report
from .. import files, layout
from ..files import write_json
from .goldenset import GoldenSet


def corpus_lines(records: GoldenSet) -> Iterator[bytes]:
    """corpus.jsonl: one section a line."""
    return iter(records.corpus_lines)


def golden_lines(records: GoldenSet) -> Iterator[bytes]:
    """golden.jsonl: one query a line (its grade-2 targets are in the query)."""
    return map(files.json_line, records.queries)


def write_report(folder: Path, report: Report) -> None:
    """Counts, skipped pages, rejected rows and the manifest."""
    write_json(folder / layout.REPORT, report)
