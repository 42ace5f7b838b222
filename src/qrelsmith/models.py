"""Typed, immutable records that flow through the pipeline and into the output files.

Every record written to disk is one of these models; the JSON Schemas in ``schemas/`` are
generated from them (``python -m qrelsmith.schemas``) and a test fails when they drift.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MatchRule = Literal["anchor", "exact", "contains", "fuzzy"]
RejectReason = Literal["unmatched", "ambiguous", "empty"]

#: Strongest rule first; a query whose reference has several parts reports its weakest rule.
RULE_ORDER: tuple[MatchRule, ...] = ("anchor", "exact", "contains", "fuzzy")


class Record(BaseModel):
    """Base for all records: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- parsed article


class Section(Record):
    """One H2 section of an article (H3 and deeper belong to it)."""

    id: str = Field(description="'<article_id>#<n>', n = position among the article's H2s")
    article_id: str
    index: int = Field(description="0-based position among all H2 headings of the article")
    heading: str
    subheadings: list[str] = Field(default_factory=list, description="H3+ headings inside")
    anchors: list[str] = Field(
        default_factory=list, description="element ids inside the section (heading first)"
    )
    text: str = Field(description="section text: tags removed, code dropped, whitespace folded")


class ExcludedSection(Record):
    """An H2 section kept out of the corpus (FAQ, summary, references ...)."""

    id: str
    heading: str
    pattern: str = Field(description="the exclusion pattern that matched the heading")


class QuickRefRow(Record):
    """One data row of an article's quick-reference table."""

    row: int = Field(description="0-based index among the table's data rows")
    query: str
    answer: str
    reference: str = Field(description="the section-reference cell's text")
    reference_anchors: list[str] = Field(
        default_factory=list, description="in-page link targets (#id) found in the reference cell"
    )


class QuickRefTable(Record):
    """The quick-reference table found in an article, and how it was recognised."""

    name: str = Field(description="caption, preceding label, or a default name")
    columns: dict[str, int] = Field(description="role (query/answer/reference) -> column index")
    detected_by: Literal["headers", "headings"]
    rows: list[QuickRefRow]


class Article(Record):
    """A parsed page: its corpus sections, excluded sections and quick-reference table."""

    id: str = Field(description="from the page's path relative to the crawl root, or its URL")
    path: str = ""
    url: str | None = None
    title: str = ""
    sections: list[Section] = Field(default_factory=list)
    excluded: list[ExcludedSection] = Field(default_factory=list)
    table: QuickRefTable | None = None

    @property
    def quickref_rows(self) -> list[QuickRefRow]:
        """The quick-reference rows found (empty when the page has no table)."""
        return list(self.table.rows) if self.table else []


# --------------------------------------------------------------------------- matching


class Match(Record):
    """Where a section reference points: section ids, the rule that matched, its score."""

    section_ids: list[str] = Field(default_factory=list)
    rule: MatchRule | None = None
    score: float = 0.0
    reason: RejectReason | None = Field(
        default=None, description="set when section_ids is empty: unmatched or ambiguous"
    )
    candidates: list[str] = Field(
        default_factory=list, description="for ambiguous matches: the headings that tied"
    )


# --------------------------------------------------------------------------- outputs


class CorpusRecord(Record):
    """One line of corpus.jsonl: a retrievable section."""

    id: str
    article_id: str
    path: str
    url: str | None = None
    title: str
    heading: str
    text: str


class Origin(Record):
    """Where a query came from: the page and the row of its quick-reference table."""

    path: str
    row: int
    url: str | None = None


class GoldenQuery(Record):
    """One line of golden.jsonl: a query, its graded-2 targets and how they were found."""

    qid: str
    query: str
    answer: str
    relevant: dict[str, int] = Field(description="section id -> grade (2 for named sections)")
    same_article: int = Field(description="number of grade-1 sections (rest of the article)")
    source: str = Field(description="'<table name>:<reference text>'")
    match: MatchRule
    score: float
    origin: Origin
    flags: list[str] = Field(
        default_factory=list, description="review marks, e.g. 'unsure' after an audit"
    )


class Rejected(Record):
    """A quick-reference row that did not become a query, and why."""

    path: str
    row: int
    query: str
    reference: str
    reason: RejectReason
    candidates: list[str] = Field(default_factory=list)


class Skipped(Record):
    """An input page that was not processed, and why."""

    path: str
    reason: str


class Counts(Record):
    """Totals of one build."""

    articles: int
    sections: int
    excluded_sections: int
    articles_without_table: int
    rows: int
    queries: int
    rejected: int
    skipped: int
    by_match: dict[str, int]


class Manifest(Record):
    """What produced a build: no clock time, so equal inputs give equal bytes."""

    tool: str
    version: str
    config: dict[str, object]
    inputs_sha256: str = Field(description="hash over (article id, page bytes) in id order")


class Report(Record):
    """report.json: counts, distributions, skipped pages, rejected rows and the manifest."""

    counts: Counts
    median_section_chars: float
    queries_per_article: dict[str, float] = Field(description="min, median, mean, max")
    skipped: list[Skipped]
    rejected: list[Rejected]
    manifest: Manifest


class BeirDocument(Record):
    """One line of beir/corpus.jsonl."""

    id: str = Field(alias="_id")
    title: str
    text: str


class BeirQuery(Record):
    """One line of beir/queries.jsonl."""

    id: str = Field(alias="_id")
    text: str


class BuildResult(Record):
    """Everything a build produces, in memory; ``export.write_build`` puts it on disk."""

    corpus: list[CorpusRecord]
    queries: list[GoldenQuery]
    report: Report
