"""What every format of a build folder is written from: the corpus, the queries and their graded
(qid, docid, grade) rows, computed once for all of them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from ...labelling.labels import qrels_rows, sections_by_article
from ...models import CorpusRecord, GoldenQuery
from ..files import json_line


@dataclass(frozen=True)
class GoldenSet:
    """A golden set as the formats read it. ``rows`` are the (qid, docid, grade) judgements,
    computed once for every format that lists them (TREC, BEIR, ...): by the build's rule
    (grade 2 the named sections, 1 the rest of the article) unless given (``align`` grades
    chunks by their overlap)."""

    corpus: Sequence[CorpusRecord]
    queries: Sequence[GoldenQuery]
    graded: Sequence[tuple[str, str, int]] | None = None

    @cached_property
    def rows(self) -> Sequence[tuple[str, str, int]]:
        """(qid, docid, grade) for every query, in query order then corpus order."""
        if self.graded is not None:
            return self.graded
        return list(qrels_rows(self.queries, sections_by_article(self.corpus)))

    @cached_property
    def corpus_lines(self) -> list[bytes]:
        """corpus.jsonl's line of each section: the BEIR corpus is cut from them."""
        return [json_line(record) for record in self.corpus]

    def filled(self, line: str) -> Iterator[str]:
        """``line`` formatted with each (qid, docid, grade) row."""
        for row in self.rows:
            yield line.format(*row)


def golden_set(
    corpus: Sequence[CorpusRecord],
    queries: Sequence[GoldenQuery],
    graded: Iterable[tuple[str, str, int]] | None = None,
) -> GoldenSet:
    """The records as every format reads them."""
    return GoldenSet(corpus, queries, None if graded is None else list(graded))
