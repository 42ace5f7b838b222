"""One input page -> its ``PageResult``: the pure core run on it, or why it gave nothing.

A page that fails never raises: bad input becomes a ``skipped`` entry, a bug of ours an
``internal`` one (``failures.py`` says which is which). A worker process returns
``render_page``'s result: the records already rendered to the output files' lines.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass, field, replace

from ..config import Config
from ..ingest import Page
from ..models import (
    TABLE_SOURCE,
    CorpusRecord,
    GoldenQuery,
    InternalError,
    Rejected,
    Skipped,
    SourceNote,
    TableMiss,
)
from ..page.article import article_queries, parse_article
from ..page.markdown import page_from_markdown
from ..store.formats import render_article
from ..store.layout import ascii_id
from .failures import BAD_INPUT, bad_input_reason, internal_error, skipped
from .timeout import deadline


@dataclass
class PageResult:
    """What one page contributes to a build.

    ``corpus`` and ``queries`` hold the records for an in-memory build; a streaming build
    carries their rendered output lines in ``blocks`` instead (smaller to send between
    processes and to spill). ``section_chars``, ``matches`` and ``overlaps`` feed the report
    either way.
    """

    article_id: str
    path: str
    digest: str
    url: str | None = None
    source: str = ""
    #: ``Page.escaped``: the name of a file whose readable path another file's name can share
    escaped: str = ""
    corpus: list[CorpusRecord] = field(default_factory=list)
    queries: list[GoldenQuery] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    excluded: int = 0
    excluded_by_links: int = 0
    rows: int = 0
    has_table: bool = False
    table_miss: TableMiss | None = None
    skipped: Skipped | None = None
    internal: InternalError | None = None
    replaced: int = 0
    section_chars: list[int] = field(default_factory=list)
    matches: list[str] = field(default_factory=list)
    overlaps: list[tuple[float, float, float] | None] = field(default_factory=list)
    blocks: tuple[bytes, ...] = ()
    #: Per query source other than the table: candidates found (the table's are ``rows``).
    candidates: dict[str, int] = field(default_factory=dict)
    #: What the sources left out of the page (malformed markup ...), with reasons.
    notes: list[SourceNote] = field(default_factory=list)
    #: The source of each query (parallel to ``matches``).
    kinds: list[str] = field(default_factory=list)

    def order(self) -> tuple[str, str, str, str, str]:
        """The sort key of a build: article id, then what decides between duplicates."""
        return (self.article_id, self.path, self.digest, self.url or "", self.source)

    def keeps_records(self) -> bool:
        """Whether the page has queries of a source other than the table: the build's fold
        may still drop one asked on another page, so its lines are rendered after it."""
        return any(kind != TABLE_SOURCE for kind in self.kinds)

    def rendered(self) -> tuple[bytes, ...]:
        """The page's output lines: rendered in the worker, or now from its records."""
        return self.blocks or render_article(self.corpus, self.queries)

    def weight(self) -> int:
        """Rough bytes held in memory, for the spill budget."""
        kept = sum(len(record.text) for record in self.corpus) + 2048 * len(self.queries)
        return 512 + sum(map(sys.getsizeof, self.blocks)) + 512 * len(self.rejected) + kept


def _empty_result(page: Page) -> PageResult:
    digest = hashlib.sha256(page.data).hexdigest()
    return PageResult(
        page.article_id, page.path, digest, url=page.url, source=page.source, escaped=page.escaped
    )


def _lost(result: PageResult, exc: BaseException) -> PageResult:
    result.internal = internal_error(result.path, exc)
    result.corpus, result.queries = [], []
    return result


def process_page(page: Page, config: Config) -> PageResult:
    """Run the core on one page; any failure becomes a ``skipped`` or ``internal`` entry,
    never an exception."""
    page = page.loaded(config.build.max_page_bytes)
    if config.build.ascii_ids:
        page = replace(page, article_id=ascii_id(page.article_id))
    result = _empty_result(page)
    if page.error:
        result.skipped = skipped(result.path, page.error)
        return result
    timeout = config.build.page_timeout
    try:
        with deadline(timeout):
            html: bytes | str = page.data.decode("utf-8") if page.decoded else page.data
            if page.markdown:  # the same pipeline, on the page a site generator would serve
                html = page_from_markdown(page.data, config.build.encoding)
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
    except BAD_INPUT as exc:
        result.skipped = skipped(result.path, bad_input_reason(exc, timeout))
        return result
    except Exception as exc:
        return _lost(result, exc)
    result.corpus = [
        CorpusRecord(
            id=s.id,
            article_id=article.id,
            path=article.path,
            url=article.url,
            title=article.title,
            subheadings=s.outline,
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
    result.table_miss = article.table_miss
    result.replaced = article.replaced_characters
    result.section_chars = [len(r.text) for r in result.corpus]
    result.matches = [q.match for q in queries]
    result.kinds = [q.kind for q in queries]
    for candidate in article.candidates:
        result.candidates[candidate.kind] = result.candidates.get(candidate.kind, 0) + 1
    result.notes = list(article.notes)
    result.overlaps = [
        None if q.overlap is None else (q.overlap.heading, q.overlap.text, q.overlap.section)
        for q in queries
    ]
    return result


def render_page(page: Page, config: Config) -> PageResult:
    """``process_page``, with the records rendered to output lines (what a worker returns)."""
    result = process_page(page, config)
    if result.keeps_records():
        return result  # rendered by the fold, once it has kept each question once
    try:
        blocks = render_article(result.corpus, result.queries)
    except Exception as exc:  # records the core made are ours: failing to write one is a bug
        return _lost(result, exc)
    # the result is this call's own: set in place (``dataclasses.replace`` cost 24 us a page)
    result.corpus, result.queries, result.blocks = [], [], blocks
    return result


def crashed_page(page: Page) -> PageResult:
    """The result of a page whose worker process died (a crash in C code, out of memory)."""
    result = _empty_result(page.loaded())
    result.skipped = skipped(result.path, "crashed the worker process")
    return result
