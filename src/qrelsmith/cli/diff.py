"""``qrelsmith diff OLD NEW``: what changed between two builds of one site; the review carried
over (``diff.diff_builds``). Exit codes as diff(1): 0 the same, 1 different, 2 trouble."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..audit.apply import consensus
from ..audit.diff import diff_builds, diff_summary
from ..audit.pool import split_pair_key
from ..audit.pool_sheet import load_pool, old_pool_reviews, read_pool_reviews
from ..audit.sample import load_sample
from ..audit.sheet import is_pool_sheet
from ..audit.verdicts import read_reviews, verdict_files
from ..errors import QrelsmithError, UsageError
from ..store.buildfolder import load_build
from ..store.files import build_lock, write_json
from ..store.layout import AUDIT_FOLDER, DIFF
from ..store.owners import refuse_owned_file
from .options import FORMATTER, error_line, refuse_input_as_output, say, warn

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
text are unchanged; the others are listed for re-review. Pool verdicts of every round carry
over too: those the versions made from OLD applied (their changelog.jsonl) and a pool.csv
judged in place. Writes NEW/audit/diff.json: the next
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
        "label sheets of OLD's last review that had some; pool verdicts of every round from "
        "the versions' changelogs and pool sheets judged in place)",
    )
    parser.add_argument(
        "--out",
        metavar="PATH",
        help=f"where diff.json goes (default: NEW/{AUDIT_FOLDER}/{DIFF}, where audit "
        "sample reads it; '-' for stdout)",
    )
    parser.set_defaults(func=run_diff)


def out_file(value: str) -> Path:
    """``--out`` as a file to write: its folder must exist (a typo makes no folders)."""
    path = Path(value)
    if path.is_dir():
        raise UsageError(f"--out {path} is a folder: give the file diff.json goes to")
    if not path.parent.is_dir():
        raise UsageError(f"--out {path}: there is no folder {path.parent}")
    return path


def run_diff(args: argparse.Namespace) -> int:
    """Diff, print the changes, write diff.json; exit 0 same, 1 different, 2 trouble (a data
    error or a file that cannot be written is 2 here, not 1: 1 means the builds differ)."""
    try:
        return _diff(args)
    except (QrelsmithError, OSError) as exc:
        say(error_line(exc))
        return EXIT_TROUBLE


def _diff(args: argparse.Namespace) -> int:
    # Nothing to compare, and NEW/audit/diff.json would carry OLD's review onto itself.
    refuse_input_as_output(
        args.new,
        [args.old],
        lambda _: (
            f"OLD and NEW are the same folder ({args.new}): give the older build and the newer one"
        ),
    )
    target = out_file(args.out) if args.out and args.out != "-" else None
    if target is not None:
        refuse_owned_file(target, "--out")
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
    labels = [path for path in files if not is_pool_sheet(path)]
    if args.verdicts:
        pools = [path for path in files if is_pool_sheet(path)]
        reviews = read_pool_reviews(pools, old, load_pool(old)).reviews if pools else []
    else:  # every round's pool verdicts, applied or judged in place
        reviews, sources = old_pool_reviews(old)
        files = [*labels, *sources]
    verdicts = consensus(read_reviews(labels, old, load_sample(old))) if labels else {}
    merged = consensus(reviews)  # a pair judged differently in two rounds: unsure, not carried
    pool_verdicts = {split_pair_key(key): verdict for key, verdict in merged.items()}
    report = diff_builds(old, new, verdicts, [str(path) for path in files], pool_verdicts)
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
