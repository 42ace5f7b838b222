"""``qrelsmith audit sample | apply | agree``: the human review of a build's labels."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..audit.apply import review, write_version
from ..audit.diff import review_plan
from ..audit.sample import articles_of, draw_sample, load_sample, sample_summary
from ..audit.writer import EXTRA_FORMATS, unapplied_verdicts, write_audit
from ..config import AuditOptions
from ..errors import DataError, UsageError
from ..models import AuditSample
from ..store.buildfolder import Build, load_build
from ..store.files import build_lock
from ..store.layout import AUDIT_CSV, AUDIT_FOLDER, GOLDEN
from ..store.versions import file_sha256
from .options import FORMATTER, add_config, config_of, override, positive, say

if TYPE_CHECKING:
    from ..audit.verdicts import Review

#: The documented defaults, shown in --help (a --config file may change them).
AUDIT = AuditOptions()

SAMPLE_EPILOG = """example:
  qrelsmith audit sample out --size 60 --seed 7
  qrelsmith audit sample out --format label-studio

Writes out/audit/audit.csv (open it in Excel or LibreOffice), out/audit/audit.html (open it in a
browser: one row at a time, keys 1-4 for verdicts, Export CSV when done) and sample.json.
Low-confidence, fuzzy and multi-section matches are over-represented; each row's weight keeps
the overall precision unbiased. Size, seed, low_confidence and oversample come from the config's
[audit] table.
An audit.csv holding a reviewer's verdicts is not overwritten without --force, unless an
'audit apply' read that very sheet (its sha256 is in a versions/vN/review.json). Verdicts
'qrelsmith diff' carried over and this command filled in, as filled in, do not count.
After 'qrelsmith diff OLD DIR', the queries to review again are drawn first and the verdicts
carried over from OLD are filled in (DIR/audit/diff.json)."""

APPLY_EPILOG = """example:
  qrelsmith audit apply out ~/Downloads/verdicts-1a2b3c.csv
  qrelsmith audit apply out alice.csv bob.csv
  qrelsmith audit apply out project-12-export.json     (Label Studio JSON export)

Prints label precision with 95% Wilson intervals (overall, weighted; and per match rule) and
writes the corrected golden set to out/versions/vN/ (golden.jsonl, qrels.trec, queries.tsv,
beir/, corpus.jsonl, changelog.jsonl, CHANGES.md); the build itself stays as it was. With
several files (or annotators) it first prints their agreement; a row given different
verdicts is left out of precision and flagged 'unsure'; a row all judged wrong (or all partly)
but with different sections counts for precision and keeps its label, flagged
'disputed-correction'. A file that does not fit the sample writes nothing."""

AGREE_EPILOG = """example:
  qrelsmith audit agree out alice.csv bob.csv carol.csv

Agreement between reviewers of the same sample: Cohen's kappa (two reviewers) and
Krippendorff's alpha (nominal, any number; and ordinal, the verdicts ordered wrong < partly <
correct, unsure left out), and the rows they judged differently. Writes nothing."""


def register(subparsers: Any) -> None:  # argparse._SubParsersAction
    """Add ``audit`` and its subcommands."""
    audit = subparsers.add_parser(
        "audit",
        help="review a sample of the labels by hand and apply the verdicts",
        description="Review a sample of the labels by hand and apply the verdicts.",
        epilog="example:\n  qrelsmith audit sample out && qrelsmith audit apply out verdicts.csv",
        formatter_class=FORMATTER,
    )
    commands = audit.add_subparsers(dest="audit_command", metavar="SUBCOMMAND", required=True)
    _register_sample(commands)
    _register_apply(commands)
    _register_agree(commands)


def _register_sample(commands: Any) -> None:
    """``audit sample DIR``."""
    sample = commands.add_parser(
        "sample",
        help="draw a stratified sample and write the review sheet and page",
        description="Draw a seeded, stratified sample of a build's queries for review.",
        epilog=SAMPLE_EPILOG,
        formatter_class=FORMATTER,
    )
    sample.add_argument("dir", type=Path, metavar="DIR", help="a build folder")
    sample.add_argument(
        "--size", type=positive, help=f"queries to sample (default: config, {AUDIT.size})"
    )
    sample.add_argument("--seed", type=int, help=f"random seed (default: config, {AUDIT.seed})")
    add_config(sample, "its [audit] table")
    sample.add_argument(
        "--format",
        action="append",
        default=[],
        choices=sorted(EXTRA_FORMATS),
        help="also write the sample in this format (repeatable)",
    )
    sample.add_argument(
        "--force",
        action="store_true",
        help="overwrite an audit.csv that holds verdicts no audit apply has read",
    )
    sample.set_defaults(func=run_sample)


def _register_apply(commands: Any) -> None:
    """``audit apply DIR VERDICTS...``."""
    apply = commands.add_parser(
        "apply",
        help="print label precision and write a corrected version",
        description="Read verdicts, print label precision, write a corrected golden set.",
        epilog=APPLY_EPILOG,
        formatter_class=FORMATTER,
    )
    _add_sampled_build(apply, "the sheet, the page's CSV export, or Label Studio's JSON export")
    apply.add_argument("--dry-run", action="store_true", help="check and print, write no version")
    apply.set_defaults(func=run_apply)


def _register_agree(commands: Any) -> None:
    """``audit agree DIR VERDICTS...``."""
    agree = commands.add_parser(
        "agree",
        help="agreement between reviewers of one sample",
        description="Agreement between reviewers of one sample (kappa, alpha, disagreements).",
        epilog=AGREE_EPILOG,
        formatter_class=FORMATTER,
    )
    _add_sampled_build(agree, "two or more verdict files (or one Label Studio export)")
    agree.set_defaults(func=run_agree)


def _add_sampled_build(parser: argparse.ArgumentParser, verdicts: str) -> None:
    """DIR and the VERDICTS files read against its sample (apply, agree)."""
    parser.add_argument("dir", type=Path, metavar="DIR", help="the build folder that was sampled")
    parser.add_argument("verdicts", type=Path, nargs="+", metavar="VERDICTS", help=verdicts)


def run_sample(args: argparse.Namespace) -> int:
    """``audit sample``."""
    options = override(config_of(args).audit, args, ("size", "seed"))
    if options.size < 1:  # the config's size may be 0 (a build draws none): a sample needs one
        raise UsageError("--size must be at least 1")
    load_build(args.dir, only_articles=())  # a folder that is no build is refused unlocked
    with build_lock(args.dir, "audit sample", wait=say):  # not while a build swaps the folder
        return _sample(args, options)


def _sample(args: argparse.Namespace, options: AuditOptions) -> int:
    build = load_build(args.dir, only_articles=())  # the queries; texts once the draw is known
    unapplied = 0 if args.force else unapplied_verdicts(build.folder)
    if unapplied:
        raise UsageError(
            f"{build.folder / AUDIT_FOLDER / AUDIT_CSV} holds {unapplied} "
            f"{'verdict' if unapplied == 1 else 'verdicts'} no 'audit apply' has read; "
            "apply them first or pass --force to draw anew"
        )
    if not build.queries:  # a page of live buttons over nothing would look like a sample
        raise DataError(f"{build.folder / GOLDEN}: no queries to sample")
    first, carried = review_plan(build)  # qrelsmith diff's re-review list, carried verdicts
    sample = draw_sample(
        build.queries, options, build.golden_sha256, first=first, judged=set(carried)
    )
    texts = load_build(args.dir, only_articles=articles_of(sample))
    written = [str(path) for path in write_audit(texts, sample, args.format, carried)]
    say(sample_summary(sample))
    say(f"wrote {', '.join(written[:-1])} and {written[-1]}")
    return 0


def _reviews(args: argparse.Namespace) -> tuple[Build, AuditSample, list[Review]]:
    """DIR, its sample and the reviews of the VERDICTS files (apply, agree)."""
    from ..audit.verdicts import read_reviews

    build = load_build(args.dir)
    sample = load_sample(build)
    return build, sample, read_reviews(args.verdicts, build, sample)


def run_apply(args: argparse.Namespace) -> int:
    """``audit apply``."""
    from ..audit.agreement import agreement  # numpy: not for every CLI call

    build, sample, reviews = _reviews(args)
    read_from = build.golden_sha256  # what the verdicts were checked against
    if len(reviews) > 1:
        for line in agreement(reviews, [row.qid for row in sample.rows]).lines():
            print(line)
    sha256 = [file_sha256(path) for path in args.verdicts]  # before reading: what was applied
    outcome = review(build, sample, reviews)
    for line in outcome.precision.lines():
        print(line)
    counts = {
        a: sum(c.action == a for c in outcome.changes) for a in ("replaced", "removed", "flagged")
    }
    print(", ".join(f"{n} {action}" for action, n in counts.items()))
    if args.dry_run:
        say("dry run: nothing written")
        return 0
    with build_lock(args.dir, "audit apply", wait=say):
        # A build may have swapped the folder in while the verdicts were read: the version
        # is written against the build as it is now, or not at all.
        if file_sha256(build.folder / GOLDEN) != read_from:
            raise DataError(
                f"{build.folder} was rebuilt while the verdicts were read: run audit apply again"
            )
        target = write_version(build, outcome, [str(path) for path in args.verdicts], sha256)
    say(f"wrote {target}")
    return 0


def run_agree(args: argparse.Namespace) -> int:
    """``audit agree``."""
    from ..audit.agreement import agreement

    _, sample, reviews = _reviews(args)
    if len(reviews) < 2:
        raise UsageError("agreement needs verdicts from two or more reviewers")
    for line in agreement(reviews, [row.qid for row in sample.rows]).lines():
        print(line)
    return 0
