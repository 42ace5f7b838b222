"""The quick-reference table: each data row a query, its reference cell the section it names.

``find`` recognises the table (``quickref.find_table``) and takes it out of the tree (its text
must never reach a section: it holds the answers); ``queries`` matches the rows' references to
the article's headings (``matching.match_table``), the one decision for a table.
"""

from __future__ import annotations

from ..config import BuildOptions
from ..labelling.evidence import with_evidence
from ..labelling.labels import named, same_article_count
from ..labelling.matching import HeadingIndex, SectionHeadings, match_table
from ..labelling.overlap import with_overlap
from ..models import (
    TABLE_SOURCE,
    Article,
    GoldenQuery,
    Origin,
    QuickRefRow,
    Rejected,
    RejectReason,
    TableMiss,
)
from ..page.parse import Element, remove_element
from ..page.quickref import CellTargets, find_table
from ..page.reading import cleaned, dropped
from ..page.sections import heading_level
from ..patterns import MAX_QUERY_CHARS, QUICKREF_MAX_ROWS
from ..store.layout import query_id, section_id
from ..text import text_of
from .base import Found, PageContext


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


class TableSource:
    """The quick-reference table (``[build] sources = ["table"]``, the default)."""

    kind = TABLE_SOURCE
    looks_for = "no quick-reference table"

    def find(self, page: PageContext) -> Found:
        """The page's quick-reference table, taken out of the tree, or why there is none."""
        root, options = page.root, page.options

        def outline() -> CellTargets:
            index = heading_outline(root, page.article_id, options)
            return lambda text, anchors: (
                index.match(text, anchors, options, fuzzy=False).section_ids
            )

        found = find_table(root, options, outline)
        if isinstance(found, TableMiss):
            return Found(table_miss=found)
        table, element = found
        remove_element(element)  # the table's text must never reach a section: it holds the answers
        return Found(table=table)

    def queries(
        self, article: Article, options: BuildOptions
    ) -> tuple[list[GoldenQuery], list[Rejected]]:
        """Turn the article's quick-reference rows into queries (or rejected rows, with
        reasons)."""
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


SOURCE = TableSource()
