"""Section text as evidence: BM25 of a row's cells against an article's sections.

The matcher reads headings; a quick-reference row's other cells (the query, the answer the
author wrote) usually restate what the named section says. ``SectionText`` scores a text
against every corpus section of one article, in the matcher's own comparison units
(``text.units``: Latin light stems, CJK and Hangul bigrams, stop words dropped), with BM25
(Lucene's idf, ``patterns.BM25_K1`` / ``BM25_B``). It is built lazily, only for an article
whose table has a row the headings leave open, and it is pure: sections in, scores out.
``held`` says which of a row's cells a section holds as evidence would find them
(``evidence.ArticleText.holds_answer``): content decides between heading candidates only when
the chosen one holds a cell of the row that its rivals do not.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from .. import patterns
from ..models import Article
from ..text import bm25_idf, bm25_norm, bm25_weight, is_light_unit, units
from .evidence import ArticleText


@dataclass(frozen=True, slots=True)
class Ranked:
    """A text's scores against the sections, best first: (section id, score) pairs."""

    scores: tuple[tuple[str, float], ...]

    @property
    def top(self) -> str | None:
        """The best section, or None when nothing scored."""
        return self.scores[0][0] if self.scores and self.scores[0][1] > 0 else None

    def ratio(self) -> float:
        """How far the best is ahead of the runner-up (best / second; inf with one scorer)."""
        if not self.scores or self.scores[0][1] <= 0:
            return 0.0
        if len(self.scores) < 2 or self.scores[1][1] <= 0:
            return math.inf
        return self.scores[0][1] / self.scores[1][1]

    def score_of(self, section_id: str) -> float:
        return next((s for sid, s in self.scores if sid == section_id), 0.0)


@dataclass(frozen=True, slots=True)
class _Text:
    """A section as reading its text needs it (``evidence.Readable``)."""

    id: str
    text: str


class SectionText:
    """BM25 over one article's sections (id, text), in the matcher's units."""

    def __init__(self, sections: Iterable[tuple[str, str]]):
        self._texts: dict[str, str] = dict(sections)
        self.ids: list[str] = list(self._texts)
        self._read: ArticleText | None = None

    @cached_property
    def _index(self) -> tuple[list[Counter[str]], list[int], float, dict[str, float]]:
        """The BM25 index (each section's unit counts, lengths, their average, each unit's
        idf), made on first use: the places of the table's order read only ``held``."""
        counts = [Counter(units(self._texts[section_id])) for section_id in self.ids]
        lengths = [sum(found.values()) for found in counts]
        frequency: Counter[str] = Counter()
        for found in counts:
            frequency.update(found.keys())
        average = (sum(lengths) / len(lengths)) if lengths else 0.0
        idf = {unit: bm25_idf(len(self.ids), n) for unit, n in frequency.items()}
        return counts, lengths, average, idf

    @classmethod
    def from_article(cls, article: Article) -> SectionText:
        """The article's corpus sections (excluded ones have no text to offer)."""
        return cls((section.id, section.text) for section in article.sections)

    def text_of(self, section_id: str) -> str:
        """A section's text ("" for a section not indexed)."""
        return self._texts.get(section_id, "")

    def held(self, section_id: str, texts: Sequence[str]) -> frozenset[int]:
        """Which of ``texts`` (a row's cells, by number) the section holds as evidence would
        find them: whole, as a window of its sentences, or every value of a checkable answer."""
        if section_id not in self._texts:
            return frozenset()
        if self._read is None:  # made on first use: most tables ask nothing of the text
            self._read = ArticleText([])
        section = _Text(section_id, self._texts[section_id])
        return frozenset(
            n for n, cell in enumerate(texts) if self._read.holds_answer(cell, section)
        )

    def rank(self, texts: Sequence[str]) -> Ranked:
        """Every section's BM25 score for the units of ``texts`` together, best first (the
        earlier section on a tie). Light units (particles, generic words) weigh
        ``patterns.LIGHT_WEIGHT``; a unit no section holds adds nothing."""
        query = Counter(u for text in texts for u in units(text))
        k1, b = patterns.BM25_K1, patterns.BM25_B
        every, lengths, average, idf = self._index
        scored: list[tuple[str, float]] = []
        for number, counts in enumerate(every):
            length = lengths[number]
            norm = bm25_norm(length, average, k1, b) if average else k1
            total = 0.0
            for unit, times in query.items():
                tf = counts.get(unit)
                if not tf:
                    continue
                weight = idf[unit] * (patterns.LIGHT_WEIGHT if is_light_unit(unit) else 1.0)
                total += bm25_weight(times * weight, tf, norm, k1)
            scored.append((self.ids[number], total))
        order = sorted(range(len(scored)), key=lambda n: (-scored[n][1], n))
        return Ranked(tuple(scored[n] for n in order))
