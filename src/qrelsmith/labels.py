"""Queries and matches -> graded qrels.

Grades: 2 for the section(s) the author named, 1 for every other corpus section of the same
article (same topic), nothing listed for the rest of the corpus (0). Pure functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from .models import CorpusRecord, GoldenQuery

NAMED = 2
SAME_ARTICLE = 1


def article_of_qid(qid: str) -> str:
    """The article id inside a query id ``<article_id>#q<row>``."""
    return qid.rsplit("#q", 1)[0]


def sections_by_article(corpus: Iterable[CorpusRecord]) -> dict[str, list[str]]:
    """Section ids of each article, in corpus order."""
    grouped: dict[str, list[str]] = {}
    for record in corpus:
        grouped.setdefault(record.article_id, []).append(record.id)
    return grouped


def graded(named: Sequence[str], article_sections: Sequence[str]) -> list[tuple[str, int]]:
    """(section id, grade) for one query: named sections 2, the article's others 1."""
    named_set = set(named)
    return [
        (section_id, NAMED if section_id in named_set else SAME_ARTICLE)
        for section_id in article_sections
    ]


def qrels_rows(
    queries: Iterable[GoldenQuery], by_article: Mapping[str, Sequence[str]]
) -> Iterator[tuple[str, str, int]]:
    """(qid, section id, grade) for every query, in query order then corpus order."""
    for query in queries:
        article_sections = by_article.get(article_of_qid(query.qid), ())
        for section_id, grade in graded(list(query.relevant), article_sections):
            yield query.qid, section_id, grade
