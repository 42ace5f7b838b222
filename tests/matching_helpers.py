"""Shared by the matching tests: small articles made of headings, and a table's rows."""

from __future__ import annotations

from collections.abc import Mapping

from qrelsmith import match_reference, parse_article
from qrelsmith.labelling.matching import HeadingIndex, SectionHeadings
from qrelsmith.models import Article


def page(*headings: str, says: Mapping[str, str] | None = None) -> Article:
    """An article whose H2s (and "- " prefixed H3s) are ``headings``, each with a little text
    (``says``: a heading's text, "t" for the others)."""
    said = says or {}
    html = "".join(
        f"<h3>{h[2:]}</h3><p>{said.get(h[2:], 't')}</p>"
        if h.startswith("- ")
        else f"<h2>{h}</h2><p>{said.get(h, 't')}</p>"
        for h in headings
    )
    return parse_article(f"<article>{html}</article>", "page.html")


def section_of(article: Article, reference: str) -> str | None:
    """The heading of the section ``match_reference`` sends ``reference`` to (None: none)."""
    match = match_reference(reference, article)
    if not match.section_ids:
        return None
    return next(s.heading for s in article.sections if s.id == match.section_ids[0])


def rows(*references: str) -> list[tuple[str, tuple[str, ...]]]:
    """A table's rows for ``match_rows``: (reference, no links)."""
    return [(reference, ()) for reference in references]


def page_with(*sections: tuple[str, str]) -> Article:
    """An article of H2 sections (heading, text)."""
    html = "".join(f"<h2>{heading}</h2><p>{text}</p>" for heading, text in sections)
    return parse_article(f"<article>{html}</article>", "page.html")


def index_of(*headings: str) -> HeadingIndex:
    """An index of H2s (and "- " prefixed subheadings of the H2 before them), with no page:
    section ids ``p#0``, ``p#1`` ... in order."""
    sections: list[tuple[str, list[str]]] = []
    for heading in headings:
        if heading.startswith("- "):
            sections[-1][1].append(heading[2:])
        else:
            sections.append((f"p#{len(sections)}", [heading]))
    return HeadingIndex(SectionHeadings(sid, tuple(texts)) for sid, texts in sections)
