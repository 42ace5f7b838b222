"""Pages -> BuildResult or outputs on disk: run the pure core on every page, count, report.

A page that fails (empty, binary, undecodable, broken, or a parser that gives up on it) is
reported in ``report.skipped`` and never stops the build. Only bad input is a skipped page
(``BAD_INPUT``): any other exception is a bug of ours, reported in ``report.internal_errors``
and by the CLI's own exit code, so neither a user nor a fuzz test can mistake it for a bad
page. Results are ordered by article id, so the output does not depend on the order pages
arrive in, nor on how many workers ran.

Two drivers share one fold (``ReportBuilder.fold``): ``build`` keeps everything in memory
(the library API); ``build_to`` streams a crawl of any size to an output folder — pages are
processed in worker processes and rendered to output bytes there; a folder's results come
back in input order, which is article-id order, and are written as they come; a crawl file's
are sorted through temporary run files first. Memory stays flat as the crawl grows.
"""

from __future__ import annotations

import contextlib
import hashlib
import signal
import statistics
import sys
import threading
import traceback
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import groupby
from pathlib import Path

from lxml import etree

from . import __version__
from .article import article_queries, parse_article
from .config import Config
from .errors import DataError
from .export import LINE_FILES, BuildWriter, render_article
from .export.jsonl import REPORT
from .files import StagedFolder
from .ingest import (
    Page,
    check_paths,
    count_pages,
    crawl_bytes,
    folder_listings,
    in_id_order,
    iter_pages,
)
from .markdown import render_page as render_markdown
from .models import (
    RULE_ORDER,
    BuildResult,
    CorpusRecord,
    Counts,
    GoldenQuery,
    InternalError,
    Manifest,
    Rejected,
    Replaced,
    Report,
    Skipped,
)
from .parallel import SortedRuns, default_workers, map_ordered, map_unordered
from .progress import Progress

#: Longest reason kept for a page the core gave up on (a parser's message can be a page long).
REASON_CHARS = 300


@dataclass
class PageResult:
    """What one page contributes to a build.

    ``corpus`` and ``queries`` hold the records for an in-memory build; a streaming build
    carries their rendered output lines in ``blocks`` instead (smaller to send between
    processes and to spill). ``section_chars`` and ``matches`` feed the report either way.
    """

    article_id: str
    path: str
    digest: str
    url: str | None = None
    source: str = ""
    corpus: list[CorpusRecord] = field(default_factory=list)
    queries: list[GoldenQuery] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    excluded: int = 0
    excluded_by_links: int = 0
    rows: int = 0
    has_table: bool = False
    skipped: Skipped | None = None
    internal: InternalError | None = None
    replaced: int = 0
    section_chars: list[int] = field(default_factory=list)
    matches: list[str] = field(default_factory=list)
    blocks: tuple[bytes, ...] = ()

    def order(self) -> tuple[str, str, str, str, str]:
        """The sort key of a build: article id, then what decides between duplicates."""
        return (self.article_id, self.path, self.digest, self.url or "", self.source)

    def weight(self) -> int:
        """Rough bytes held in memory, for the spill budget."""
        return 512 + sum(map(sys.getsizeof, self.blocks)) + 512 * len(self.rejected)


class PageTimeout(Exception):
    """A page took longer than ``build.page_timeout``."""


#: What a bad page can raise: our own refusals (empty, binary, undecodable, not HTML, nested
#: past the parser), the time limit, and what parsers and the interpreter raise on input
#: they cannot take whole (libxml2/libxslt errors, a recursion or memory limit hit by one
#: page). Anything else raised while a page is processed is a bug of ours.
BAD_INPUT: tuple[type[BaseException], ...] = (
    DataError,
    PageTimeout,
    etree.LxmlError,
    RecursionError,
    MemoryError,
)


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise PageTimeout in the block after ``seconds`` of wall time.

    A SIGALRM timer, so only in the main thread on Unix (a worker process's, or the CLI's);
    elsewhere, for 0, and while a timer of the calling program is pending (it is left alone),
    there is no limit. The previous handler is put back. Regexes and Python loops are
    interrupted where they are; a libxml2 call finishes first (its work is linear in the page).
    """
    if (
        seconds <= 0
        or not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_REAL)[0] > 0
    ):
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise PageTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _skip(result: PageResult, reason: str) -> PageResult:
    result.skipped = Skipped(path=result.path, reason=reason[:REASON_CHARS])
    return result


def _internal(result: PageResult, exc: BaseException) -> PageResult:
    """``result`` marked as lost to a bug: the exception, and the line of ours that raised it."""
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        parts = Path(frame.filename).parts
        if "qrelsmith" in parts:
            inside = "/".join(parts[len(parts) - parts[::-1].index("qrelsmith") - 1 :])
            where = f" (at {inside}:{frame.lineno})"
            break
    error = f"{type(exc).__name__}: {exc}"[:REASON_CHARS] + where
    result.internal = InternalError(path=result.path, error=error)
    result.corpus, result.queries = [], []
    return result


def process_page(page: Page, config: Config) -> PageResult:
    """Run the core on one page; any failure becomes a ``skipped`` entry, never an exception."""
    page = page.loaded()
    digest = hashlib.sha256(page.data).hexdigest()
    result = PageResult(page.article_id, page.path, digest, url=page.url, source=page.source)
    if page.error:
        return _skip(result, page.error)
    timeout = config.build.page_timeout
    try:
        with deadline(timeout):
            html: bytes | str = page.data.decode("utf-8") if page.decoded else page.data
            if page.markdown:  # the same pipeline, on the page a site generator would serve
                html = render_markdown(page.data, config.build.encoding)
            article = parse_article(
                html,
                page.path,
                config.build,
                article_id=page.article_id,
                url=page.url,
                http_charset=page.http_charset,
                anchors=None,  # ids only where a table's links need them
            )
            queries, rejected = article_queries(article, config.build)
    except PageTimeout:
        return _skip(result, f"took longer than {timeout:g} s (build.page_timeout)")
    except DataError as exc:
        return _skip(result, str(exc))
    except BAD_INPUT as exc:
        # A hostile page breaks parsers in ways no rule foresees (libxml2, libxslt, a
        # recursion limit): it costs that page only, and the report says what broke.
        return _skip(result, f"{type(exc).__name__}: {exc}")
    except Exception as exc:
        return _internal(result, exc)
    result.corpus = [
        CorpusRecord(
            id=s.id,
            article_id=article.id,
            path=article.path,
            url=article.url,
            title=article.title,
            heading=s.heading,
            text=s.text,
        )
        for s in article.sections
    ]
    result.queries, result.rejected = queries, rejected
    result.excluded = len(article.excluded)
    result.excluded_by_links = sum(e.why == "links" for e in article.excluded)
    result.rows = len(article.quickref_rows)
    result.has_table = article.table is not None
    result.replaced = article.replaced_characters
    result.section_chars = [len(r.text) for r in result.corpus]
    result.matches = [q.match for q in queries]
    return result


def render_page(page: Page, config: Config) -> PageResult:
    """``process_page``, with the records rendered to output lines (what a worker returns)."""
    result = process_page(page, config)
    try:
        blocks = render_article(result.corpus, result.queries)
    except Exception as exc:  # records the core made are ours: failing to write one is a bug
        return _internal(result, exc)
    return replace(result, corpus=[], queries=[], blocks=blocks)


def crashed_page(page: Page) -> PageResult:
    """The result of a page whose worker process died (a crash in C code, out of memory)."""
    page = page.loaded()
    digest = hashlib.sha256(page.data).hexdigest()
    result = PageResult(page.article_id, page.path, digest, url=page.url, source=page.source)
    return _skip(result, "crashed the worker process")


def _distribution(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"min": 0.0, "median": 0.0, "mean": 0.0, "max": 0.0}
    return {
        "min": float(min(values)),
        "median": float(statistics.median(values)),
        "mean": round(statistics.fmean(values), 4),
        "max": float(max(values)),
    }


class ReportBuilder:
    """Folds page results, in ``PageResult.order``, into the report, dropping duplicates.

    It holds only what the report lists (skipped pages, rejected rows) and one number per
    section and per article, not the records.
    """

    def __init__(self) -> None:
        self.digest = hashlib.sha256()
        self.skipped: list[Skipped] = []
        self.internal: list[InternalError] = []
        self.replaced: list[Replaced] = []
        self.rejected: list[Rejected] = []
        self.section_chars = array("q")
        self.queries_per_article = array("q")
        self.by_match: Counter[str] = Counter()
        self.articles = self.excluded = self.excluded_by_links = self.without_table = 0
        self.rows = 0

    def fold(self, ordered: Iterable[PageResult]) -> Iterator[PageResult]:
        """The results to write, in article-id order: of pages with the same article id, the
        first in path order is kept, the others are listed as skipped duplicates (naming the
        input each came from when they differ)."""
        for _, group in groupby(ordered, key=lambda r: r.article_id):
            first, *others = group
            for other in others:
                reason = f"duplicate article id (same as {first.path})"
                if other.source != first.source:  # say which input's page is kept
                    reason = (
                        f"duplicate article id: the page in {other.source} is left out, "
                        f"the one in {first.source} kept"
                    )
                self.skipped.append(Skipped(path=other.path, reason=reason))
            self._count(first)
            yield first

    def _count(self, page: PageResult) -> None:
        self.digest.update(f"{page.article_id}\0{page.digest}\n".encode())
        if page.skipped is not None:
            self.skipped.append(page.skipped)
            return
        if page.internal is not None:
            self.internal.append(page.internal)
            return
        self.articles += 1
        if page.replaced:
            self.replaced.append(Replaced(path=page.path, characters=page.replaced))
        self.excluded += page.excluded
        self.excluded_by_links += page.excluded_by_links
        self.rows += page.rows
        self.without_table += not page.has_table
        self.section_chars.extend(page.section_chars)
        if page.has_table:
            self.queries_per_article.append(len(page.matches))
        self.by_match.update(page.matches)
        self.rejected.extend(page.rejected)

    def report(self, config: Config) -> Report:
        """Counts, distributions, skipped pages, rejected rows and the manifest."""
        skipped = sorted(self.skipped, key=lambda s: (s.path, s.reason))
        counts = Counts(
            articles=self.articles,
            sections=len(self.section_chars),
            excluded_sections=self.excluded,
            excluded_by_links=self.excluded_by_links,
            articles_without_table=self.without_table,
            rows=self.rows,
            queries=sum(self.by_match.values()),
            rejected=len(self.rejected),
            skipped=len(skipped),
            internal_errors=len(self.internal),
            replaced_characters=sum(r.characters for r in self.replaced),
            by_match={rule: self.by_match.get(rule, 0) for rule in RULE_ORDER},
        )
        lengths = self.section_chars
        return Report(
            counts=counts,
            median_section_chars=float(statistics.median(lengths)) if lengths else 0.0,
            queries_per_article=_distribution(self.queries_per_article),
            skipped=skipped,
            internal_errors=list(self.internal),
            replaced=list(self.replaced),
            rejected=list(self.rejected),
            manifest=Manifest(
                tool="qrelsmith",
                version=__version__,
                config=config.model_dump(mode="json"),
                inputs_sha256=self.digest.hexdigest(),
            ),
        )


def build(paths: Sequence[str | Path], config: Config | None = None) -> BuildResult:
    """Build the golden set from input paths (folders, HTML files, WARC, JSONL), in memory."""
    config = config or Config()
    results = sorted(
        (process_page(page, config) for page in iter_pages(paths)), key=PageResult.order
    )
    builder = ReportBuilder()
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


#: The audit sample's folder in a build (``audit.loading.AUDIT_FOLDER``, not imported: the
#: audit package loads only when a sample is written; a test checks they agree).
AUDIT_FOLDER = "audit"

#: What a build writes at the top of its output folder: the line files, report.json and the
#: audit sample. Every other entry of the previous build's folder (``versions/`` of a review,
#: the user's own files) is carried over.
OWN_ENTRIES = frozenset({file.name.split("/")[0] for file in LINE_FILES} | {REPORT, AUDIT_FOLDER})

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
    """Build a crawl of any size into ``out_dir`` on ``workers`` processes (default: all cores);
    returns the report. The outputs are the bytes ``write_build(build(...))`` would write.

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


def nothing_built(report: Report, paths: Sequence[Path]) -> str:
    """The one-line error of a build that yields no article."""
    inputs = ", ".join(map(str, paths))
    lost = [(s.path, s.reason) for s in report.skipped]
    lost += [(e.path, f"internal error: {e.error}") for e in report.internal_errors]
    if not lost:
        return f"no article built from {inputs}: no HTML page found there"
    path, reason = lost[0]
    pages = f"all {len(lost)} pages" if len(lost) > 1 else "its one page"
    return (
        f"no article built from {inputs}: {pages} skipped "
        f"(first {path}: {reason}); the previous build is left as it was"
    )


def _write_build(
    folder: Path,
    shown: Path,
    checked: Sequence[Path],
    config: Config,
    workers: int | None,
    progress: Progress,
) -> Report:
    """Every output of the build into ``folder`` (``shown`` is the name the user gave)."""
    workers = workers or default_workers()
    render = partial(render_page, config=config)
    listings = folder_listings(checked)
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
        builder = ReportBuilder()
        pages = iter_pages(checked, position, listings)
        ordered = map_ordered(render, pages, workers, on_crash=crashed_page)
        try:
            with BuildWriter(folder) as writer:
                for result in builder.fold(_in_order(_counted(ordered, progress))):
                    writer.write(result.blocks)
                progress.status(f"{progress.done:,} pages: finishing {shown}")
                report = builder.report(config)
                writer.finish(report)
            progress.close()
            return report
        except _OutOfOrder:
            progress.done = 0
            listings = {}  # read the folders again: they changed
    builder = ReportBuilder()
    results = map_unordered(
        render,
        iter_pages(checked, position, listings),
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
                writer.write(result.blocks)
            report = builder.report(config)
            writer.finish(report)
    progress.close()
    return report
