"""``qrelsmith diff OLD NEW``: what changed between two builds of one site; the review carried
over (``diff.diff_builds``). Exit codes as diff(1): 0 the same, 1 different, 2 trouble."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ..audit.apply import consensus, read_review, versions
from ..audit.sample import load_sample
from ..audit.verdicts import read_reviews
from ..audit.writer import has_verdicts
from ..buildfolder import Build, load_build, read_document
from ..diff import diff_builds, diff_summary
from ..errors import QrelsmithError, UsageError
from ..files import build_lock, write_json
from ..layout import AUDIT_CSV, AUDIT_FOLDER, AUDIT_SAMPLE, DIFF, REVIEW
from ..models import AuditSample
from .options import FORMATTER, error_line, say, warn

#: Exit codes, as diff(1): the same, different, trouble.
EXIT_SAME, EXIT_DIFFERENT, EXIT_TROUBLE = 0, 1, 2

EXAMPLES = """examples:
  qrelsmith diff golden-2024-05 golden-2024-06
  qrelsmith diff old new --verdicts alice.csv      # verdicts not in old/audit/audit.csv
  qrelsmith diff old new --out - | jq .counts      # diff.json to stdout

Compares two builds of the same site by qid: queries added, removed or changed (query, answer,
reference), labels that moved to other sections, labelled sections whose text changed, and the
corpus. The reviewer's verdicts on OLD (OLD/audit/audit.csv, else the files the last
'audit apply' of OLD read; only a review of OLD's current golden.jsonl, not one of an earlier
build into the same folder) carry over where the query, its reference and the labelled sections'
text are unchanged; the others are listed for re-review. Writes NEW/audit/diff.json: the next
'qrelsmith audit sample NEW' draws the re-review queries first and fills in the carried
verdicts. The changes go to stdout, 'wrote ...' and errors to stderr.

exit codes (as diff): 0 nothing changed, 1 something changed, 2 trouble (a folder that is not
a build, OLD and NEW the same folder, an unreadable verdict file, --out in a missing folder)."""


def register(subparsers: Any) -> None:  # argparse._SubParsersAction
    """Add the ``diff`` subcommand."""
    parser = subparsers.add_parser(
        "diff",
        help="what changed between two builds of one site; carry the review over",
        description="Compare two builds of the same site and carry the reviewer's verdicts "
        "over to the new one where they still hold.",
        epilog=EXAMPLES,
        formatter_class=FORMATTER,
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
        help=f"where diff.json goes (default: NEW/{AUDIT_FOLDER}/{DIFF}, where audit "
        "sample reads it; '-' for stdout)",
    )
    parser.set_defaults(func=run)


def verdict_files(old: Build) -> tuple[list[Path], list[str]]:
    """OLD's verdicts on its current golden.jsonl: a filled-in audit.csv whose sample was drawn
    from it, else the files of the latest review made for it (``versions/vN/review.json``)
    that are still there. Also the reviews passed over because they judged another
    golden.jsonl (OLD was rebuilt since: their qids and section ids may name other rows and
    sections now), for a warning."""
    audit = old.folder / AUDIT_FOLDER
    passed_over: list[str] = []
    if has_verdicts(audit):
        sample = audit / AUDIT_SAMPLE
        drawn = (
            read_document(sample, AuditSample, "an audit sample").golden_sha256
            if sample.is_file()
            else old.golden_sha256  # no sample: load_sample says so
        )
        if drawn == old.golden_sha256:
            return [audit / AUDIT_CSV], []
        passed_over.append(str(audit / AUDIT_CSV))
    for version in reversed(versions(old.folder)):
        review = read_review(version)
        if review is None:
            continue
        if review.golden_sha256 != old.golden_sha256:
            passed_over.append(str(version / REVIEW))
            continue
        found = [path for name in review.verdict_files if (path := Path(name)).is_file()]
        if found:
            return found, passed_over
    return [], passed_over


def out_file(value: str) -> Path:
    """``--out`` as a file to write: its folder must exist (a typo makes no folders)."""
    path = Path(value)
    if path.is_dir():
        raise UsageError(f"--out {path} is a folder: give the file diff.json goes to")
    if not path.parent.is_dir():
        raise UsageError(f"--out {path}: there is no folder {path.parent}")
    return path


def same_folder(old: Path, new: Path) -> bool:
    """Whether OLD and NEW name one folder (the same path, or a link to it)."""
    return os.path.realpath(old) == os.path.realpath(new)


def run(args: argparse.Namespace) -> int:
    """Diff, print the changes, write diff.json; exit 0 same, 1 different, 2 trouble (a data
    error or a file that cannot be written is 2 here, not 1: 1 means the builds differ)."""
    try:
        return _run(args)
    except (QrelsmithError, OSError) as exc:
        say(error_line(exc))
        return EXIT_TROUBLE


def _run(args: argparse.Namespace) -> int:
    if same_folder(args.old, args.new):
        # Nothing to compare, and NEW/audit/diff.json would carry OLD's review onto itself.
        raise UsageError(
            f"OLD and NEW are the same folder ({args.new}): give the older build and the newer one"
        )
    target = out_file(args.out) if args.out and args.out != "-" else None
    old, new = load_build(args.old), load_build(args.new)
    if args.verdicts:
        files = list(args.verdicts)
    else:
        files, passed_over = verdict_files(old)
        for path in passed_over:
            warn(
                f"{path} reviewed another golden.jsonl than {old.folder}'s (the folder was "
                "rebuilt since): its verdicts are not carried over"
            )
    verdicts = consensus(read_reviews(files, old, load_sample(old))) if files else {}
    report = diff_builds(old, new, verdicts, [str(path) for path in files])
    if args.out == "-":
        print(report.model_dump_json(indent=2))
    else:
        for line in diff_summary(report):
            print(line)
        if target is None:  # into the build folder: not while a build swaps it
            target = new.folder / AUDIT_FOLDER / DIFF
            with build_lock(new.folder, "diff", wait=say):
                write_json(target, report)
        else:
            write_json(target, report)
        say(f"wrote {target}")
    return EXIT_DIFFERENT if report.changed_anything else EXIT_SAME
