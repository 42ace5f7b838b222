"""The headings of one article, keyed for comparison: ``HeadingIndex``.

One way to build it: ``HeadingIndex(sections, anchors, texts)`` from each section's headings
in page order (``SectionHeadings``: its own heading first, then its subheadings).
``from_article`` gives an article's sections, subheadings, anchors, excluded sections and
section texts; the table recogniser (article.py) and check (evaluate/check.py) give the
headings they have. The index holds the lookups the rules ask (by key, by stripped key, by
anchor, a section's H2, the sections between two positions), the unit weights behind
``similarity`` and the page's topic behind ``names_item`` (issue 28: the item that matters
must match); the rules themselves are in
rules.py, a table's order in order.py. ``match`` and ``match_rows`` are the index's two entry
points into them (so this module imports them; they take the index as their first argument and
import this module for type hints only).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from rapidfuzz import fuzz

from ... import patterns
from ...config import BuildOptions, build_options
from ...models import Article, Match
from ...store.layout import section_number
from ...text import comparable, holds_unit, is_light_unit
from ..content import SectionText
from . import order, rules
from .forms import Form, Target

#: An overview heading's words (``patterns.OVERVIEW_WORDS``), as one pattern.
_OVERVIEW = re.compile("|".join(patterns.OVERVIEW_WORDS))
#: A heading's own number (``patterns.HEADING_NUMBER``).
_HEADING_NUMBER = re.compile(patterns.HEADING_NUMBER)
#: The item that matters (matching/index.py ``names_item``): a fuzzy candidate that shares
#: only light units and the page's topic with a reference, while each holds a specific unit
#: the other lacks, is no candidate. A topic unit is one at least TOPIC_SHARE of the
#: article's sections hold in their text, on an article of at least TOPIC_MIN_SECTIONS
#: sections (fewer say nothing of a topic). By cross-validation on the dev set's halves
#: (docs/label-quality.md): TOPIC_SHARE 0.3 / 0.4 / 0.5 / 0.6 / 0.75 give half A 636 right, 1
#: wrong at every value and half B 599/2, 598/2, 598/1, 597/1, 597/1: 0.5, best on B and
#: neutral on A. TOPIC_MIN_SECTIONS 3 or 4 cost half B one right row, A none.
TOPIC_SHARE = 0.5
TOPIC_MIN_SECTIONS = 5

#: Weight of a unit found in no heading, against one found in exactly one: such a unit (a
#: class name the headings translate, a word the author added) cannot point at a heading, but
#: a reference made only of such units names none. Weighting it as the rarest unit lost 16
#: points of the dev set (API pages: "ATLPath::X" under headings that translate the class).
UNSEEN_WEIGHT = 0.5


@dataclass(frozen=True, slots=True)
class SectionHeadings:
    """One section's headings in page order: its own heading first, then its subheadings.
    ``excluded`` marks a section the corpus leaves out (FAQ, summary ...)."""

    section_id: str
    headings: Sequence[str]
    excluded: bool = False


class HeadingIndex:
    """The headings of one article (H2 and nested ones), keyed for comparison."""

    def __init__(
        self,
        sections: Iterable[SectionHeadings],
        anchors: Mapping[str, str] | None = None,
        texts: Sequence[str] = (),
        text_ids: Sequence[str] = (),
    ):
        #: the corpus sections' text, read to tell the page's topic units (``topic``), and
        #: their section ids (``folded_text``)
        self.texts = texts
        self.text_ids = {section_id: n for n, section_id in enumerate(text_ids)}
        self._topics: dict[str, bool] = {}
        self.targets: list[Target] = []
        self.forms: list[Form] = []
        position = 0  # a heading's place in the page, headings of no text counted
        for section in sections:
            for number, heading in enumerate(section.headings):
                form = Form(heading)
                if form.key:
                    self.forms.append(form)
                    self.targets.append(
                        Target(
                            section.section_id,
                            heading,
                            form.key,
                            section.excluded,
                            top=number == 0,
                            position=position,
                        )
                    )
                position += 1
        self.anchors = dict(anchors or {})
        top_key = {t.target_id: t.key for t in self.targets if t.top}
        self.section_keys = [top_key.get(t.target_id, t.target_id) for t in self.targets]
        self._count = len(self.targets)
        self.by_key: dict[str, list[int]] = {}
        for i, f in enumerate(self.forms):
            self.by_key.setdefault(f.key, []).append(i)

    @classmethod
    def from_article(cls, article: Article) -> HeadingIndex:
        """Index the corpus sections, their subheadings, their anchors and the excluded ones."""
        numbered = [
            (s.index, SectionHeadings(s.id, (s.heading, *s.subheadings))) for s in article.sections
        ]
        numbered += [
            (int(section_number(x.id)), SectionHeadings(x.id, (x.heading,), excluded=True))
            for x in article.excluded
        ]
        numbered.sort(key=lambda item: item[0])
        anchors: dict[str, str] = {}
        for section in article.sections:
            for anchor in section.anchors:
                anchors.setdefault(anchor, section.id)
        return cls(
            (headings for _, headings in numbered),
            anchors,
            [section.text for section in article.sections],
            [section.id for section in article.sections],
        )

    # ----------------------------------------------------------------- lookups

    @cached_property
    def by_stripped(self) -> dict[str | tuple[str, ...], list[int]]:
        """Headings by their stripped key and by their tokens (exact once brackets, prefixes
        and punctuation are set aside)."""
        found: dict[str | tuple[str, ...], list[int]] = {}
        for i, f in enumerate(self.forms):
            found.setdefault(f.stripped, []).append(i)
            found.setdefault(f.tokens, []).append(i)
        return found

    @cached_property
    def repeated(self) -> list[tuple[str, list[int], frozenset[str]]]:
        """The headings the page repeats under several sections ("概要", "Likely causes"
        under each case of a troubleshooting page): (key, positions, their sections), in
        page order."""
        found = []
        for key, positions in self.by_key.items():
            holders = frozenset(self.targets[p].target_id for p in positions)
            if len(holders) > 1:
                found.append((key, positions, holders))
        return found

    @cached_property
    def numbered(self) -> dict[str, list[int]]:
        """The headings that carry their number ("7. 本番環境…", "2.2 Configuring…"), by
        that number (``patterns.HEADING_NUMBER``)."""
        found: dict[str, list[int]] = {}
        for i, target in enumerate(self.targets):
            if target.excluded:
                continue
            number = _HEADING_NUMBER.match(unicodedata.normalize("NFKC", target.heading))
            if number is not None:  # "2-2." is "2.2"
                found.setdefault(number.group(1).replace("-", "."), []).append(i)
        return found

    def section_target(self, section_id: str) -> Target | None:
        """The H2 heading of a section (its first target)."""
        return next((t for t in self.targets if t.target_id == section_id), None)

    def between(self, low: int, high: int) -> set[str]:
        """The sections whose headings lie from position ``low`` to ``high`` (positions count
        the headings of no text, which have no target: ``Target.within``)."""
        return {t.target_id for t in self.targets if t.within(low, high)}

    def ranked(self, scored: Iterable[tuple[float, int]]) -> list[tuple[float, int]]:
        """Each section's best (score, heading), best first (the earlier heading on a tie)."""
        best: dict[str, tuple[float, int]] = {}
        for score, i in scored:
            held = best.get(self.targets[i].target_id)
            if held is None or score > held[0]:
                best[self.targets[i].target_id] = (score, i)
        return sorted(best.values(), key=lambda si: (-si[0], self.targets[si[1]].position))

    # ----------------------------------------------------------------- weights

    @cached_property
    def _weights(self) -> dict[str, float]:
        """Each heading unit's weight: its rarity among the headings, light units less."""
        return {
            u: self._idf(n) * (patterns.LIGHT_WEIGHT if is_light_unit(u) else 1.0)
            for u, n in self._heading_frequency.items()
        }

    @cached_property
    def _heading_weights(self) -> list[float]:
        return [self._weight_of(f.units) for f in self.forms]

    def _idf(self, frequency: int) -> float:
        return math.log((self._count + 1) / (frequency + 0.5))

    def _unit_weight(self, unit: str) -> float:
        weight = self._weights.get(unit)
        if weight is None:  # in no heading: it tells no heading from another
            weight = self._idf(1) * UNSEEN_WEIGHT
            weight *= patterns.LIGHT_WEIGHT if is_light_unit(unit) else 1.0
        return weight

    def _weight_of(self, group: Iterable[str]) -> float:
        weights = self._weights
        return sum(weights[u] if u in weights else self._unit_weight(u) for u in group)

    @cached_property
    def _heading_frequency(self) -> dict[str, int]:
        """How many headings hold each unit."""
        found: dict[str, int] = {}
        for form in self.forms:
            for unit in form.units:
                found[unit] = found.get(unit, 0) + 1
        return found

    @cached_property
    def _folded_texts(self) -> list[str]:
        """The sections' text folded as units are read (``text.comparable``), made once."""
        return [comparable(text) for text in self.texts]

    def folded_text(self, section_id: str) -> str | None:
        """A section's text folded as units are read (``text.comparable``), made once for
        the topic and the table's order; None for a section whose text is not indexed."""
        number = self.text_ids.get(section_id)
        return None if number is None else self._folded_texts[number]

    def topic(self, unit: str) -> bool:
        """A unit of the page's topic: at least ``TOPIC_SHARE`` of its sections hold
        it in their text ("エラー" on a page of Excel errors, "rate" and "limit" on one of rate
        limits), on a page of ``TOPIC_MIN_SECTIONS`` sections or more (fewer say
        nothing of a topic). A Latin unit (a word's stem) is looked for at a word's start, a
        bigram anywhere; asked only of the few units a candidate's verdict turns on."""
        if len(self.texts) < TOPIC_MIN_SECTIONS:
            return False
        known = self._topics.get(unit)
        if known is None:
            held = sum(1 for text in self._folded_texts if holds_unit(text, unit))
            known = self._topics[unit] = held >= TOPIC_SHARE * len(self.texts)
        return known

    def telling(self, unit: str) -> bool:
        """A shared unit that singles a heading out: not light, not the page's topic."""
        return not is_light_unit(unit) and not self.topic(unit)

    def _specific(self, unit: str, form: Form) -> bool:
        """A unit that names an item: marked by its form (identifier, number, symbol), or a
        rare Latin word (in at most one heading, and not the page's topic)."""
        if unit in form.marked:
            return True
        return (
            unit in form.words
            and not is_light_unit(unit)
            and self._heading_frequency.get(unit, 0) <= 1
            and not self.topic(unit)
        )

    def specific(self, form: Form) -> frozenset[str]:
        """A text's units that name an item (``_specific``)."""
        return frozenset(u for u in form.units if self._specific(u, form))

    @cached_property
    def _overview(self) -> list[bool]:
        """Per heading, whether it heads an overview (``patterns.OVERVIEW_WORDS``)."""
        return [_OVERVIEW.search(form.plain) is not None for form in self.forms]

    def names_item(self, reference: Form, position: int) -> bool:
        """False when a reference and a heading share only generic or topic units and each
        holds a specific unit the other lacks ("#VALUE! エラー" / "#N/A エラーの意味",
        "WebSocket rate limiting" / "Rate limit headers"): they name different items; and
        when the heading heads an overview the reference does not ask for."""
        heading = self.forms[position]
        if self._overview[position] and not _OVERVIEW.search(reference.plain):
            return False  # an overview mentions every item: "横方向の検索関数" / "…の全体像"
        if self.other_item(reference, heading):
            return False  # a word each in the same place: "削除" / "更新"
        shared = reference.units & heading.units
        if shared & (reference.marked | heading.marked):
            return True  # an identifier, a number or a symbol-bearing word in common
        own = [u for u in reference.units - shared if self._specific(u, reference)]
        theirs = [u for u in heading.units - shared if self._specific(u, heading)]
        if not own or not theirs:
            return True
        return any(self.telling(unit) for unit in shared)

    def other_item(self, reference: Form, heading: Form) -> bool:
        """A reference and a heading each hold a CJK or Hangul word of their own in the same
        place ("サービスを削除します" / "サービスを更新する"): they name different items. A
        word that shares a unit with the other text ("再起動" / "起動"), or a character with
        the other's word there (a kin word: "변환" / "변형"), and a particle or an inflection
        ("削除する" / "を削除") are no such word."""
        mine, theirs = self._slots(reference, heading), self._slots(heading, reference)
        return any(
            not set(word) & set(other)
            for place in mine.keys() & theirs.keys()
            for word in mine[place]
            for other in theirs[place]
        )

    def _slots(
        self, form: Form, other: Form
    ) -> dict[tuple[frozenset[str], frozenset[str]], list[str]]:
        """``form``'s CJK and Hangul words that name something (a telling unit) and share no
        unit with ``other``, by their place: the units the nearest words before and after
        that ``other`` holds share with it (empty at an edge)."""
        words = form.content_words
        held = [word_units & other.units for _, word_units in words]
        found: dict[tuple[frozenset[str], frozenset[str]], list[str]] = {}
        for n, (word, word_units) in enumerate(words):
            if held[n] or word.isascii() or not any(self.telling(u) for u in word_units):
                continue
            before = next((h for h in reversed(held[:n]) if h), frozenset())
            after = next((h for h in held[n + 1 :] if h), frozenset())
            found.setdefault((before, after), []).append(word)
        return found

    def similarity(self, reference: Form, position: int) -> tuple[float, float]:
        """(similarity 0-1, recall) of a reference and one heading."""
        heading = self.forms[position]
        shared = self._weight_of(reference.units & heading.units)
        own = self._weight_of(reference.units)
        recall = shared / own if own else 0.0
        precision = (
            shared / self._heading_weights[position] if self._heading_weights[position] else 0.0
        )
        lcs = fuzz.ratio(reference.key, heading.key) / 100
        w_recall, w_precision, w_lcs = patterns.SIMILARITY_WEIGHTS
        return w_recall * recall + w_precision * precision + w_lcs * lcs, recall

    # ----------------------------------------------------------------- matching

    def match(
        self,
        reference: str,
        anchors: Sequence[str] = (),
        options: BuildOptions | None = None,
        fuzzy: bool = True,
    ) -> Match:
        """Match one reference cell (its text and the #ids it links to): ``rules.outcome``.

        ``fuzzy=False`` stops after containment: the strict evidence used to recognise a table.
        """
        return rules.outcome(self, reference, anchors, build_options(options), fuzzy).match

    def match_rows(
        self,
        rows: Sequence[tuple[str, Sequence[str]]],
        options: BuildOptions | None = None,
        cells: Sequence[Sequence[str]] = (),
        content: Callable[[], SectionText] | None = None,
    ) -> list[Match]:
        """Match the references of one table together, using the page's order
        (``order.match_rows``)."""
        return order.match_rows(self, rows, build_options(options), cells, content)
