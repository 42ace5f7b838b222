"""``qrelsmith build``: the CLI layer over ``build.build_to`` (streaming, parallel)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..ingest import check_paths
from ..models import AuditSample, Report
from ..patterns import MAX_WORKERS
from ..run.build import build_to, holds_pages
from ..run.progress import Progress
from ..run.report import build_summary, nothing_asked
from ..sources import check_sources
from ..store.files import StagedFolder
from ..store.layout import AUDIT_CSV, AUDIT_FOLDER, AUDIT_HTML
from ..store.owners import refuse_foreign
from .options import (
    FORMATTER,
    add_config,
    add_quiet,
    config_of,
    override,
    positive,
    refuse_input_as_output,
    say,
)

#: Exit code of a build that wrote its outputs but holds no query (a data error: nothing to
#: evaluate; check and validate give the same answer); skipped pages (3) and internal errors
#: (4) win over it, the error line is printed all the same.
EXIT_NO_QUERY = 1
#: Exit code of a build that wrote its outputs but skipped pages (listed in report.json).
EXIT_SKIPPED = 3
#: Exit code of a build that wrote its outputs but lost pages to a bug in qrelsmith (listed in
#: report.json "internal_errors"); it wins over EXIT_SKIPPED.
EXIT_INTERNAL = 4

EXAMPLES = """examples:
  qrelsmith build samples/site --out out
  qrelsmith build crawl/ --out golden --config site.toml
  qrelsmith build crawl.warc.gz --out golden --workers 4
  qrelsmith build pages.jsonl --out golden -q      # one {"url": ..., "html": ...} a line

inputs: folders of pages, read as HTML (.html/.htm) or as Markdown (.md/.markdown, rendered
as a site generator would), whichever kind the folder holds more of (HTML on a tie; the other
kind is passed over, counted in report.json "passed_over"), single HTML or Markdown files,
WARC files (.warc, .warc.gz: the HTML responses, with their URLs as origin) and JSON lines
(.jsonl, .jsonl.gz). A progress line
is shown on stderr when it is a terminal.

exit codes: 0 every page built; 3 outputs written, some pages skipped (report.json
"skipped"); 4 outputs written, pages lost to a bug in qrelsmith (report.json
"internal_errors"; please report it); 1 data error (no article built, another build
writing into DIR, a full disk), previous outputs left as they were, or no query built
(outputs written, the error line names the query sources tried and why each found nothing);
2 usage error (missing path, bad config), nothing written."""


def register(subparsers: Any) -> None:
    """Add the ``build`` subcommand."""
    parser = subparsers.add_parser(
        "build",
        help="build the golden set from HTML (or Markdown) pages",
        description="Split HTML articles into sections, turn their quick-reference tables into "
        "queries, match each row's section reference, and write graded qrels.",
        epilog=EXAMPLES,
        formatter_class=FORMATTER,
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="folder of HTML pages or a file")
    parser.add_argument("--out", "-o", required=True, metavar="DIR", help="output folder")
    add_config(parser)
    parser.add_argument(
        "--workers",
        "-j",
        type=positive,
        default=None,
        metavar="N",
        help="worker processes (default: config, else all cores; at most "
        f"{MAX_WORKERS}); 1 runs in-process",
    )
    parser.add_argument(
        "--ascii-ids",
        action="store_const",
        const=True,
        default=None,
        help="ids in printable ASCII: non-ASCII characters and '%%' percent-encoded (UTF-8; "
        "urllib.parse.unquote reverses it), for ranx / ir_measures outside a UTF-8 locale",
    )
    parser.add_argument(
        "--semantic",
        action="store_const",
        const=True,
        default=None,
        help="also match the rows the lexical rules leave unmatched or ambiguous with a "
        "multilingual sentence encoder (the [semantic] extra; [build] semantic = true)",
    )
    parser.add_argument(
        "--sources",
        type=lambda text: [name.strip() for name in text.split(",") if name.strip()],
        default=None,
        metavar="KINDS",
        help="query sources to read, comma-separated (table, faq; default table; [build] "
        'sources = ["table", "faq"]); docs/sources.md',
    )
    add_quiet(parser, "no progress line, nothing printed on success")
    parser.set_defaults(func=run_build)


def check_out(out: Path, paths: list[Path]) -> None:
    """UsageError when ``out`` is an input or holds one: the build replaces ``out`` whole, and
    would read its own outputs back as pages (a folder inside the crawl is fine: it is passed
    over)."""
    where = Path(os.path.realpath(out))
    for path in paths:
        refuse_input_as_output(
            out,
            [path],
            lambda source: (
                f"--out {out} is the input {source} or holds it: give an output "
                "folder outside the crawl (one inside it is fine)"
            ),
            holding=True,
        )
        if Path(os.path.realpath(path)) in where.parents and holds_pages(where):
            raise UsageError(
                f"--out {out} holds pages of the input {path}: a build replaces --out whole, "
                "and the pages left in it would be passed over from then on; give an output "
                "folder of its own"
            )


def run_build(args: argparse.Namespace) -> int:
    """Build, swap the outputs in whole, print the summary; see EXAMPLES for exit codes."""
    config = config_of(args)
    config = config.model_copy(
        update={
            "build": override(config.build, args, ("semantic", "ascii_ids", "sources", "workers"))
        }
    )
    check_sources(config.build.sources)  # a name no source has is a usage error, at once
    if config.build.semantic:
        from ..labelling.semantic import encoder

        encoder()  # a missing extra is a usage error before anything is read or written
    paths = check_paths(args.paths)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder")
    check_out(out, paths)
    refuse_foreign(out, "build")
    progress = Progress(None, enabled=not args.quiet and sys.stderr.isatty())
    samples: list[AuditSample] = []

    def add_sample(staged: StagedFolder, report: Report) -> None:
        from ..audit import sample_staged_build  # the build's own imports stay lean

        sample = sample_staged_build(staged, report, config, out)
        if sample is not None:
            samples.append(sample)

    report = build_to(
        out, paths, config, workers=config.build.workers, progress=progress, finish=add_sample
    )
    if not args.quiet:
        say(build_summary(report, out))
        for sample in samples:
            from ..audit.sample import sample_summary

            say(
                f"  review: {out / AUDIT_FOLDER / AUDIT_HTML} or {AUDIT_CSV}; "
                f"{sample_summary(sample)}"
            )
    if report.internal_errors:
        first, count = report.internal_errors[0], len(report.internal_errors)
        say(
            f"error: an internal error (a bug in qrelsmith) cost {count} "
            f"page{'s' if count > 1 else ''}: {first.path}: {first.error}; the other pages "
            "are built; please report it with report.json's internal_errors"
        )
        return EXIT_INTERNAL
    if not report.counts.queries:  # a set that measures nothing: build, check, validate say why
        say(f"error: {nothing_asked(report, paths, out)}")
        return EXIT_SKIPPED if report.skipped else EXIT_NO_QUERY
    return EXIT_SKIPPED if report.skipped else 0
