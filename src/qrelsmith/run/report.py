"""Page results -> report.json: counts, distributions, skipped pages, rejected rows, manifest.

``ReportBuilder.fold`` is the one fold both build drivers run the results through, in
article-id order: it drops duplicate article ids and keeps one number per section and per
article, not the records, so its memory stays small on any crawl.
"""

from __future__ import annotations

import hashlib
import statistics
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import groupby
from pathlib import Path

from ..config import Config
from ..labelling.overlap import overlap_report
from ..models import (
    RULE_ORDER,
    RULES_COUNTED_WHEN_USED,
    TABLE_SOURCE,
    Counts,
    InternalError,
    Manifest,
    PassedOver,
    Rejected,
    Replaced,
    Report,
    Skipped,
    SourceCounts,
    TableCandidate,
    TableMiss,
    Tables,
)
from ..version import __version__
from .page_results import PageResult

#: report.json lists this many of the tables closest to being a quick-reference table.
TABLE_CANDIDATES = 10
#: How close a miss came, closest first: a table naming headings, then a header naming some
#: roles, then a table with neither.
_MISS_RANK = {"few_headings_named": 0, "no_query_or_reference_header": 1, "no_table": 2}
_MISS_WORDS = {
    "few_headings_named": "with a table near the top naming some headings, below the rule",
    "no_query_or_reference_header": "whose table headers name no query or reference column",
    "no_table": "without any table",
}


def _closeness(candidate: TableCandidate) -> tuple[int, bool, float, int, str]:
    share = candidate.named / candidate.rows if candidate.rows else 0.0
    one_section = candidate.sections < 2  # the rule asks for two sections at least
    return (
        _MISS_RANK[candidate.reason],
        one_section,
        -share,
        -len(candidate.roles),
        candidate.path,
    )


def distribution(values: Sequence[float]) -> dict[str, float]:
    """min, median, mean (4 decimals) and max of ``values``; zeros when there are none."""
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

    def __init__(self, passed_over: Sequence[PassedOver] = ()) -> None:
        self.passed_over = list(passed_over)
        self.digest = hashlib.sha256()
        self.skipped: list[Skipped] = []
        self.internal: list[InternalError] = []
        self.replaced: list[Replaced] = []
        self.rejected: list[Rejected] = []
        self.section_chars = array("q")
        self.queries_per_article = array("q")
        self.by_match: Counter[str] = Counter()
        self.heading_overlap, self.text_overlap, self.section_overlap = (array("d") for _ in "htx")
        self.without_units = 0
        self.misses: Counter[str] = Counter()
        self.candidates: list[TableCandidate] = []
        self.articles = self.excluded = self.excluded_by_links = self.without_table = 0
        self.rows = 0
        #: per source other than the table: articles with a candidate, candidates, reasons
        self.source_articles: Counter[str] = Counter()
        self.source_candidates: Counter[str] = Counter()
        self.source_reasons: dict[str, Counter[str]] = {}
        self.by_kind: Counter[str] = Counter()
        #: the questions kept so far (``faq.question_key``) and the query that asked each
        self.asked: dict[str, str] = {}

    def fold(self, ordered: Iterable[PageResult]) -> Iterator[PageResult]:
        """The results to write, in article-id order: of pages with the same article id, the
        first in path order is kept, the others are listed as skipped duplicates (naming the
        input each came from when they differ)."""
        for _, group in groupby(ordered, key=lambda r: r.article_id):
            first, *others = group
            for other in others:
                path, same = other.path, first.path
                if path == same:  # two names read alike (bad\xff.html, bad%FF.html): told apart
                    path, same = other.escaped or path, first.escaped or same
                reason = f"duplicate article id (same as {same})"
                if other.source != first.source:  # say which input's page is kept
                    reason = (
                        f"duplicate article id: the page in {other.source} is left out, "
                        f"the one in {first.source} kept"
                    )
                self.skipped.append(Skipped(path=path, reason=reason))
            self._once(first)
            self._count(first)
            yield first

    def _once(self, page: PageResult) -> None:
        """Drop the page's questions another page of the build already asked (near-duplicates
        of one site: a FAQ repeated on several pages), keeping the first in article order."""
        if not page.keeps_records():
            return
        from ..sources.faq import question_key  # the one key questions are compared by

        kept = []
        for number, query in enumerate(page.queries):
            key = question_key(query.query) if query.kind != TABLE_SOURCE else ""
            first = self.asked.get(key) if key else None
            if first is None:
                if key:
                    self.asked[key] = query.qid
                kept.append(number)
                continue
            page.rejected.append(
                Rejected(
                    path=query.origin.path,
                    kind=query.kind,
                    row=query.origin.row,
                    query=query.query,
                    reference=query.locator or "",
                    reason="near_duplicate",
                    candidates=[first],
                )
            )
        if len(kept) == len(page.queries):
            return
        page.queries = [page.queries[n] for n in kept]
        page.matches = [page.matches[n] for n in kept]
        page.kinds = [page.kinds[n] for n in kept]
        page.overlaps = [page.overlaps[n] for n in kept]

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
        if not page.has_table and page.table_miss is not None:
            self._missed(page.path, page.table_miss)
        self.section_chars.extend(page.section_chars)
        if page.has_table or page.candidates:
            self.queries_per_article.append(len(page.matches))
        self.by_match.update(page.matches)
        self.by_kind.update(page.kinds)
        if page.has_table:
            self.source_articles[TABLE_SOURCE] += 1
        for kind, found in page.candidates.items():
            self.source_articles[kind] += 1
            self.source_candidates[kind] += found
        for note in page.notes:
            self.source_reasons.setdefault(note.kind, Counter())[note.reason] += 1
        for rejected in page.rejected:
            self.source_reasons.setdefault(rejected.kind, Counter())[rejected.reason] += 1
        for shares in page.overlaps:
            if shares is None:
                self.without_units += 1
                continue
            self.heading_overlap.append(shares[0])
            self.text_overlap.append(shares[1])
            self.section_overlap.append(shares[2])
        self.rejected.extend(page.rejected)

    def _missed(self, path: str, miss: TableMiss) -> None:
        self.misses[miss.reason] += 1
        if miss.reason == "no_table":
            return
        self.candidates.append(TableCandidate(path=path, **miss.model_dump()))
        if len(self.candidates) > 10 * TABLE_CANDIDATES:  # keep memory flat on any crawl
            self.candidates = sorted(self.candidates, key=_closeness)[:TABLE_CANDIDATES]

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
            by_match={
                rule: self.by_match.get(rule, 0)
                for rule in RULE_ORDER
                if rule not in RULES_COUNTED_WHEN_USED or self.by_match.get(rule)
            },
        )
        lengths = self.section_chars
        return Report(
            counts=counts,
            median_section_chars=float(statistics.median(lengths)) if lengths else 0.0,
            queries_per_article=distribution(self.queries_per_article),
            overlap=overlap_report(
                self.heading_overlap, self.text_overlap, self.section_overlap, self.without_units
            ),
            skipped=skipped,
            internal_errors=list(self.internal),
            replaced=list(self.replaced),
            passed_over=self.passed_over,
            rejected=list(self.rejected),
            tables=Tables(
                reasons={reason: self.misses.get(reason, 0) for reason in _MISS_RANK},
                candidates=sorted(self.candidates, key=_closeness)[:TABLE_CANDIDATES],
            ),
            sources=self._sources(config),
            manifest=Manifest(
                tool="qrelsmith",
                version=__version__,
                config=config.model_dump(mode="json"),
                inputs_sha256=self.digest.hexdigest(),
            ),
        )

    def _sources(self, config: Config) -> dict[str, SourceCounts] | None:
        """report.json's ``sources``: None in a table-only build (its counts are the table's)."""
        kinds = config.build.sources
        if list(kinds) == [TABLE_SOURCE]:
            return None
        out = {}
        for kind in kinds:
            reasons = self.source_reasons.get(kind, Counter())
            rejected = sum(r.kind == kind for r in self.rejected)
            out[kind] = SourceCounts(
                articles=self.source_articles[kind],
                candidates=self.rows if kind == TABLE_SOURCE else self.source_candidates[kind],
                queries=self.by_kind[kind],
                rejected=rejected,
                reasons=dict(sorted(reasons.items())),
            )
        return out


def build_summary(report: Report, out: Path) -> str:
    """The lines printed at the end of a build."""
    counts = report.counts
    rules = ", ".join(f"{rule} {n}" for rule, n in counts.by_match.items())
    by_links = f", {counts.excluded_by_links} as link lists" if counts.excluded_by_links else ""
    elsewhere = sum(1 for row in report.rejected if row.reason == "elsewhere")
    away = f" ({elsewhere} say their answer is elsewhere)" if elsewhere else ""
    lines = [
        f"built {out}: {counts.articles} articles, {counts.sections} sections "
        f"({counts.excluded_sections} excluded{by_links}), {counts.queries} queries from "
        f"{counts.rows} rows",
        f"  matched by: {rules}",
        f"  rejected rows: {counts.rejected}{away}; articles without a table: "
        f"{counts.articles_without_table}; skipped pages: {counts.skipped}"
        + (f"; internal errors: {counts.internal_errors}" if counts.internal_errors else ""),
    ]
    if report.sources is not None:
        lines.append(
            "  by source: "
            + "; ".join(
                f"{kind} {counts.queries} queries of {counts.candidates} "
                f"{'rows' if kind == TABLE_SOURCE else 'questions'}"
                + (
                    " (" + ", ".join(f"{r} {n}" for r, n in counts.reasons.items()) + ")"
                    if counts.reasons
                    else ""
                )
                for kind, counts in report.sources.items()
            )
        )
    lines += tables_summary(report)
    for folder in report.passed_over:
        files = "file" if folder.files == 1 else "files"
        pages = "HTML" if folder.kind == "Markdown" else "Markdown"
        lines.append(
            f"  passed over in {folder.path}: {folder.files:,} {folder.kind} {files} (the tree"
            f' holds more {pages} pages; report.json "passed_over")'
        )
    if report.replaced:
        lines.append(
            f"  read with undecodable bytes shown as U+FFFD: {len(report.replaced)} pages "
            f'({counts.replaced_characters} characters; report.json "replaced")'
        )
    for skipped in report.skipped[:10]:
        lines.append(f"  skipped {skipped.path}: {skipped.reason}")
    if len(report.skipped) > 10:
        lines.append(f"  … and {len(report.skipped) - 10} more in report.json")
    return "\n".join(lines)


def tables_summary(report: Report) -> list[str]:
    """The build summary's lines on the articles without a quick-reference table: how many
    for each reason, the closest table, and the config keys that would make one count."""
    tables = report.tables
    build = report.manifest.config.get("build")
    share = build.get("heading_column_share") if isinstance(build, dict) else None
    parts = [f"{n} {_MISS_WORDS[r]}" for r, n in tables.reasons.items() if n]
    if not parts:
        return []
    lines = ["  without a table: " + "; ".join(parts)]
    if tables.candidates:
        best = tables.candidates[0]
        sections = "1 section" if best.sections == 1 else f"{best.sections} sections"
        named = (
            f", {best.named} of {best.rows} rows name a heading ({sections})" if best.named else ""
        )
        caption = f'"{best.caption}" ' if best.caption else "(no caption) "
        lines.append(
            f"  closest table: {best.path} {caption}[{' | '.join(best.header)}]{named} "
            f'(report.json "tables")'
        )
        lines.append(
            "  a table counts when its header names a query and a reference column ([build] "
            "query_headers, reference_headers: keywords per language) or when, near the top, "
            f"one column's cells name two headings or more ([build] heading_column_share = {share}"
            " of its cells)"
        )
    return lines


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


def why_no_query(report: Report | None) -> str:
    """Why a build holds no query, source by source (the one answer of build, check and
    validate): the sources tried and what each found."""
    if report is None:
        return "no report.json says which query sources were tried"
    counts = report.counts
    sources = report.sources or {
        TABLE_SOURCE: SourceCounts(
            articles=counts.articles - counts.articles_without_table,
            candidates=counts.rows,
            queries=counts.queries,
            rejected=counts.rejected,
            reasons=dict(Counter(r.reason for r in report.rejected)),
        )
    }
    parts = []
    for kind, found in sources.items():
        if found.candidates:
            reasons = ", ".join(f"{r} {n}" for r, n in found.reasons.items())
            parts.append(f"{kind}: {found.candidates} found, none kept ({reasons})")
        elif kind == TABLE_SOURCE:
            misses = "; ".join(
                f"{n} {_MISS_WORDS[r]}" for r, n in report.tables.reasons.items() if n
            )
            parts.append(f"{kind}: no quick-reference table ({misses or 'no article'})")
        else:
            from ..sources import SOURCES  # each source says what it looks for

            looked = SOURCES[kind].looks_for if kind in SOURCES else "nothing found"
            notes = ", ".join(f"{r} {n}" for r, n in found.reasons.items())
            parts.append(f"{kind}: {looked}" + (f" ({notes})" if notes else ""))
    return "sources tried: " + "; ".join(parts)


def nothing_asked(report: Report, paths: Sequence[Path], out: Path) -> str:
    """The one-line error of a build that yields articles but no query (its outputs are
    written: report.json says why each article gave none)."""
    inputs = ", ".join(map(str, paths))
    articles = report.counts.articles
    return (
        f"no query built from {inputs} ({articles} article{'' if articles == 1 else 's'}): "
        f"{why_no_query(report)}; {out} holds the corpus and report.json, and no test set"
    )
