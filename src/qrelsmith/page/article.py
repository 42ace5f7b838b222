"""A page -> Article (sections, excluded sections, quick-reference table) and its queries.

The pure core of a build: no files, no clock, no global state. ``parse_article`` and
``article_queries`` are what ``build`` runs for every page.
"""

from __future__ import annotations

from ..config import BuildOptions, build_options
from ..labelling.evidence import with_evidence
from ..labelling.labels import named, same_article_count
from ..labelling.matching import HeadingIndex, SectionHeadings, match_table
from ..labelling.overlap import with_overlap
from ..models import Article, GoldenQuery, Origin, QuickRefRow, Rejected, RejectReason, TableMiss
from ..patterns import MAX_QUERY_CHARS, QUICKREF_MAX_ROWS
from ..store.layout import query_id, section_id
from ..text import text_of
from .parse import Element, parse_html, remove_element
from .quickref import CellTargets, find_table
from .reading import cleaned, dropped
from .sections import heading_level, split_sections


def heading_outline(root: Element, article_id: str, options: BuildOptions) -> HeadingIndex:
    """A cheap index of the article's headings (no section text), for recognising tables."""
    level, drop_tags = options.section_level, options.drop_tags
    sections: list[tuple[str, list[str]]] = []
    for element in root.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        if dropped(element, drop_tags):
            continue
        rank = heading_level(element.tag)
        if rank == level:
            sections.append((section_id(article_id, len(sections)), []))
        if rank >= level and sections:
            sections[-1][1].append(text_of(cleaned(element, options)))
    return HeadingIndex(SectionHeadings(sid, headings) for sid, headings in sections)


def parse_article(
    html: bytes | str,
    path: str = "",
    options: BuildOptions | None = None,
    *,
    article_id: str | None = None,
    url: str | None = None,
    http_charset: str | None = None,
    anchors: bool | None = True,
) -> Article:
    """Parse one page into an Article. Raises DataError for a page that must be skipped.

    ``anchors`` says whether the sections list the element ids inside them: always (True),
    never (False) or only when the article has a quick-reference table (None), whose in-page
    links they resolve; reading them makes the text pass about 40% dearer, and a build over a
    crawl passes None.
    """
    options = build_options(options)
    identifier = article_id if article_id is not None else (path or url or "article")
    page = parse_html(html, options, http_charset)
    options = page.options or options  # with only the permalink selectors the page can match

    def outline() -> CellTargets:
        index = heading_outline(page.root, identifier, options)
        return lambda text, anchors: index.match(text, anchors, options, fuzzy=False).section_ids

    found = find_table(page.root, options, outline)
    table = miss = None
    if isinstance(found, TableMiss):
        miss = found
    else:
        table, element = found
        remove_element(element)  # the table's text must never reach a section: it holds the answers
    with_ids = anchors if anchors is not None else table is not None
    sections, excluded = split_sections(page.root, identifier, options, anchors=with_ids)
    return Article(
        id=identifier,
        path=path,
        url=url,
        title=page.title,
        sections=sections,
        excluded=excluded,
        table=table,
        table_miss=miss,
        replaced_characters=page.replaced,
    )


def article_queries(
    article: Article, options: BuildOptions | None = None
) -> tuple[list[GoldenQuery], list[Rejected]]:
    """Turn the article's quick-reference rows into queries (or rejected rows, with reasons)."""
    options = build_options(options)
    if article.table is None:
        return [], []
    origin_path = article.path or article.id
    queries: list[GoldenQuery] = []
    rejected: list[Rejected] = []
    rows = article.table.rows[:QUICKREF_MAX_ROWS]
    cut = [
        _rejected_unread(origin_path, row, "table_too_long")
        for row in article.table.rows[QUICKREF_MAX_ROWS:]
    ]
    matches = match_table(
        [(row.reference, row.reference_anchors, (row.query, row.answer)) for row in rows],
        article,
        options,
        offsite=[row.offsite for row in rows],
    )
    for row, match in zip(rows, matches, strict=True):
        if len(row.query) > MAX_QUERY_CHARS:  # not a question a person types
            rejected.append(_rejected_unread(origin_path, row, "too_long"))
            continue
        if not row.query.strip() or not match.section_ids or match.rule is None:
            rejected.append(
                Rejected(
                    path=origin_path,
                    row=row.row,
                    query=row.query,
                    reference=row.reference,
                    reason="empty" if not row.query.strip() else (match.reason or "unmatched"),
                    candidates=match.candidates,
                )
            )
            continue
        queries.append(
            GoldenQuery(
                qid=query_id(article.id, row.row),
                query=row.query,
                answer=row.answer,
                relevant=named(match.section_ids),
                same_article=same_article_count(len(article.sections), match.section_ids),
                table=article.table.name,
                reference=row.reference,
                match=match.rule,
                confidence=match.confidence,
                origin=Origin(path=origin_path, row=row.row, url=article.url),
                flags=match.flags,
            )
        )
    return with_overlap(with_evidence(queries, article), article.sections), rejected + cut


def _rejected_unread(path: str, row: QuickRefRow, reason: RejectReason) -> Rejected:
    """A row rejected before matching: its texts cut to MAX_QUERY_CHARS for the report."""
    return Rejected(
        path=path,
        row=row.row,
        query=row.query[:MAX_QUERY_CHARS],
        reference=row.reference[:MAX_QUERY_CHARS],
        reason=reason,
    )
