"""JSON Schemas of the output records, generated from the models (never written by hand).

``python -m qrelsmith.store.schemas [DIR]`` rewrites ``schemas/``; tests/test_schemas.py fails when
the checked-in files drift from the models.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pydantic import BaseModel

from ..config import Config
from ..models import (
    AlignReport,
    AuditSample,
    BeirDocument,
    BeirQuery,
    ChangelogEntry,
    CorpusRecord,
    DiffReport,
    EvalReport,
    GoldenQuery,
    PoolSample,
    Problem,
    Report,
    ReviewSummary,
    Suspect,
)
from .files import write_text

#: Output file -> the model of one of its records (JSONL) or of the whole file (JSON).
SCHEMAS: dict[str, type[BaseModel]] = {
    "corpus.schema.json": CorpusRecord,
    "golden.schema.json": GoldenQuery,
    "report.schema.json": Report,
    "beir-corpus.schema.json": BeirDocument,
    "beir-queries.schema.json": BeirQuery,
    "config.schema.json": Config,
    # audit/sample.json; versions/vN/changelog.jsonl (a line) and review.json
    "audit-sample.schema.json": AuditSample,
    "pool.schema.json": PoolSample,  # audit/pool.json of `audit pool`
    "changelog.schema.json": ChangelogEntry,
    "review.schema.json": ReviewSummary,
    # `eval --json`; a line of `check --json` and of `validate --json`; align_report.json
    "eval.schema.json": EvalReport,
    "check.schema.json": Suspect,
    "validate.schema.json": Problem,
    "align-report.schema.json": AlignReport,
    # NEW/audit/diff.json of `qrelsmith diff OLD NEW`
    "diff.schema.json": DiffReport,
}


def render(model: type[BaseModel]) -> str:
    """The schema text of one model, stable across runs."""
    schema = model.model_json_schema(by_alias=True)
    return json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write_all(folder: Path) -> list[Path]:
    """Write every schema into ``folder``."""
    written = []
    for name, model in SCHEMAS.items():
        write_text(folder / name, render(model))
        written.append(folder / name)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m qrelsmith.store.schemas [FOLDER]``: write the schemas, print their paths."""
    parser = argparse.ArgumentParser(
        prog="python -m qrelsmith.store.schemas",
        description="Write the JSON Schemas of qrelsmith's output records, generated from its "
        "models, into FOLDER (default: schemas).",
    )
    parser.add_argument("folder", nargs="?", default="schemas", type=Path)
    args = parser.parse_args(argv)
    for path in write_all(args.folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
