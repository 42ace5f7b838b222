"""A page -> Article (sections, excluded sections, what the query sources found) and its
queries.

The pure core of a build: no files, no clock, no global state. ``parse_article`` and
``article_queries`` are what ``build`` runs for every page; each runs the query sources
``options.sources`` names (``sources.SOURCES``) in order.
"""

from __future__ import annotations

from ..config import BuildOptions, build_options
from ..models import Article, GoldenQuery, Rejected
from ..sources import SOURCES, Found, PageContext
from ..sources.table import heading_outline
from .parse import parse_html
from .sections import split_sections

__all__ = ["article_queries", "heading_outline", "parse_article"]


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
    context = PageContext(page.root, identifier, page.title, options, page.raw)
    found = Found()
    for kind in options.sources:
        each = SOURCES[kind].find(context)
        found.table = found.table or each.table
        found.table_miss = found.table_miss or each.table_miss
        found.candidates += each.candidates
        found.notes += each.notes
        found.documents += each.documents
    with_ids = anchors if anchors is not None else found.table is not None
    sections, excluded = split_sections(page.root, identifier, options, anchors=with_ids)
    if found.documents:  # a FAQ page: its question headings' groups hold no text of their own
        after = len(sections) + len(excluded)  # the documents number on after the H2s
        sections = [section for section in sections if section.text] + [
            document.model_copy(update={"index": after + document.index})
            for document in found.documents
        ]
    return Article(
        id=identifier,
        path=path,
        url=url,
        title=page.title,
        sections=sections,
        excluded=excluded,
        table=found.table,
        table_miss=found.table_miss,
        replaced_characters=page.replaced,
        candidates=found.candidates,
        notes=found.notes,
        sources=list(options.sources),
    )


def article_queries(
    article: Article, options: BuildOptions | None = None
) -> tuple[list[GoldenQuery], list[Rejected]]:
    """Turn what the article's query sources found into queries (or rejected candidates,
    with reasons), source by source."""
    options = build_options(options)
    queries: list[GoldenQuery] = []
    rejected: list[Rejected] = []
    for kind in article.sources:
        made, left = SOURCES[kind].queries(article, options)
        queries += made
        rejected += left
    return queries, rejected
