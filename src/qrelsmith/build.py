"""Pages -> BuildResult: run the pure core on every page, collect records, count, report.

A page that fails (empty, binary, undecodable, broken) is reported in ``report.skipped`` and
never stops the build. Results are ordered by article id, so the output does not depend on the
order pages arrive in.
"""

from __future__ import annotations

import hashlib
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__
from .article import article_queries, parse_article
from .config import Config
from .errors import DataError
from .ingest import Page, iter_pages
from .models import (
    RULE_ORDER,
    BuildResult,
    CorpusRecord,
    Counts,
    GoldenQuery,
    Manifest,
    Rejected,
    Report,
    Skipped,
)


@dataclass
class PageResult:
    """What one page contributes to a build."""

    article_id: str
    path: str
    digest: str
    corpus: list[CorpusRecord] = field(default_factory=list)
    queries: list[GoldenQuery] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    excluded: int = 0
    rows: int = 0
    has_table: bool = False
    skipped: Skipped | None = None


def process_page(page: Page, config: Config) -> PageResult:
    """Run the core on one page; any failure becomes a ``skipped`` entry, never an exception."""
    result = PageResult(page.article_id, page.path, hashlib.sha256(page.data).hexdigest())
    if page.error:
        result.skipped = Skipped(path=page.path, reason=page.error)
        return result
    try:
        article = parse_article(
            page.data,
            page.path,
            config.build,
            article_id=page.article_id,
            url=page.url,
            http_charset=page.http_charset,
        )
        queries, rejected = article_queries(article, config.build)
    except DataError as exc:
        result.skipped = Skipped(path=page.path, reason=str(exc))
        return result
    except (RecursionError, MemoryError, ValueError, TypeError, LookupError) as exc:
        # A hostile page can break a parser in ways no rule foresees; it costs that page only.
        result.skipped = Skipped(path=page.path, reason=f"{type(exc).__name__}: {exc}"[:300])
        return result
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
    result.rows = len(article.quickref_rows)
    result.has_table = article.table is not None
    return result


def _distribution(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"min": 0.0, "median": 0.0, "mean": 0.0, "max": 0.0}
    return {
        "min": float(min(values)),
        "median": float(statistics.median(values)),
        "mean": round(statistics.fmean(values), 4),
        "max": float(max(values)),
    }


class Collector:
    """Folds page results (in any order) into ordered records, counts and the report."""

    def __init__(self) -> None:
        self.results: dict[str, PageResult] = {}
        self.duplicates: list[Skipped] = []

    def add(self, result: PageResult) -> None:
        """Add one page; a second page with the same article id is skipped, not merged."""
        held = self.results.get(result.article_id)
        if held is not None:
            first, second = sorted((held, result), key=lambda r: (r.path, r.digest))
            self.results[result.article_id] = first
            self.duplicates.append(
                Skipped(path=second.path, reason=f"duplicate article id (same as {first.path})")
            )
            return
        self.results[result.article_id] = result

    def ordered(self) -> list[PageResult]:
        """Page results by article id."""
        return [self.results[key] for key in sorted(self.results)]

    def report(self, config: Config) -> Report:
        """Counts, distributions, skipped pages, rejected rows and the manifest."""
        pages = self.ordered()
        built = [p for p in pages if p.skipped is None]
        skipped = sorted(
            [p.skipped for p in pages if p.skipped] + self.duplicates, key=lambda s: s.path
        )
        queries = [q for p in built for q in p.queries]
        by_match = Counter(q.match for q in queries)
        lengths = [len(r.text) for p in built for r in p.corpus]
        digest = hashlib.sha256()
        for page in pages:
            digest.update(f"{page.article_id}\0{page.digest}\n".encode())
        counts = Counts(
            articles=len(built),
            sections=len(lengths),
            excluded_sections=sum(p.excluded for p in built),
            articles_without_table=sum(1 for p in built if not p.has_table),
            rows=sum(p.rows for p in built),
            queries=len(queries),
            rejected=sum(len(p.rejected) for p in built),
            skipped=len(skipped),
            by_match={rule: by_match.get(rule, 0) for rule in RULE_ORDER},
        )
        return Report(
            counts=counts,
            median_section_chars=float(statistics.median(lengths)) if lengths else 0.0,
            queries_per_article=_distribution([len(p.queries) for p in built if p.has_table]),
            skipped=skipped,
            rejected=[r for p in built for r in p.rejected],
            manifest=Manifest(
                tool="qrelsmith",
                version=__version__,
                config=config.model_dump(mode="json"),
                inputs_sha256=digest.hexdigest(),
            ),
        )


def collect(pages: Iterable[Page], config: Config) -> Collector:
    """Process pages one after another into a Collector."""
    collector = Collector()
    for page in pages:
        collector.add(process_page(page, config))
    return collector


def build(paths: Sequence[str | Path], config: Config | None = None) -> BuildResult:
    """Build the golden set from input paths (folders of HTML or files), in memory."""
    config = config or Config()
    collector = collect(iter_pages(paths), config)
    pages = collector.ordered()
    return BuildResult(
        corpus=[r for p in pages for r in p.corpus],
        queries=[q for p in pages for q in p.queries],
        report=collector.report(config),
    )
