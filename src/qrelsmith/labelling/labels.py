"""Queries and matches -> graded qrels: the one place grades and query ids are decided.

Grades: 2 for the section(s) the author named, 1 for every other corpus section of the same
article (same topic), nothing listed for the rest of the corpus (0) but what a pooled review
judged (``GoldenQuery.judged``: 2, 1, or an explicit 0). Query ids are
``layout.query_id``'s. Pure functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from ..models import CorpusRecord, GoldenQuery
from ..store.layout import article_of

#: The grade of a section the author named (golden.jsonl ``relevant``).
NAMED = 2
#: The grade of every other corpus section of the query's article (``same_article``).
SAME_ARTICLE = 1


def named(section_ids: Iterable[str]) -> dict[str, int]:
    """golden.jsonl's ``relevant``: every named section at grade 2, in the order given."""
    return {section_id: NAMED for section_id in section_ids}


def same_article_count(article_sections: int, named_ids: Sequence[str]) -> int:
    """golden.jsonl's ``same_article``: the article's corpus sections graded 1."""
    return article_sections - len(named_ids)


def named_in(grades: Mapping[str, int]) -> list[str]:
    """The ids graded as named (2) in ``grades``, in their order."""
    return [doc_id for doc_id, grade in grades.items() if grade == NAMED]


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
    """(qid, section id, grade) for every query, in query order then corpus order; then the
    query's pooled judgements of other articles' sections (``judged``, grade 0 included: a
    judged non-relevant document), in the order golden.jsonl holds them."""
    for query in queries:
        article_sections = by_article.get(article_of(query.qid), ())
        for section_id, grade in graded(list(query.relevant), article_sections):
            yield query.qid, section_id, grade
        for section_id, grade in query.judged.items():
            yield query.qid, section_id, grade
