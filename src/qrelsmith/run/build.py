"""Pages -> BuildResult or outputs on disk: the two drivers of a build.

Each page goes through ``page_results.process_page`` (the pure core; a failing page becomes a
``skipped`` or ``internal_errors`` entry, never an exception, by the rule of ``failures.py``)
and every result through one fold, ``report.ReportBuilder.fold``, in article-id order, so the
output does not depend on the order pages arrive in, nor on how many workers ran.

``build`` keeps everything in memory (the library API); ``build_to`` streams a crawl of any
size to an output folder — pages are processed in worker processes and rendered to output
bytes there; a folder's results come back in input order, which is article-id order, and are
written as they come; a crawl file's are sorted through temporary run files first. Memory
stays flat as the crawl grows.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path

from ..config import Config
from ..errors import DataError
from ..ingest import (
    HTML_SUFFIXES,
    check_paths,
    count_pages,
    crawl_bytes,
    folder_listings,
    in_id_order,
    iter_pages,
    passed_over,
)
from ..models import BuildResult, Report
from ..page.markdown import MARKDOWN_SUFFIXES
from ..store.files import StagedFolder
from ..store.formats import LINE_FILES, BuildWriter
from ..store.layout import AUDIT_FOLDER, REPORT, VERSIONS_FOLDER
from .page_results import PageResult, crashed_page, process_page, render_page
from .parallel import SortedRuns, default_workers, map_ordered, map_unordered
from .progress import Progress
from .report import ReportBuilder, nothing_built


def build(paths: Sequence[str | Path], config: Config | None = None) -> BuildResult:
    """Build the golden set from input paths (folders, HTML files, WARC, JSONL), in memory."""
    config = config or Config()
    checked = check_paths(paths)
    listings = folder_listings(checked)
    results = sorted(
        (
            process_page(page, config)
            for page in iter_pages(checked, None, listings, config.build.max_page_bytes)
        ),
        key=PageResult.order,
    )
    builder = ReportBuilder(passed_over(listings))
    kept = list(builder.fold(results))
    return BuildResult(
        corpus=[r for p in kept for r in p.corpus],
        queries=[q for p in kept for q in p.queries],
        report=builder.report(config),
    )


class _OutOfOrder(Exception):
    """A result came before one it should follow (the streaming path cannot go on)."""


def _in_order(results: Iterable[PageResult]) -> Iterator[PageResult]:
    last: tuple[str, str, str, str, str] | None = None
    for result in results:
        key = result.order()
        if last is not None and key < last:
            raise _OutOfOrder
        last = key
        yield result


def _counted(results: Iterable[PageResult], progress: Progress) -> Iterator[PageResult]:
    for result in results:
        progress.advance()
        yield result


#: What a build writes at the top of its output folder: the line files, report.json and the
#: audit sample. Every other entry of the previous build's folder (``versions/`` of a review,
#: the user's own files) is carried over.
OWN_ENTRIES = frozenset({file.name.split("/")[0] for file in LINE_FILES} | {REPORT, AUDIT_FOLDER})

#: What a build and its reviews write inside --out: never pages of the crawl.
OWN_FOLDERS = OWN_ENTRIES | {VERSIONS_FOLDER}
PAGE_SUFFIXES = HTML_SUFFIXES + MARKDOWN_SUFFIXES


def holds_pages(folder: Path) -> bool:
    """Does ``folder`` hold an HTML or Markdown page beside what a build writes there?"""
    if not folder.is_dir():
        return False
    for _, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in OWN_FOLDERS]
        if any(name.lower().endswith(PAGE_SUFFIXES) for name in files):
            return True
    return False


#: Called with the staging folder before it is swapped in (the CLI writes the audit sample).
Finisher = Callable[[StagedFolder, Report], None]


def build_to(
    out_dir: str | Path,
    paths: Sequence[str | Path],
    config: Config | None = None,
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    finish: Finisher | None = None,
) -> Report:
    """Build a crawl of any size into ``out_dir`` on ``workers`` processes (default:
    ``[build] workers``, else all cores); returns the report. The outputs are the bytes
    ``write_build(build(...))`` would write.

    The build is written in a staging folder beside ``out_dir`` (``finish`` may add to it)
    and swapped in whole, under a lock: an interrupted build, a failed one or one that yields
    no article (a DataError) leaves the previous build as it was, and a second build into the
    same folder fails at once.
    """
    config = config or Config()
    checked = check_paths(paths)
    progress = progress or Progress(None, enabled=False)
    with StagedFolder(out_dir) as staged:
        report = _write_build(staged.path, Path(out_dir), checked, config, workers, progress)
        if not report.counts.articles:
            raise DataError(nothing_built(report, checked))
        if finish is not None:
            finish(staged, report)
        staged.commit(keep=lambda name: name not in OWN_ENTRIES)
    return report


def _write_build(
    folder: Path,
    shown: Path,
    checked: Sequence[Path],
    config: Config,
    workers: int | None,
    progress: Progress,
) -> Report:
    """Every output of the build into ``folder`` (``shown`` is the name the user gave)."""
    workers = workers or config.build.workers or default_workers()
    render = partial(render_page, config=config)
    listings = folder_listings(checked)
    skipped_kind = passed_over(listings)
    if progress.enabled and progress.total is None:
        progress.total = count_pages(checked, listings)
        progress.total_bytes = crawl_bytes(checked)

    def read_up_to(read: int) -> None:
        progress.bytes_done = read

    position = read_up_to if progress.total_bytes else None
    if in_id_order(checked, listings):
        # A folder: its pages arrive in the order they are written, so each result goes to
        # the outputs as soon as the ones before it are done (no run files, and the writing
        # overlaps the work). Should a file appear mid-build and break that order, the files
        # written so far are dropped and the build starts again on the sorting path.
        builder = ReportBuilder(skipped_kind)
        pages = iter_pages(checked, position, listings, config.build.max_page_bytes)
        ordered = map_ordered(render, pages, workers, on_crash=crashed_page)
        try:
            with BuildWriter(folder) as writer:
                for result in builder.fold(_in_order(_counted(ordered, progress))):
                    writer.write(result.rendered())
                progress.status(f"{progress.done:,} pages: finishing {shown}")
                report = builder.report(config)
                writer.finish(report)
            progress.close()
            return report
        except _OutOfOrder:
            progress.done = 0
            listings = {}  # read the folders again: they changed
    builder = ReportBuilder(skipped_kind)
    results = map_unordered(
        render,
        iter_pages(checked, position, listings, config.build.max_page_bytes),
        workers,
        on_crash=crashed_page,
        weight=lambda page: len(page.data),
    )
    with SortedRuns(PageResult.order, PageResult.weight) as runs:
        for result in _counted(results, progress):
            runs.add(result)
        progress.status(f"{progress.done:,} pages: writing {shown}")
        with BuildWriter(folder) as writer:
            for result in builder.fold(runs.merged()):
                writer.write(result.rendered())
            report = builder.report(config)
            writer.finish(report)
    progress.close()
    return report
