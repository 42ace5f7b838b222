"""``qrelsmith diff OLD NEW``: the CLI layer over ``diff.diff_builds``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .audit.loading import AUDIT_FOLDER, Build, load_build
from .diff import DIFF_FILE, diff_builds, summary
from .errors import QrelsmithError
from .files import write_json

#: Exit codes, as diff(1): the same, different, trouble.
EXIT_SAME, EXIT_DIFFERENT, EXIT_TROUBLE = 0, 1, 2

EXAMPLES = """examples:
  qrelsmith diff golden-2024-05 golden-2024-06
  qrelsmith diff old new --verdicts alice.csv      # verdicts not in old/audit/audit.csv
  qrelsmith diff old new --out - | jq .counts      # diff.json to stdout

Compares two builds of the same site by qid: queries added, removed or changed (query, answer,
reference), labels that moved to other sections, labelled sections whose text changed, and the
corpus. The reviewer's verdicts on OLD (OLD/audit/audit.csv, else the files the last
'audit apply' of OLD read) carry over where the query, its reference and the labelled sections'
text are unchanged; the others are listed for re-review. Writes NEW/audit/diff.json: the next
'qrelsmith audit sample NEW' draws the re-review queries first and fills in the carried
verdicts.

exit codes (as diff): 0 nothing changed, 1 something changed, 2 trouble (a folder that is not
a build, an unreadable verdict file)."""


def register(subparsers: Any) -> None:
    """Add the ``diff`` subcommand."""
    parser = subparsers.add_parser(
        "diff",
        help="what changed between two builds of one site; carry the review over",
        description="Compare two builds of the same site and carry the reviewer's verdicts "
        "over to the new one where they still hold.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("old", type=Path, metavar="OLD", help="the older build folder")
    parser.add_argument("new", type=Path, metavar="NEW", help="the newer build folder")
    parser.add_argument(
        "--verdicts",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="the reviewer's verdict files for OLD (default: OLD/audit/audit.csv, else the "
        "files OLD's last audit apply read)",
    )
    parser.add_argument(
        "--out",
        metavar="PATH",
        help=f"where diff.json goes (default: NEW/{AUDIT_FOLDER}/{DIFF_FILE}, where audit "
        "sample reads it; '-' for stdout)",
    )
    parser.set_defaults(func=run)


def verdict_files(old: Build) -> list[Path]:
    """OLD's verdicts: a filled-in audit.csv, else the files of its latest version's review."""
    from .audit.apply import REVIEW_FILE, VERSIONS_FOLDER
    from .audit.writer import has_verdicts
    from .models import ReviewSummary

    audit = old.folder / AUDIT_FOLDER
    if has_verdicts(audit):
        return [audit / "audit.csv"]
    versions = sorted(
        (p for p in (old.folder / VERSIONS_FOLDER).glob("v*") if p.name[1:].isdigit()),
        key=lambda p: int(p.name[1:]),
    )
    for version in reversed(versions):
        review = version / REVIEW_FILE
        if review.is_file():
            files = ReviewSummary.model_validate_json(review.read_text("utf-8")).verdict_files
            found = [Path(name) for name in files if Path(name).is_file()]
            if found:
                return found
    return []


def run(args: argparse.Namespace) -> int:
    """Diff, print the summary, write diff.json; exit 0 same, 1 different, 2 trouble."""
    try:
        return _run(args)
    except QrelsmithError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_TROUBLE


def _run(args: argparse.Namespace) -> int:
    from .audit.apply import consensus
    from .audit.loading import load_sample
    from .audit.verdicts import read_reviews

    old, new = load_build(args.old), load_build(args.new)
    files = list(args.verdicts) if args.verdicts else verdict_files(old)
    verdicts = {}
    if files:
        verdicts = consensus(read_reviews(files, old, load_sample(old)))
    report = diff_builds(old, new, verdicts, [str(path) for path in files])
    if args.out == "-":
        print(report.model_dump_json(indent=2))
    else:
        for line in summary(report):
            print(line)
        target = Path(args.out) if args.out else new.folder / AUDIT_FOLDER / DIFF_FILE
        write_json(target, report)
        print(f"wrote {target}")
    return EXIT_DIFFERENT if report.changed_anything else EXIT_SAME
