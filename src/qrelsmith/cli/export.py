"""``qrelsmith export KIND DIR --out OUT``: a build in another tool's layout.

The kinds, their help and their own options come from ``export.EXPORT_KINDS``; this module
only turns them into subcommands and reads the build folder.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ..audit.apply import read_review, versions
from ..buildfolder import load_build, read_document
from ..errors import UsageError
from ..export import EXPORT_KINDS, export
from ..export.records import ExportKind, ExportSource, golden_set, with_ascii_ids
from ..layout import REPORT, VERSIONS_FOLDER
from ..models import Report, ReviewSummary
from .options import FORMATTER, say


def register(subparsers: Any) -> None:  # argparse._SubParsersAction
    """Add ``export`` and its kinds (``EXPORT_KINDS``)."""
    export_parser = subparsers.add_parser(
        "export",
        help="write a build in another tool's layout (Hugging Face / MTEB, Pyserini, Ragas, "
        "DeepEval, LlamaIndex, AutoRAG, ir_datasets)",
        description="Write a build in another tool's layout.",
        epilog="examples:\n  qrelsmith export hf out --out out-hf --license cc-by-4.0 --language en"
        "\n  qrelsmith export pyserini out --out out-pyserini",
        formatter_class=FORMATTER,
    )
    kinds = export_parser.add_subparsers(dest="export_kind", metavar="KIND", required=True)
    for name, kind in EXPORT_KINDS.items():
        _add_kind(kinds, name, kind)


def _add_kind(kinds: Any, name: str, kind: ExportKind) -> None:
    parser = kinds.add_parser(
        name,
        help=kind.help,
        description=kind.description,
        epilog=kind.epilog,
        formatter_class=FORMATTER,
    )
    parser.add_argument("dir", type=Path, metavar="DIR", help="a build folder or versions/vN")
    parser.add_argument("--out", "-o", required=True, type=Path, metavar="OUT", help="folder")
    parser.add_argument(
        "--ascii-ids",
        action="store_true",
        help="ids in printable ASCII: non-ASCII characters and '%%' percent-encoded (UTF-8; "
        "urllib.parse.unquote reverses it), for tools that read files in the locale's encoding",
    )
    for option in kind.options:
        extra: dict[str, Any] = {"required": option.required, "help": option.help}
        if option.repeat:
            extra["action"] = "append"
        if option.choices:
            extra["choices"] = option.choices
        if option.default is not None:
            extra["default"] = option.default
        if option.metavar:
            extra["metavar"] = option.metavar
        parser.add_argument(option.flag, **extra)
    parser.set_defaults(func=run)


def _review(root: Path, version: str | None, golden_sha256: str) -> ReviewSummary | None:
    """The review the card reports: the exported version's own (the review that made it),
    else (the build's own labels) the latest review of the build's current golden.jsonl. A
    review of an earlier build into the same folder measured other labels: none applies."""
    if version:
        return read_review(root / VERSIONS_FOLDER / version)
    reviews = [
        review
        for folder in versions(root)
        if (review := read_review(folder)) and review.golden_sha256 == golden_sha256
    ]
    return reviews[-1] if reviews else None


def check_out(out: Path, source: Path) -> None:
    """UsageError for an ``--out`` that cannot be the dataset folder: a file, or the folder
    exported (or one holding it), which the swap of the export would replace."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder: give the dataset's folder")
    where, real = Path(os.path.realpath(out)), Path(os.path.realpath(source))
    if where == real or where in real.parents:
        raise UsageError(
            f"--out {out} is the folder exported ({source}) or holds it: give another folder"
        )


def run(args: argparse.Namespace) -> int:
    """``export KIND``."""
    kind = EXPORT_KINDS[args.export_kind]
    check_out(args.out, args.dir)
    build = load_build(args.dir)
    folder = build.folder
    version = folder.name if folder.parent.name == VERSIONS_FOLDER else None
    root = folder.parent.parent if version else folder
    report_path = root / REPORT
    report = read_document(report_path, Report, "a build report") if report_path.is_file() else None
    records = golden_set(build.corpus, build.queries)
    source = ExportSource(
        records=with_ascii_ids(records) if args.ascii_ids else records,
        folder=folder,
        root=root,
        version=version,
        report=report,
        review=_review(root, version, build.golden_sha256) if build.queries else None,
        options={option.dest: getattr(args, option.dest) for option in kind.options},
    )
    say(f"wrote {args.out}: {export(args.export_kind, args.out, source)}")
    return 0
