"""``qrelsmith audit sample | apply | agree``: the human review of a build's labels."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..audit.apply import review, write_version
from ..audit.diff import pool_plan, review_plan
from ..audit.pool import pair_key
from ..audit.sample import articles_of, draw_sample, load_sample, sample_summary
from ..audit.writer import EXTRA_FORMATS, unapplied_verdicts, write_audit
from ..config import AuditOptions, PoolOptions
from ..errors import DataError, UsageError
from ..models import AuditSample, PoolRun
from ..store.buildfolder import Build, load_build
from ..store.files import build_lock
from ..store.layout import AUDIT_CSV, AUDIT_FOLDER, GOLDEN, POOL_CSV, QRELS, build_root
from ..store.versions import file_sha256, pool_round
from .options import FORMATTER, add_config, config_of, override, positive, say, warn

if TYPE_CHECKING:
    from ..audit.verdicts import Review

#: The documented defaults, shown in --help (a --config file may change them).
AUDIT = AuditOptions()
POOL = PoolOptions()

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

POOL_EPILOG = """example:
  qrelsmith baseline out --out runs/bm25.trec
  qrelsmith baseline out --method tfidf --out runs/tfidf.trec
  qrelsmith audit pool out runs/bm25.trec runs/tfidf.trec --depth 10 --size 60 --seed 7
  qrelsmith audit pool out runs/bm25.trec --all
  qrelsmith audit pool out/versions/v1 runs/bm25.trec runs/tfidf.trec   # round 2

The pool (TREC's depth-k pooling) is every query's top-k documents of each run that the qrels
do not judge: sections of other articles. check's signals add pairs of their own (the first
run's top hit in another article; the labelled sections of a near-duplicate query of another
article), drawn first. The rest is stratified by the best rank a run gave the pair (1, 2-3,
4-k) and how many runs retrieved it; the top ranks are over-sampled and each row's weight keeps
the completeness estimate unbiased. Writes out/audit/pool.csv, out/audit/pool.html (the label
review's page: keys 1-4 or R P U, N note, E export) and pool.json (the draw, the build's and the
runs' hashes). Verdicts: relevant, partly, not, unsure; give the sheet to audit apply. A
pool.csv holding verdicts no audit apply has read is not overwritten without --force. Verdicts
'qrelsmith diff' carried over are filled in. Depth, size and seed come from the config's [pool]
table. DIR may be a version a pool review made (versions/vN): the next round, whose pool
leaves out the pairs judged before, is written into DIR/audit/, and its audit apply writes the
next version of the build."""

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
    _register_pool(commands)
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


def _register_pool(commands: Any) -> None:
    """``audit pool DIR RUN...``."""
    pool = commands.add_parser(
        "pool",
        help="draw unjudged documents the runs retrieve, for review",
        description="Draw a seeded, stratified sample of the unjudged (query, document) pairs "
        "in the runs' top k, for review.",
        epilog=POOL_EPILOG,
        formatter_class=FORMATTER,
    )
    pool.add_argument(
        "dir", type=Path, metavar="DIR", help="a build folder, or a version of it (round 2 ...)"
    )
    pool.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="TREC run files")
    pool.add_argument(
        "--depth", type=positive, help=f"each run's top k pooled (default: config, {POOL.depth})"
    )
    pool.add_argument(
        "--size", type=positive, help=f"pooled pairs to draw (default: config, {POOL.size})"
    )
    pool.add_argument("--seed", type=int, help=f"random seed (default: config, {POOL.seed})")
    pool.add_argument(
        "--all", action="store_true", help="judge every pooled pair (no sample; small sets)"
    )
    pool.add_argument(
        "--force",
        action="store_true",
        help="overwrite a pool.csv that holds verdicts no audit apply has read",
    )
    add_config(pool, "its [pool] table")
    pool.set_defaults(func=run_pool)


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


def run_pool(args: argparse.Namespace) -> int:
    """``audit pool``."""
    options = override(config_of(args).pool, args, ("depth", "size", "seed"))
    load_build(args.dir, only_articles=())  # a folder that is no build is refused unlocked
    # not while a build swaps the folder (that of the build, when DIR is one of its versions)
    with build_lock(build_root(Path(args.dir))[0], "audit pool", wait=say):
        return _pool(args, options)


def _pool(args: argparse.Namespace, options: PoolOptions) -> int:
    from ..audit.pool import (
        build_id,
        check_seeds,
        draw_pool_sample,
        pool_candidates,
        pool_summary,
    )
    from ..audit.pool_sheet import unapplied_pool_verdicts, write_pool
    from ..evaluate.runs import read_run

    build = load_build(args.dir)
    pool_csv = build.folder / AUDIT_FOLDER / POOL_CSV
    unapplied = 0 if args.force else unapplied_pool_verdicts(build.folder)
    if unapplied:
        raise UsageError(
            f"{pool_csv} holds {unapplied} {'verdict' if unapplied == 1 else 'verdicts'} no "
            "'audit apply' has read; apply them first or pass --force to draw anew"
        )
    if not build.qrels:
        raise DataError(f"{build.folder / QRELS}: no judged queries to pool")
    if len({os.path.realpath(path) for path in args.runs}) < len(args.runs):
        raise UsageError("a run is given twice: each run counts once in the pool")
    runs = [read_run(path, warn) for path in args.runs]
    hashes = [file_sha256(path) for path in args.runs]
    candidates = pool_candidates(
        build.qrels, runs, options.depth, build.doc_ids, check_seeds(build, runs[0])
    )
    carried = {
        (item.qid, item.docid): item
        for item in pool_plan(build)
        if item.qid in build.by_qid and item.docid in build.sections
    }
    qrels_path = build.folder / QRELS
    pool = draw_pool_sample(
        candidates,
        options,
        every=args.all,
        carried=carried,
        build=build_id(build.golden_sha256, file_sha256(qrels_path)),
        golden_sha256=build.golden_sha256,
        runs=[PoolRun(name=str(path), sha256=h) for path, h in zip(args.runs, hashes, strict=True)],
        pool_round=pool_round(build.folder),
    )
    written = write_pool(build, pool, carried)
    say(pool_summary(pool))
    say(f"wrote {written[0]} and {written[1]}")
    return 0


def _reviews(
    args: argparse.Namespace, files: list[Path]
) -> tuple[Build, AuditSample, list[Review]]:
    """DIR, its sample and the reviews of label sheets ``files`` (apply, agree)."""
    from ..audit.verdicts import read_reviews

    build = load_build(args.dir)
    sample = load_sample(build)
    return build, sample, read_reviews(files, build, sample)


def _split(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """(label sheets, pool sheets) among the VERDICTS files."""
    from ..audit.sheet import is_pool_sheet

    pool = [path for path in paths if is_pool_sheet(path)]
    return [path for path in paths if path not in pool], pool


def run_apply(args: argparse.Namespace) -> int:
    """``audit apply``."""
    from ..audit.agreement import agreement  # numpy: not for every CLI call
    from ..audit.apply import Outcome, add_judgements, consensus
    from ..audit.pool import ORDERED_POOL_VERDICTS, completeness, completeness_lines
    from ..audit.pool_sheet import load_pool, read_pool_reviews

    labels, pools = _split(list(args.verdicts))
    if labels:
        build, sample, reviews = _reviews(args, labels)
        if len(reviews) > 1:
            for line in agreement(reviews, [row.qid for row in sample.rows]).lines():
                print(line)
        outcome = review(build, sample, reviews)
    else:
        build = load_build(args.dir)
        outcome = Outcome(None, list(build.queries), [])
    read_from = build.golden_sha256  # what the verdicts were checked against
    sha256 = [file_sha256(path) for path in args.verdicts]  # before reading: what was applied
    if pools:
        pool = load_pool(build)
        pooled = read_pool_reviews(pools, build, pool)
        keys = [pair_key(row.qid, row.docid) for row in pool.rows]
        if len(pooled.reviews) > 1:
            for line in agreement(pooled.reviews, keys, ORDERED_POOL_VERDICTS).lines():
                print(line)
        merged = consensus(pooled.reviews)
        queries, judged = add_judgements(build, outcome.queries, merged, pooled.pairs)
        found = completeness(
            pool,
            {pooled.pairs[key]: verdict.verdict for key, verdict in merged.items()},
            [run.name for run in pool.runs],
        )
        outcome = Outcome(outcome.precision, queries, [*outcome.changes, *judged], found)
    if outcome.precision is not None:
        for line in outcome.precision.lines():
            print(line)
        counts = {
            a: sum(c.action == a for c in outcome.changes)
            for a in ("replaced", "removed", "flagged")
        }
        print(", ".join(f"{n} {action}" for action, n in counts.items()))
    if outcome.completeness is not None:
        for line in completeness_lines(outcome.completeness):
            print(line)
        grades = [c.verdict for c in outcome.changes if c.action == "judged"]
        print(
            f"judgements added: {grades.count('relevant')} relevant (grade 2), "
            f"{grades.count('partly')} partly (grade 1), {grades.count('not')} not "
            f"(grade 0); {outcome.completeness.unsure} unsure (nothing added)"
        )
    if args.dry_run:
        say("dry run: nothing written")
        return 0
    with build_lock(build_root(Path(args.dir))[0], "audit apply", wait=say):
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
    from ..audit.pool import ORDERED_POOL_VERDICTS
    from ..audit.pool_sheet import load_pool, read_pool_reviews

    labels, pools = _split(list(args.verdicts))
    if labels and pools:
        raise UsageError("give label sheets or pool sheets, not both: they judge other things")
    if pools:
        build = load_build(args.dir)
        pool = load_pool(build)
        reviews = read_pool_reviews(pools, build, pool).reviews
        keys = [pair_key(row.qid, row.docid) for row in pool.rows]
        found = agreement(reviews, keys, ORDERED_POOL_VERDICTS) if len(reviews) > 1 else None
    else:
        _, sample, reviews = _reviews(args, labels)
        found = agreement(reviews, [row.qid for row in sample.rows]) if len(reviews) > 1 else None
    if found is None:
        raise UsageError("agreement needs verdicts from two or more reviewers")
    for line in found.lines():
        print(line)
    return 0
