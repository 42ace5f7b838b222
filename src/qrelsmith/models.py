"""Typed, immutable records that flow through the pipeline and into the output files.

Every record written to disk is one of these models; the JSON Schemas in ``schemas/`` are
generated from them (``python -m qrelsmith.store.schemas``) and a test fails when they drift.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

MatchRule = Literal[
    "anchor", "exact", "contains", "number", "fuzzy", "order", "content", "semantic", "faq-body",
    "faq-page",
]  # fmt: skip
#: unmatched: no heading is close enough; ambiguous: two sections tie; empty: no reference or
#: query text; vague: link text that names no section ("here", こちら); out-of-order: a fuzzy
#: match the table's order contradicts; too_long: a query no person types; elsewhere: the
#: row's own cells say its answer is in another article or page ("別記事で解説").
#: The FAQ source's own (``sources/faq.py``): no_answer: a question with nothing after it;
#: duplicate_question: the same question again on the page; no_confident_section: no body
#: section stands out for an in-article pair; answer_not_in_section: the section that does
#: holds none of the answer's words (evidence.py); question_in_document: the question is
#: written in a document labelled for it; near_duplicate: another page of the build asked it.
RejectReason = Literal[
    "unmatched", "ambiguous", "empty", "vague", "out-of-order", "too_long", "table_too_long",
    "elsewhere", "no_answer", "duplicate_question", "no_confident_section", "answer_not_in_section",
    "question_in_document", "near_duplicate",
]  # fmt: skip

#: Strongest rule first; a query whose reference has several parts reports its weakest rule.
RULE_ORDER: tuple[MatchRule, ...] = (
    "anchor", "exact", "contains", "number", "fuzzy", "order", "content", "semantic",
    "faq-body", "faq-page",
)  # fmt: skip
#: Rules counted in report.json only when they decided: those of an option that is off by
#: default (semantic matching, the FAQ source) and ``number`` (a section named by its number:
#: most crawls have none), so that a build that used none writes the report it always wrote.
RULES_COUNTED_WHEN_USED: frozenset[MatchRule] = frozenset(
    {"number", "semantic", "faq-body", "faq-page"}
)

#: The query source of today's builds (``sources/``): the one whose fields golden.jsonl and
#: report.json leave out, so that a table-only build writes what qrelsmith always wrote.
TABLE_SOURCE = "table"


class Record(BaseModel):
    """Base for all records: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


# --------------------------------------------------------------------------- parsed article


class SubHeading(Record):
    """A heading inside a section (H3 and deeper under an H2): where its text starts in the
    section's text, its level and its text."""

    at: int = Field(
        ge=0,
        description="offset in code points of the section's text where the heading's text "
        "starts: text[at:at + len(heading text)] is the heading text",
    )
    level: int = Field(ge=2, le=6, description="3 for an H3 ... 6 for an H6 (under H2 sections)")
    text: str


class Section(Record):
    """One H2 section of an article (H3 and deeper belong to it)."""

    id: str = Field(description="'<article_id>#<n>', n = position among the article's H2s")
    article_id: str
    index: int = Field(description="0-based position among all H2 headings of the article")
    heading: str
    subheadings: list[str] = Field(default_factory=list, description="H3+ headings inside")
    outline: list[SubHeading] = Field(
        default_factory=list,
        description="the H3+ headings inside with their level and where each starts in text",
    )
    anchors: list[str] = Field(
        default_factory=list,
        description="element ids inside the section (heading first); a build reads them only "
        "for an article with a quick-reference table, whose in-page links they resolve",
    )
    text: str = Field(description="section text: tags removed, code dropped, whitespace folded")


#: Why a section is kept out of the corpus: its heading names it (FAQ, summary, references,
#: see also ...), or its text is mostly links to other pages.
ExclusionReason = Literal["heading", "links"]


class ExcludedSection(Record):
    """An H2 section kept out of the corpus (FAQ, summary, references, link lists ...)."""

    id: str
    heading: str
    why: ExclusionReason = "heading"
    pattern: str | None = Field(
        default=None, description="why=heading: the exclusion pattern that matched the heading"
    )
    link_density: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="why=links: share of the section's characters (white space left out) in "
        "links to other pages",
    )


class QuickRefRow(Record):
    """One data row of an article's quick-reference table."""

    row: int = Field(description="0-based index among the table's data rows")
    query: str
    answer: str
    reference: str = Field(description="the section-reference cell's text")
    reference_anchors: list[str] = Field(
        default_factory=list, description="in-page link targets (#id) found in the reference cell"
    )
    offsite: bool = Field(
        default=False, description="a cell of the row links to another page (not a #id)"
    )


class QuickRefTable(Record):
    """The quick-reference table found in an article, and how it was recognised."""

    name: str = Field(description="caption, preceding label, or a default name")
    columns: dict[str, int] = Field(description="role (query/answer/reference) -> column index")
    detected_by: Literal["headers", "headings"]
    rows: list[QuickRefRow]


class Candidate(Record):
    """A question and its answer a query source found in an article (any source but the
    table, whose rows are ``QuickRefRow``), before it is labelled."""

    kind: str = Field(description="the source that found it (sources.SOURCES)")
    n: int = Field(description="0-based position among the source's candidates on the page")
    query: str
    answer: str
    locator: str = Field(description="where it was found on the page, in words")
    own_document: bool = Field(
        description="the pair is the page's content (a FAQ page, FAQPage markup): its answer "
        "is a corpus document of its own; else it is labelled to the body's sections"
    )
    points_elsewhere: bool = Field(
        default=False,
        description='the answer only points elsewhere ("see X", "…はこちら", a link off the '
        "page): no body section is where it is written",
    )


class SourceNote(Record):
    """Something a query source met on a page and left out: a pair or a block it could not
    read (malformed markup, an answer missing), with the reason."""

    kind: str
    reason: str
    detail: str = ""


#: Why an article has no quick-reference table. no_table: it has no table at all;
#: no_query_or_reference_header: its tables' header rows name no query column and reference
#: column (by the header keywords); few_headings_named: a table near the top has a column
#: whose cells name some of the article's headings, but fewer than the detection rule asks.
TableMissReason = Literal["no_table", "no_query_or_reference_header", "few_headings_named"]


class TableMiss(Record):
    """Why no table of an article was taken as its quick-reference table, and the closest."""

    reason: TableMissReason
    caption: str | None = Field(
        default=None, description="the closest table's caption, label or default name"
    )
    header: list[str] = Field(default_factory=list, description="its header row's cells")
    roles: list[str] = Field(
        default_factory=list, description="the roles its header names (query/answer/reference)"
    )
    named: int = Field(default=0, description="cells of its best column naming a heading")
    rows: int = Field(default=0, description="data rows read to recognise it")
    sections: int = Field(default=0, description="distinct sections those cells name")


class Article(Record):
    """A parsed page: its corpus sections, excluded sections and quick-reference table."""

    id: str = Field(description="from the page's path relative to the crawl root, or its URL")
    path: str = ""
    url: str | None = None
    title: str = ""
    sections: list[Section] = Field(default_factory=list)
    excluded: list[ExcludedSection] = Field(default_factory=list)
    table: QuickRefTable | None = None
    table_miss: TableMiss | None = Field(
        default=None, description="why there is no table (set when table is None)"
    )
    replaced_characters: int = Field(
        default=0,
        description="byte sequences its encoding could not decode, read as U+FFFD",
    )
    candidates: list[Candidate] = Field(
        default_factory=list, description="questions the other query sources found"
    )
    notes: list[SourceNote] = Field(
        default_factory=list, description="what the query sources left out, and why"
    )
    sources: list[str] = Field(
        default_factory=lambda: [TABLE_SOURCE], description="the query sources read"
    )

    @property
    def quickref_rows(self) -> list[QuickRefRow]:
        """The quick-reference rows found (empty when the page has no table)."""
        return list(self.table.rows) if self.table else []


# --------------------------------------------------------------------------- matching


class Match(Record):
    """Where a section reference points: section ids, the rule that decided, its confidence."""

    section_ids: list[str] = Field(default_factory=list)
    rule: MatchRule | None = None
    confidence: float = Field(
        default=0.0,
        ge=0,
        le=1,
        description="0-1 on one scale for every rule: anchor 1, exact 0.97-0.99, containment "
        "0.8-0.95, similarity and order below 0.8, semantic at most 0.6",
    )
    reason: RejectReason | None = Field(
        default=None, description="set when section_ids is empty: why no section was given"
    )
    candidates: list[str] = Field(
        default_factory=list, description="for ambiguous matches: the headings that tied"
    )
    flags: list[str] = Field(
        default_factory=list,
        description="partial-reference: only some parts of an 'A／B' reference matched; "
        "duplicate-heading: the heading repeats and the first (or the one the order "
        "chose) was taken; repeated-subheading: the reference names a sub-heading the page "
        "repeats under several sections, and the rest of it named which",
    )


# --------------------------------------------------------------------------- outputs


class CorpusRecord(Record):
    """One line of corpus.jsonl: a retrievable section."""

    id: str
    article_id: str
    path: str
    url: str | None = None
    title: str
    # Before heading: beir/corpus.jsonl is cut from these lines from the heading on
    # (store/formats/beir.py), and a section without sub-headings keeps its bytes.
    subheadings: list[SubHeading] = Field(
        default_factory=list,
        exclude_if=lambda value: not value,
        description="the H3+ headings inside the section, in page order: where each starts in "
        "text, its level and its text; absent when the section has none",
    )
    heading: str
    text: str


class Origin(Record):
    """Where a query came from: the page and the row of its quick-reference table."""

    path: str
    row: int
    url: str | None = None


class Evidence(Record):
    """Where a query's answer cell is written in the article: a span of one section's text."""

    section: str = Field(
        description="the section id whose corpus.jsonl text holds the span (normally a labelled "
        "section; another one of the article when the labelled ones do not hold the answer)"
    )
    start: int = Field(ge=0, description="character offset of the span in that section's text")
    end: int = Field(ge=0, description="end offset (exclusive): text[start:end] is the span")
    text: str = Field(description="the span itself, exactly text[start:end]")
    score: float = Field(
        ge=0,
        le=1,
        description="1 when the whole answer is in the span (NFKC, case and white space "
        "folded); else the weighted share of the answer's comparison units (words, CJK "
        "bigrams) found in the span (evidence.py)",
    )


class Overlap(Record):
    """How many of a query's words its labelled sections already hold (``overlap.py``).

    Shares (0-1, 4 decimals) of the query's distinct comparison units (``text.units``: the
    matcher's units -- Latin light stems, CJK and Hangul bigrams) found in the units of its
    labelled sections: in their headings, in their text, and in either.
    """

    heading: float = Field(ge=0, le=1, description="share found in the labelled headings")
    text: float = Field(ge=0, le=1, description="share found in the labelled sections' text")
    section: float = Field(
        ge=0, le=1, description="share found in either (heading or text of a labelled section)"
    )


def _source_always_written(schema: dict[str, Any]) -> None:
    """golden.jsonl's schema: ``source`` is in every line (its default only lets it be made)."""
    schema["properties"]["source"].pop("default", None)
    required = schema.setdefault("required", [])
    required.insert(required.index("match"), "source")


class GoldenQuery(Record):
    """One line of golden.jsonl: a query, its graded-2 targets and how they were found."""

    model_config = ConfigDict(json_schema_extra=_source_always_written)  # merged with Record's

    qid: str
    query: str
    answer: str
    relevant: dict[str, int] = Field(description="section id -> grade (2 for named sections)")
    same_article: int = Field(description="number of grade-1 sections (rest of the article)")
    source: str = Field(
        default="",  # made by _derive_source; every golden.jsonl line holds it (see the schema)
        description="'<table>:<reference>', made from the two fields after it (kept for tools "
        "that read it; a caption may hold a colon: read table and reference, never split "
        "this); '<kind>:<locator>' for a query of another source",
    )
    kind: str = Field(
        default=TABLE_SOURCE,
        exclude_if=lambda value: value == TABLE_SOURCE,
        description="the query source that found it (sources.SOURCES); absent: 'table'",
    )
    locator: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="where a query of another source than the table was found on its page",
    )
    table: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="the name of the row's quick-reference table (QuickRefTable.name: its "
        "caption, the label before it, or a default); table queries only",
    )
    reference: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="the row's section-reference cell, as written; table queries only",
    )
    match: MatchRule
    confidence: float = Field(
        ge=0, le=1, description="0-1, one scale for every rule (see Match.confidence)"
    )
    origin: Origin
    flags: list[str] = Field(
        default_factory=list,
        description="match marks (partial-reference, duplicate-heading, "
        "repeated-subheading), answer-elsewhere (a "
        "checkable answer found in another section only) and review marks "
        "('corrected', 'unsure', 'disputed-correction' after an audit)",
    )
    evidence: Evidence | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="where the answer is written; absent when no section holds it",
    )
    overlap: Overlap | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="the query's word overlap with its labelled sections (how easy it is for "
        "a word-matching retriever); absent when the query has no comparison unit",
    )
    judged: dict[str, int] = Field(
        default_factory=dict,
        exclude_if=lambda value: not value,
        description="documents outside the article that a pooled review judged (audit apply "
        "of a pool sheet): section id -> grade (2 relevant, 1 partly, 0 judged not relevant); "
        "absent when none",
    )

    @model_validator(mode="before")
    @classmethod
    def _derive_source(cls, data: Any) -> Any:
        """``source`` is always ``<table>:<reference>``: made here, checked when read back."""
        if isinstance(data, dict) and data.get("locator") is not None:
            derived = f"{data.get('kind', TABLE_SOURCE)}:{data['locator']}"
            if data.get("source", derived) != derived:
                raise ValueError(f"source {data['source']!r} is not {derived!r} (kind:locator)")
            data = {**data, "source": derived}
        elif isinstance(data, dict) and "table" in data and "reference" in data:
            derived = f"{data['table']}:{data['reference']}"
            if data.get("source", derived) != derived:
                raise ValueError(f"source {data['source']!r} is not {derived!r} (table:reference)")
            data = {**data, "source": derived}
        elif isinstance(data, dict) and "source" in data:
            raise ValueError(
                "no table and reference fields: written by an earlier qrelsmith, rebuild it"
            )
        return data


class Rejected(Record):
    """A quick-reference row (or another source's question) that did not become a query, and
    why."""

    path: str
    kind: str = Field(
        default=TABLE_SOURCE,
        exclude_if=lambda value: value == TABLE_SOURCE,
        description="the query source; absent: 'table' (row is the table's data row)",
    )
    row: int
    query: str
    reference: str
    reason: RejectReason
    candidates: list[str] = Field(default_factory=list)


class Skipped(Record):
    """An input page that was not processed, and why."""

    path: str
    reason: str


class PassedOver(Record):
    """Files of an input folder that were not read as pages: a tree is read as HTML or as
    Markdown, whichever it holds more of; the other kind are its notes or its templates."""

    path: str = Field(description="the input folder's name")
    kind: Literal["HTML", "Markdown"] = Field(description="the kind of file passed over")
    files: int


class Replaced(Record):
    """A page read with a few undecodable bytes shown as U+FFFD, as a browser shows them."""

    path: str
    characters: int = Field(description="U+FFFD put in for bytes its encoding cannot decode")


class InternalError(Record):
    """A page the build could not process because of a bug in qrelsmith (not a bad page)."""

    path: str
    error: str = Field(description="the exception and where it was raised in qrelsmith")


class Counts(Record):
    """Totals of one build."""

    articles: int
    sections: int
    excluded_sections: int = Field(description="by heading and by links, together")
    excluded_by_links: int = Field(
        description="of excluded_sections, those excluded as link-only (see also, next steps "
        "...) whose heading no pattern names"
    )
    articles_without_table: int
    rows: int
    queries: int
    rejected: int
    skipped: int
    internal_errors: int = Field(default=0, description="pages lost to a bug in qrelsmith")
    replaced_characters: int = Field(
        default=0, description="U+FFFD put in for undecodable bytes, over all pages"
    )
    by_match: dict[str, int]


class OverlapShares(Record):
    """The distribution of one overlap share (heading, text or section) over a build's queries."""

    min: float
    q1: float = Field(description="first quartile (linear interpolation between ranks)")
    median: float
    q3: float = Field(description="third quartile")
    max: float
    mean: float
    bands: dict[str, int] = Field(
        description="queries per named band (patterns.OVERLAP_BANDS): none = 0, few < 1/3, "
        "some < 2/3, most < 1, all = 1"
    )


class OverlapReport(Record):
    """How much the queries' words their labelled sections hold (GoldenQuery.overlap)."""

    queries: int = Field(description="queries with an overlap (at least one comparison unit)")
    without_units: int = Field(description="queries with no comparison unit (no overlap)")
    heading: OverlapShares
    text: OverlapShares
    section: OverlapShares


class TableCandidate(Record):
    """One of the tables closest to being a quick-reference table, on a page without one."""

    path: str
    reason: TableMissReason
    caption: str | None = None
    header: list[str]
    roles: list[str]
    named: int
    rows: int
    sections: int


class Tables(Record):
    """Why articles have no quick-reference table: counts per reason, the closest tables."""

    reasons: dict[str, int] = Field(description="reason -> articles without a table")
    candidates: list[TableCandidate] = Field(
        default_factory=list, description="the closest candidate tables, closest first"
    )


class SourceCounts(Record):
    """What one query source found over a build (report.json ``sources``)."""

    articles: int = Field(description="articles where it found a candidate")
    candidates: int = Field(description="questions (rows) it found")
    queries: int
    rejected: int = Field(description="candidates that did not become a query")
    reasons: dict[str, int] = Field(
        description="rejected candidates and left-out blocks (malformed markup ...) by reason"
    )


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
    overlap: OverlapReport | None = Field(
        default=None,
        description="the distribution of the queries' overlap with their labelled sections "
        "(absent in a report written before qrelsmith recorded it)",
    )
    skipped: list[Skipped]
    internal_errors: list[InternalError] = Field(
        default_factory=list,
        description="pages lost to a bug in qrelsmith (build exits 4): please report them",
    )
    replaced: list[Replaced] = Field(
        default_factory=list, description="pages read with a few undecodable bytes"
    )
    passed_over: list[PassedOver] = Field(
        default_factory=list,
        description="input folders whose files of the other kind (HTML or Markdown) were "
        "not read as pages",
    )
    rejected: list[Rejected]
    tables: Tables = Field(
        default_factory=lambda: Tables(reasons={}),
        description="why articles have no quick-reference table",
    )
    sources: dict[str, SourceCounts] | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="per query source: what it found (absent in a table-only build, whose "
        "counts above are the table's)",
    )
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
    """Everything a build produces, in memory; ``store.formats.write_build`` puts it on disk."""

    corpus: list[CorpusRecord]
    queries: list[GoldenQuery]
    report: Report


# --------------------------------------------------------------------------- evaluation

SignalKind = Literal[
    "other-article", "no-content", "duplicate", "low-confidence", "near-tie", "answer-elsewhere"
]


class Interval(Record):
    """A mean and its percentile interval."""

    mean: float
    low: float
    high: float


class PairedComparison(Record):
    """Run B minus run A on the same queries."""

    measure: str
    run_a: str
    run_b: str
    queries: int
    diff: float
    low: float
    high: float
    cluster_low: float | None = None
    cluster_high: float | None = None
    p_value: float
    wins: int
    ties: int
    losses: int


class MeasureSummary(Record):
    """One run x one measure: mean over all qrels queries and its two intervals."""

    run: str
    measure: str
    queries: int
    mean: float
    low: float
    high: float
    cluster_low: float | None = Field(
        default=None, description="None when the queries come from one article"
    )
    cluster_high: float | None = None


class StabilityRow(Record):
    """One run x measure x set size of `eval --sizes`: how far its mean moves over subsets."""

    run: str
    measure: str
    n: int = Field(description="queries per subset (whole articles hold n on average)")
    subsets: int
    mean: float = Field(description="mean over the subsets of their means")
    low: float = Field(description="2.5 % point of the subsets' means")
    high: float = Field(description="97.5 % point of the subsets' means")
    width: float = Field(description="mean width of the subsets' 95 % bootstrap intervals")
    swap_rate: float | None = Field(
        default=None,
        description="share of subsets whose mean difference to the first run has the sign "
        "opposite to the full set's (null for the first run)",
    )
    wrong_call_rate: float | None = Field(
        default=None,
        description="share of subsets whose permutation test (p < 0.05) calls the opposite "
        "direction (null for the first run)",
    )


class QueriesNeeded(Record):
    """`eval --need DELTA`: one compared pair x measure."""

    measure: str
    run_a: str
    run_b: str
    queries: int
    sd: float = Field(description="standard deviation of the per-query differences B - A")
    delta: float
    queries_needed: int = Field(
        description="ceil(((z_0.975 + z_0.80) * sd / delta)^2): 95 % confidence, 80 % power; "
        "at most 2^63 - 1 (the text says 'more than' it)"
    )
    detectable: float = Field(
        description="(z_0.975 + z_0.80) * sd / sqrt(queries): detectable with these queries"
    )
    design_effect: float | None = Field(
        default=None,
        description="variance of the mean difference over whole articles / (sd^2 / queries); "
        "null when every query is its own article or all come from one",
    )
    queries_needed_by_article: int | None = Field(
        default=None,
        description="ceil(queries_needed x design_effect): queries needed when they come "
        "in articles as this set's do",
    )
    detectable_by_article: float | None = Field(
        default=None, description="detectable x sqrt(design_effect)"
    )


class CurvePoint(Record):
    """`eval --curve`: one run's recall at one cut-off."""

    run: str
    k: int
    measure: str
    mean: float


class GroupSummary(Record):
    """`eval --by`: one group of queries x run x measure."""

    by: str
    group: str
    queries: int
    run: str
    measure: str
    mean: float
    low: float = Field(description="95 % bootstrap interval over the group's queries")
    high: float


class JudgedShare(Record):
    """One run's Judged@k: the mean share of its top k that the qrels judge (grade 0 too)."""

    run: str
    measure: str = Field(description="Judged@k, as ir_measures names it")
    mean: float


class RankCount(Record):
    """`eval --ranks`: how many queries of one run have their first relevant document at a rank."""

    run: str
    rank: str = Field(description="1, 2, 3, 4-10, or none (no relevant document in the top 10)")
    queries: int
    share: float


class ViewScore(Record):
    """`eval --views`: one run's measure under one labelling view."""

    run: str
    view: str = Field(description="strict, graded or exp")
    measure: str
    mean: float


class RecallDetail(Record):
    """`eval --micro`: one run's recall measure as a macro mean, a micro ratio and the share of
    queries with recall 0."""

    run: str
    measure: str
    macro: float = Field(description="mean over queries of each query's recall")
    micro: float = Field(
        description="relevant documents found in the top k over all queries / all relevant"
    )
    zero_recall_rate: float = Field(description="share of queries that found none")


class EvalReport(Record):
    """Everything `qrelsmith eval` computes; its --json output."""

    runs: list[str]
    measures: list[str]
    queries: int
    articles: int
    settings: dict[str, object]
    summaries: list[MeasureSummary]
    comparisons: list[PairedComparison] = Field(default_factory=list)
    per_query: dict[str, dict[str, dict[str, float]]] | None = Field(
        default=None, description="run -> measure -> qid -> value, with --per-query"
    )
    warnings: list[str] = Field(default_factory=list)
    stability: list[StabilityRow] = Field(default_factory=list, description="with --sizes")
    needed: list[QueriesNeeded] = Field(default_factory=list, description="with --need")
    curve: list[CurvePoint] = Field(default_factory=list, description="with --curve")
    groups: list[GroupSummary] = Field(default_factory=list, description="with --by")
    judged: list[JudgedShare] = Field(default_factory=list, description="every run's Judged@k")
    ranks: list[RankCount] = Field(default_factory=list, description="with --ranks")
    views: list[ViewScore] = Field(default_factory=list, description="with --views")
    recall: list[RecallDetail] = Field(default_factory=list, description="with --micro")


class Signal(Record):
    """One reason to doubt a query."""

    kind: SignalKind
    detail: str


class Suspect(Record):
    """A query with its reasons, ranked by ``suspicion``; one line of `check --json`."""

    qid: str
    query: str
    suspicion: float
    signals: list[Signal]


class Problem(Record):
    """One thing wrong with a build folder; one line of `validate --json`."""

    kind: str
    file: str
    line: int | None = None
    message: str


class ChunkMapping(Record):
    """Where one chunk landed."""

    id: str
    article_id: str | None = None
    main_section: str | None = None
    share: dict[str, float] = Field(default_factory=dict, description="section id -> share")
    cover: dict[str, float] = Field(default_factory=dict, description="section id -> cover")
    reason: str | None = Field(default=None, description="set when the chunk maps to nothing")


class AlignResult(Record):
    """Chunk qrels and the report of what did not map."""

    qrels: dict[str, dict[str, int]]
    mappings: list[ChunkMapping]
    dropped_queries: list[str]


class AlignThresholds(Record):
    """The overlap thresholds an alignment used (patterns.py)."""

    shingle: int
    min_article_share: float
    majority_share: float
    cover_share: float


class AlignCounts(Record):
    """Totals of one alignment."""

    chunks: int
    mapped: int
    unmapped: int
    queries: int
    dropped_queries: int


class UnmappedChunk(Record):
    """A chunk that maps to nothing, and why."""

    id: str
    reason: str


class AlignReport(Record):
    """align_report.json: the rule, its thresholds, counts, and what did not carry over."""

    rule: str
    thresholds: AlignThresholds
    counts: AlignCounts
    unmapped: list[UnmappedChunk]
    dropped_queries: list[str]
    chunks: list[ChunkMapping] = Field(description="the mapped chunks")


# --------------------------------------------------------------------------- audit

#: ``judged``: a pooled review added a judgement of a document outside the article.
ChangeAction = Literal["replaced", "removed", "flagged", "judged"]


class Stratum(Record):
    """How many queries a stratum holds and how many of them were drawn."""

    population: int
    sampled: int


class SampledRow(Record):
    """One drawn query: its stratum and the number of golden queries it stands for."""

    qid: str
    stratum: str
    weight: float


class AuditSample(Record):
    """``audit/sample.json``: what was drawn, how, and from which golden.jsonl."""

    seed: int
    size: int
    low_confidence: float
    golden_sha256: str
    strata: dict[str, Stratum]
    rows: list[SampledRow]

    @property
    def sample_id(self) -> str:
        """A short id of this draw (golden set, seed and rows), for the page's saved progress."""
        digest = hashlib.sha256(self.model_dump_json().encode("utf-8")).hexdigest()
        return digest[:16]


class Estimate(Record):
    """A proportion with its 95% interval; ``n`` rows decided, ``effective_n`` after weighting."""

    value: float
    low: float
    high: float
    n: int
    effective_n: float

    def __str__(self) -> str:
        if self.n == 0:
            return "n/a (no decided rows)"
        return f"{self.value:.3f}  [{self.low:.3f}, {self.high:.3f}]"


class ChangelogEntry(Record):
    """One change to the golden set: a line of ``versions/vN/changelog.jsonl``."""

    qid: str
    action: ChangeAction
    verdict: str = Field(description="the reviewer's verdict (wrong, partly or unsure)")
    before: list[str] = Field(description="grade-2 section ids before the audit")
    after: list[str] = Field(description="grade-2 section ids after (empty: query removed)")
    note: str
    where: str = Field(description="the verdict's file and line")
    docid: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="action 'judged': the judged document (its grade in ``grade``)",
    )
    grade: int | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="action 'judged': the grade given (2 relevant, 1 partly, 0 not relevant)",
    )


class PrecisionSummary(Record):
    """Label precision as written to review.json: strict, lenient (partly = right), per rule."""

    overall: Estimate
    lenient: Estimate
    by_rule: dict[str, Estimate]


class PoolRun(Record):
    """A run a pool was drawn from: its name (the file given) and the sha256 of its bytes."""

    name: str
    sha256: str


class PooledRow(Record):
    """One drawn (query, document) pair of the pool and the pool pairs it stands for."""

    qid: str
    docid: str
    stratum: str
    weight: float = Field(description="pool pairs it stands for (0: carried, not pooled)")
    best_rank: int | None = Field(
        description="the best rank any run gave it (1 = top); null when only check's signals "
        "put it in the pool"
    )
    runs: int = Field(description="how many of the runs retrieved it in their top depth")
    signals: list[str] = Field(
        default_factory=list, description="check's signals naming it (other-article, duplicate)"
    )


class PoolBand(Record):
    """The pool pairs of one best-rank band: how many, how many drawn."""

    population: int
    sampled: int


class PoolSample(Record):
    """``audit/pool.json``: the unjudged pooled pairs drawn for review, how, and from what."""

    seed: int
    depth: int
    size: int
    round: int = Field(
        default=1,
        ge=1,
        description="the pool's round: 1 on a build, one more on each version a pool review "
        "made (the pairs judged in earlier rounds are no longer unjudged)",
    )
    all: bool = Field(description="every pooled pair drawn (--all)")
    build: str = Field(description="digest of golden.jsonl and qrels.trec the pool left out")
    runs_id: str = Field(description="digest of the runs and the depth (the sheet's runs cell)")
    golden_sha256: str
    runs: list[PoolRun]
    pool_size: int = Field(description="unjudged (query, document) pairs in the pool")
    strata: dict[str, Stratum]
    bands: dict[str, PoolBand] = Field(description="best-rank band -> its pairs")
    rows: list[PooledRow]

    @property
    def sample_id(self) -> str:
        """A short id of this draw, for the page's saved progress."""
        digest = hashlib.sha256(self.model_dump_json().encode("utf-8")).hexdigest()
        return digest[:16]


class BandCompleteness(Record):
    """One best-rank band (or the whole pool): the share relevant and the pairs missing."""

    population: int = Field(description="unjudged pooled pairs in the band")
    relevant: Estimate = Field(description="share judged relevant or partly (weighted)")
    missing: float = Field(description="estimated relevant pairs missing: population x share")
    missing_low: float
    missing_high: float


class Completeness(Record):
    """How complete the qrels are: estimated from a pooled review of unjudged pairs."""

    depth: int
    round: int = Field(default=1, ge=1, description="the pool round the verdicts judged")
    runs: list[str]
    overall: BandCompleteness
    bands: dict[str, BandCompleteness]
    decided: int
    unsure: int
    open_rows: int


class ReviewSummary(Record):
    """``versions/vN/review.json``: which verdicts made the version, and the precision found."""

    verdict_files: list[str]
    verdict_sha256: list[str] = Field(
        default_factory=list,
        description="sha256 of each verdict file's bytes as read, in verdict_files order "
        "(audit sample: a sheet whose hash is here has been applied)",
    )
    golden_sha256: str
    precision: PrecisionSummary | None = Field(
        description="label precision; null when only pool sheets were applied"
    )
    changes: int
    completeness: Completeness | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="with pool sheets: the share of unjudged pooled documents that are relevant",
    )


# --------------------------------------------------------------------------- diff of two builds

#: What can change in a query that is in both builds (``reference`` is the table's reference
#: cell with the table's name, golden.jsonl's ``source``).
QueryField = Literal["query", "answer", "reference"]


class QueryText(Record):
    """What the author wrote in one quick-reference row."""

    query: str
    answer: str
    reference: str


class ChangedQuery(Record):
    """A query in both builds whose row text changed."""

    qid: str
    fields: list[QueryField]
    old: QueryText
    new: QueryText


class ChangedSection(Record):
    """A grade-2 section whose heading stayed but whose text changed under a query's label."""

    qid: str
    old_section: str
    new_section: str
    heading: str
    old_chars: int
    new_chars: int


class MovedLabel(Record):
    """A query whose grade-2 label now names other sections (by heading, not by number)."""

    qid: str
    old: list[str] = Field(description="old grade-2 section ids")
    new: list[str] = Field(description="new grade-2 section ids")
    old_headings: list[str]
    new_headings: list[str]


class CarriedVerdict(Record):
    """A reviewer's verdict from the older build that still holds for the new one."""

    qid: str
    verdict: str
    sections: list[str] | None = Field(
        default=None,
        description="the reviewer's correct sections as ids of the new build; None when not "
        "given, [] when no section answers",
    )
    note: str = ""


class CarriedPoolVerdict(Record):
    """A pooled (query, document) verdict of the older build that still holds: the query and
    the document's heading and text are unchanged (``docid`` is the new build's id)."""

    qid: str
    docid: str
    verdict: str
    note: str = ""


class Rereview(Record):
    """A reviewed query whose verdict does not carry over, and why."""

    qid: str
    verdict: str = Field(description="the older build's verdict")
    reasons: list[str]


class CorpusDiffCounts(Record):
    """How the corpus changed: sections compared by article and heading (not by number)."""

    added: int
    removed: int
    text_changed: int


class DiffCounts(Record):
    """Totals of a diff."""

    old_queries: int
    new_queries: int
    added: int
    removed: int
    changed: int
    sections_changed: int
    moved: int
    carried: int
    rereview: int
    corpus: CorpusDiffCounts


class DiffReport(Record):
    """``diff.json``: what changed between two builds of one site, and what the review keeps.

    ``audit sample`` on the new build draws ``rereview`` first and fills in ``carried``
    verdicts, when ``new_golden_sha256`` is still the build's golden.jsonl.
    """

    old: str
    new: str
    old_golden_sha256: str
    new_golden_sha256: str
    changed_anything: bool = Field(description="false only when nothing listed here changed")
    counts: DiffCounts
    added: list[str] = Field(description="qids only in the new build")
    removed: list[str] = Field(description="qids only in the old build")
    changed: list[ChangedQuery]
    sections_changed: list[ChangedSection]
    moved: list[MovedLabel]
    verdicts_from: list[str] = Field(description="the older build's verdict files read")
    carried: list[CarriedVerdict]
    rereview: list[Rereview]
    carried_pool: list[CarriedPoolVerdict] = Field(
        default_factory=list,
        exclude_if=lambda value: not value,
        description="pool verdicts of the older build that still hold (absent when none)",
    )
