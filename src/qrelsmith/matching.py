"""A section reference x an article's headings -> Match.

Rules, tried in order and recorded: ``anchor`` (an in-page link to a heading or into a
section), ``exact`` (equal after normalisation, or after dropping a bracketed part or a
"Step 2:" prefix), ``contains`` (one holds the other, on word boundaries), ``fuzzy`` (a
word-aware similarity above a measured threshold, see ``patterns.SIMILARITY_WEIGHTS``). When an
exact candidate exists only exact candidates compete, and an H2 beats an H3 elsewhere.
Near-ties are ambiguous, never guessed: the margin holds against every heading compared, also
one under the threshold, and a fuzzy winner that shares only identifiers another section's
heading also carries ("add v4tov4" / "set v4tov4") is a tie. Vague link text ("here", こちら)
and sentence fragments ("を使用") match nothing but an equal heading.

A reference naming several sections ("A／B") yields all of them when every part matches, and
the parts that match (flagged ``partial-reference``) when the others match nothing at all; a
reference equal to a heading is never split ("TCP/UDP の違い" stays whole). A weak separator
(、，,) splits only into parts that are each exactly a heading; otherwise the reference is
matched whole. A reference that matches nothing is tried once more without its bracketed
remark ("IIS (IIS、FTP などを選択します)").

The rows of one table are decided together (``HeadingIndex.match_rows``): quick-reference
tables follow the page's order, so a monotone alignment over heading positions settles ties
between repeated headings and takes a weaker candidate that sits where its neighbours say it
should (rule ``order``), and rejects a fuzzy match the order contradicts. The rows the
headings still leave open are read against the sections' text: the row's other cells (query,
answer) scored by BM25 over the article's sections (``content.SectionText``), rule ``content``
(``HeadingIndex._by_content``). ``match_table`` is that decision for a table.

Every match carries one ``confidence`` in 0-1 (``patterns.MATCH_CONFIDENCE``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from rapidfuzz import fuzz

from . import patterns
from .config import BuildOptions, build_options
from .content import Ranked, SectionText
from .layout import section_number
from .models import RULE_ORDER, Article, Match, MatchRule
from .text import comparable, heading_key, is_light_unit, runs, stem, tokens, units

#: Prefix marking a candidate that is an excluded section (FAQ, summary ...): a reference that
#: lands there has no corpus target and is rejected rather than sent to a neighbour.
EXCLUDED_MARK = "excluded:"

#: Rules certain enough to fix a row's position in a table's alignment (one heading, no tie).
#: Containment counts: API tables name members by a part of the heading ("data" for
#: "basic_string_view::data"), and with only exact rows fixed such a table had no order at
#: all (dev set: +3 right, no wrong; the sample site unchanged).
CERTAIN: frozenset[str] = frozenset({"anchor", "exact", "contains"})

#: Flags a match can carry into golden.jsonl.
PARTIAL_FLAG = "partial-reference"
DUPLICATE_FLAG = "duplicate-heading"


@dataclass(frozen=True, slots=True)
class Target:
    """One heading a reference may point at.

    ``top`` says it is its section's own (H2) heading, ``position`` its place in the page.
    """

    target_id: str
    heading: str
    key: str
    excluded: bool = False
    top: bool = True
    position: int = 0


_DIGITS = re.compile(r"\d+")
_IDENTIFIER = re.compile(r"[a-z][A-Z]|[_0-9]")
_LETTER = re.compile(r"[a-z]")


class _Form:
    """What a heading or a reference is compared as. The key and tokens serve exact and
    contained matches; the rest is computed when a comparison first needs it (recognising a
    table asks only for exact and contained matches, over every heading of a page)."""

    def __init__(self, text: str):
        self.text = text
        self.key = heading_key(text)
        self.tokens = tokens(text)
        self.joined = "".join(self.tokens)

    @cached_property
    def plain(self) -> str:
        """The text NFKC-, case- and accent-folded, white space kept (text.comparable)."""
        return comparable(self.text).strip()

    @cached_property
    def stripped(self) -> str:
        """The key's tokens without bracketed parts and without a "Step 2:"/"例:" prefix."""
        plain = self.plain
        if patterns.NAME_PREFIX.match(plain) or any(o in plain for o in _OPENINGS):
            return _stripped_key(plain)
        return self.joined  # nothing to strip (most headings and cells)

    @cached_property
    def units(self) -> frozenset[str]:
        return frozenset(units(self.text))

    @cached_property
    def identifiers(self) -> frozenset[str]:
        """The units that are identifiers: a word of letters with digits, an underscore or an
        inner capital as written ("v4tov4", "IAsyncAction", "max_size")."""
        return frozenset(
            stem(run, written)
            for kind, run, written in runs(self.text)
            if kind == "word" and _IDENTIFIER.search(written) and _LETTER.search(run)
        )

    @cached_property
    def digits(self) -> tuple[str, ...]:
        """The runs of digits, in order: spacing and identifiers split by machine translation
        ("Sid::P reW2KAccess") keep them."""
        return tuple(_DIGITS.findall(self.joined))


_form = _Form


#: Brackets whose content ``stripped`` drops (after NFKC, which makes "（" a "(").
_BRACKET_PAIRS = (
    ("(", ")"), ("[", "]"), ("<", ">"), ("「", "」"), ("（", "）"), ("［", "］"), ("＜", "＞"),
)  # fmt: skip
_OPENINGS = tuple(pair[0] for pair in _BRACKET_PAIRS)


def _stripped_key(plain: str) -> str:
    """``plain`` (comparable text) without bracketed parts and without a name prefix, as the
    joined tokens."""
    return "".join(tokens(_stripped_text(plain)))


def _stripped_text(plain: str) -> str:
    """``plain`` without bracketed parts and without a name prefix."""
    without = patterns.NAME_PREFIX.sub("", plain)
    for opening, closing in _BRACKET_PAIRS:
        while opening in without and closing in without.split(opening, 1)[1]:
            head, rest = without.split(opening, 1)
            without = head + " " + rest.split(closing, 1)[1]
    return without


@dataclass(slots=True)
class _Outcome:
    """A match and the candidates behind it, for the table's alignment."""

    match: Match
    target: Target | None = None
    tied: list[Target] = field(default_factory=list)
    weak: list[tuple[float, Target]] = field(default_factory=list)
    #: every section's best similarity, best first (fuzzy stage only): what "clearly ahead"
    #: is measured against
    ranked: list[tuple[float, Target]] = field(default_factory=list)


class HeadingIndex:
    """The headings of one article (H2 and nested ones), keyed for comparison."""

    def __init__(self, targets: Iterable[Target], anchors: dict[str, str] | None = None):
        self.targets = [t for t in targets if t.key]
        self.anchors = anchors or {}
        self.forms = [_form(t.heading) for t in self.targets]
        top_key = {t.target_id: t.key for t in self.targets if t.top}
        self.section_keys = [top_key.get(t.target_id, t.target_id) for t in self.targets]
        self._count = len(self.targets)
        self._by_key: dict[str, list[int]] = {}
        for i, f in enumerate(self.forms):
            self._by_key.setdefault(f.key, []).append(i)

    @cached_property
    def _by_stripped(self) -> dict[str | tuple[str, ...], list[int]]:
        """Headings by their stripped key and by their tokens (exact once brackets, prefixes
        and punctuation are set aside)."""
        found: dict[str | tuple[str, ...], list[int]] = {}
        for i, f in enumerate(self.forms):
            found.setdefault(f.stripped, []).append(i)
            found.setdefault(f.tokens, []).append(i)
        return found

    @cached_property
    def _weights(self) -> dict[str, float]:
        """Each heading unit's weight: its rarity among the headings, light units less."""
        document_frequency: dict[str, int] = {}
        for form in self.forms:
            for unit in form.units:
                document_frequency[unit] = document_frequency.get(unit, 0) + 1
        return {
            u: self._idf(n) * (patterns.LIGHT_WEIGHT if is_light_unit(u) else 1.0)
            for u, n in document_frequency.items()
        }

    @cached_property
    def _heading_weights(self) -> list[float]:
        return [self._weight_of(f.units) for f in self.forms]

    @classmethod
    def from_article(cls, article: Article) -> HeadingIndex:
        """Index the corpus sections, their subheadings, their anchors and the excluded ones."""
        heads: list[tuple[int, Target, list[str]]] = []
        for section in article.sections:
            heads.append(
                (section.index, Target(section.id, section.heading, ""), section.subheadings)
            )
        for excluded in article.excluded:
            heads.append(
                (
                    int(section_number(excluded.id)),
                    Target(excluded.id, excluded.heading, "", True),
                    [],
                )
            )
        heads.sort(key=lambda item: item[0])
        targets: list[Target] = []
        anchors: dict[str, str] = {}
        for _, head, subheadings in heads:
            for number, heading in enumerate((head.heading, *subheadings)):
                targets.append(
                    Target(
                        head.target_id,
                        heading,
                        heading_key(heading),
                        head.excluded,
                        top=number == 0,
                        position=len(targets),
                    )
                )
        for section in article.sections:
            for anchor in section.anchors:
                anchors.setdefault(anchor, section.id)
        return cls(targets, anchors)

    # ----------------------------------------------------------------- weights

    def _idf(self, frequency: int) -> float:
        return math.log((self._count + 1) / (frequency + 0.5))

    def _unit_weight(self, unit: str) -> float:
        weight = self._weights.get(unit)
        if weight is None:  # in no heading: it tells no heading from another
            weight = self._idf(1) * patterns.UNSEEN_WEIGHT
            weight *= patterns.LIGHT_WEIGHT if is_light_unit(unit) else 1.0
        return weight

    def _weight_of(self, group: Iterable[str]) -> float:
        weights = self._weights
        return sum(weights[u] if u in weights else self._unit_weight(u) for u in group)

    @staticmethod
    def form(text: str) -> _Form:
        """A reference prepared for ``similarity``."""
        return _form(text)

    def similarity(self, reference: _Form, position: int) -> tuple[float, float]:
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

    # ----------------------------------------------------------------- the rules

    def match(
        self,
        reference: str,
        anchors: Sequence[str] = (),
        options: BuildOptions | None = None,
        fuzzy: bool = True,
    ) -> Match:
        """Match one reference cell (its text and the #ids it links to).

        ``fuzzy=False`` stops after containment: the strict evidence used to recognise a table.
        """
        return self._outcome(reference, anchors, build_options(options), fuzzy).match

    def _outcome(
        self, reference: str, anchors: Sequence[str], options: BuildOptions, fuzzy: bool
    ) -> _Outcome:
        linked = self._by_anchor(anchors)
        if linked:
            target = next((t for t in self.targets if t.target_id == linked[0]), None)
            return _Outcome(Match(section_ids=linked, rule="anchor", confidence=1.0), target=target)
        if not heading_key(reference):
            return _Outcome(Match(reason="empty"))
        strong = [s for s in options.reference_separators if s not in patterns.WEAK_SEPARATORS]
        weak = [s for s in options.reference_separators if s in patterns.WEAK_SEPARATORS]
        whole = self._match_listed(reference, weak, options, fuzzy)
        if whole.match.rule == "exact":
            return whole
        parts = split_reference(reference, strong)
        if len(parts) < 2:
            return whole
        outcomes = [self._match_listed(part, weak, options, fuzzy) for part in parts]
        matched = [o.match for o in outcomes if o.match.section_ids]
        if len(matched) == len(outcomes):
            return _Outcome(_combine(matched))
        if whole.match.rule == "contains":
            return whole
        failed = [o.match for o in outcomes if not o.match.section_ids]
        if matched and all(m.reason == "unmatched" and not m.candidates for m in failed):
            return _Outcome(_combine(matched, flags=[PARTIAL_FLAG]))
        return whole if whole.match.section_ids else _Outcome(failed[0])

    def _match_listed(
        self, text: str, weak: Sequence[str], options: BuildOptions, fuzzy: bool
    ) -> _Outcome:
        """``text`` as one reference, unless a weak separator splits it into parts that are
        each exactly a heading (``patterns.WEAK_SEPARATORS``)."""
        whole = self._match_part(text, options, fuzzy)
        if whole.match.rule == "exact":
            return whole
        if whole.match.reason == "unmatched" and not whole.match.candidates:
            # a bracketed remark ("IIS (IIS、FTP などを選択します)") names no section
            remark_free = _stripped_text(text).strip()
            if remark_free != text.strip() and heading_key(remark_free):
                whole = self._match_part(remark_free, options, fuzzy)
                if whole.match.section_ids:
                    return whole
        parts = split_reference(text, weak)
        if len(parts) < 2:
            return whole
        outcomes = [self._match_part(part, options, fuzzy) for part in parts]
        if all(o.match.rule == "exact" for o in outcomes):
            return _Outcome(_combine([o.match for o in outcomes]))
        return whole

    def _by_anchor(self, anchors: Sequence[str]) -> list[str]:
        found: list[str] = []
        for anchor in anchors:
            section_id = self.anchors.get(anchor)
            if section_id is None:
                return []  # a broken link: fall back to the text of the cell
            if section_id not in found:
                found.append(section_id)
        return found

    def _match_part(self, text: str, options: BuildOptions, fuzzy: bool = True) -> _Outcome:
        reference = _form(text)
        if not reference.key:
            return _Outcome(Match(reason="empty"))
        exact = self._by_key.get(reference.key)
        if exact:  # before the vague guard: a heading may literally be "詳細"
            return self._decide_exact(exact, "exact", patterns.MATCH_CONFIDENCE["exact"])
        if " ".join(reference.plain.split()).strip(" .:：。!！") in patterns.VAGUE_REFERENCES:
            return _Outcome(Match(reason="vague"))
        stripped = (
            sorted(
                {
                    *self._by_stripped.get(reference.stripped, ()),
                    *self._by_stripped.get(reference.tokens, ()),
                }
            )
            if reference.stripped
            else []
        )
        if stripped:
            return self._decide_exact(
                stripped, "exact", patterns.MATCH_CONFIDENCE["exact_stripped"]
            )
        fragment = patterns.FRAGMENT_START.match(reference.plain)
        if len(reference.key) < patterns.MIN_CONTAINED_CHARS or fragment:
            return _Outcome(Match(reason="unmatched"))
        key, joined = reference.key, reference.joined
        inside = [  # the substring tests are cheap necessary conditions of the full one
            i
            for i, form in enumerate(self.forms)
            if (key in form.key or joined in form.joined)
            and _reference_inside(reference, form)
            and _same_numbers(reference, form)
        ]
        if inside:
            scored = [(self.similarity(reference, i)[0], i) for i in inside]
            low, high = (
                patterns.MATCH_CONFIDENCE["contains_min"],
                patterns.MATCH_CONFIDENCE["contains_max"],
            )
            return self._best(scored, "contains", options, lambda s: low + (high - low) * s)
        if not fuzzy:
            return _Outcome(Match(reason="unmatched"))
        # A heading inside a longer reference competes with the similar headings: the words
        # the reference adds may name another section ("... con implementación rápida
        # deshabilitada" holds the heading "... con implementación rápida").
        scored = []
        rivals = []  # every heading compared, whatever its recall: the margin holds against all
        for i in range(len(self.targets)):
            if not _same_numbers(reference, self.forms[i]):
                continue
            score, recall = self.similarity(reference, i)
            rivals.append((score, i))
            if recall >= patterns.MIN_RECALL or _heading_inside(reference, self.forms[i]):
                scored.append((score, i))
        weak = [
            (score, self.targets[i]) for score, i in scored if score >= patterns.ORDER_THRESHOLD
        ]
        strong = [(s, i) for s, i in scored if s >= options.fuzzy_threshold]
        if not strong:
            ranked = [(score, self.targets[i]) for score, i in self._ranked(rivals)]
            return _Outcome(Match(reason="unmatched"), weak=weak, ranked=ranked)
        top = patterns.MATCH_CONFIDENCE["fuzzy_max"]
        outcome = self._best(strong, "fuzzy", options, lambda s: round(min(s, top), 4), rivals)
        if outcome.target is not None:
            outcome = self._identifier_tie(reference, outcome)
        outcome.weak = weak
        return outcome

    def _identifier_tie(self, reference: _Form, outcome: _Outcome) -> _Outcome:
        """A fuzzy winner that shares nothing with the reference but identifiers another
        section's heading also carries decides nothing: "add v4tov4" is no more "set v4tov4"
        than "v4tov4 を追加します"."""
        chosen = outcome.target
        assert chosen is not None
        position = chosen.position
        shared = reference.units & self.forms[position].units
        if not shared or not shared <= reference.identifiers:
            return outcome
        others = [
            i
            for i, form in enumerate(self.forms)
            if self.targets[i].target_id != chosen.target_id and shared <= form.units
        ]
        if not others:
            return outcome
        tied = sorted([position, *others], key=lambda i: self.targets[i].position)
        return _Outcome(
            Match(reason="ambiguous", candidates=sorted({self.targets[i].heading for i in tied})),
            tied=[self.targets[i] for i in tied],
            weak=outcome.weak,
        )

    def _decide_exact(self, found: list[int], rule: MatchRule, confidence: float) -> _Outcome:
        """One section among the exact candidates wins; an H2 beats an H3 elsewhere."""
        sections = {self.targets[i].target_id for i in found}
        if len(sections) > 1:
            tops = [i for i in found if self.targets[i].top]
            if tops and len({self.targets[i].target_id for i in tops}) < len(sections):
                found = tops
        return self._settle(found, rule, confidence)

    def _best(
        self,
        scored: list[tuple[float, int]],
        rule: MatchRule,
        options: BuildOptions,
        confidence_of: Callable[[float], float],
        rivals: Sequence[tuple[float, int]] = (),
    ) -> _Outcome:
        """The best-scoring section, unless another scores within the margin of it: among the
        candidates, or among ``rivals`` (headings that are no candidate themselves, under the
        threshold or short of recall, still make a near-tie)."""
        ranked = self._ranked(scored)
        top_score, _ = ranked[0]
        close = [i for s, i in ranked if top_score - s < options.ambiguity_margin]
        if rivals:
            taken = {self.targets[i].target_id for i in close}
            close += [
                i
                for s, i in self._ranked(rivals)
                if top_score - s < options.ambiguity_margin
                and self.targets[i].target_id not in taken
            ]
        return self._settle(close, rule, confidence_of(top_score))

    def _ranked(self, scored: Iterable[tuple[float, int]]) -> list[tuple[float, int]]:
        """Each section's best (score, heading), best first (the earlier heading on a tie)."""
        best: dict[str, tuple[float, int]] = {}
        for score, i in scored:
            held = best.get(self.targets[i].target_id)
            if held is None or score > held[0]:
                best[self.targets[i].target_id] = (score, i)
        return sorted(best.values(), key=lambda si: (-si[0], self.targets[si[1]].position))

    def _settle(self, found: list[int], rule: MatchRule, confidence: float) -> _Outcome:
        """Accept when one section remains; repeated headings (the same H2 name) take the
        first in the page; else ambiguous, with the tied headings for the alignment."""
        found = sorted(found, key=lambda i: self.targets[i].position)
        tied = [self.targets[i] for i in found]
        sections = list(dict.fromkeys(t.target_id for t in tied))
        flags: list[str] = []
        if len(sections) > 1:
            if (
                len({self.section_keys[i] for i in found}) > 1
                or len({self.forms[i].key for i in found}) > 1
            ):
                return _Outcome(
                    Match(reason="ambiguous", candidates=sorted({t.heading for t in tied})),
                    tied=tied,
                )
            flags = [DUPLICATE_FLAG]
        match = _accept(tied[0], rule, confidence, flags)
        return _Outcome(
            match, target=tied[0] if match.section_ids else None, tied=tied if flags else []
        )

    # ----------------------------------------------------------------- a table's rows

    def match_rows(
        self,
        rows: Sequence[tuple[str, Sequence[str]]],
        options: BuildOptions | None = None,
        cells: Sequence[Sequence[str]] = (),
        content: Callable[[], SectionText] | None = None,
    ) -> list[Match]:
        """Match the references of one table together, using the page's order.

        ``rows`` are (reference text, linked #ids) in table order. Rows whose match is certain
        (anchor, exact or contained, to one heading) fix positions; when most of them follow
        the page's order, each other row is read against the two fixed rows around it (see the
        module doc).
        ``cells`` (each row's other cells: query, answer) and ``content`` (the article's
        section text, built on first use) let the rows the headings leave open be settled by
        what the sections say (rule ``content``, see ``_by_content``).
        """
        options = build_options(options)
        outcomes = [self._outcome(text, anchors, options, True) for text, anchors in rows]
        brackets = self._brackets(outcomes)
        results: list[Match] = []
        for i, outcome in enumerate(outcomes):
            bracket = brackets.get(i)
            if bracket is None:
                results.append(outcome.match)
            else:
                low, high = bracket
                results.append(self._in_order(outcome, low, high, options.ambiguity_margin))
        if content is None or not cells:
            return results
        text: SectionText | None = None
        for i, (outcome, result) in enumerate(zip(outcomes, results, strict=True)):
            row_cells = [c for c in (cells[i] if i < len(cells) else ()) if c.strip()]
            if result.section_ids or result.reason not in ("unmatched", "ambiguous"):
                continue
            if not row_cells or any(c.startswith(EXCLUDED_MARK) for c in result.candidates):
                continue
            text = text if text is not None else content()
            decided = self._by_content(outcome, result, brackets.get(i), text.rank(row_cells))
            if decided is not None:
                results[i] = decided
        return results

    def _brackets(self, outcomes: Sequence[_Outcome]) -> dict[int, tuple[int | None, int | None]]:
        """For each row the order reads (not a fixed row itself), the positions of the fixed
        rows before and after it; empty when the table does not follow the page."""
        certain = {
            i: outcome.target.position
            for i, outcome in enumerate(outcomes)
            if outcome.target is not None and not outcome.tied and outcome.match.rule in CERTAIN
        }
        chain = _longest_ordered(sorted(certain.items()))
        if len(certain) < 2 or len(chain) < patterns.ORDER_MIN_SHARE * len(certain):
            return {}
        brackets: dict[int, tuple[int | None, int | None]] = {}
        fixed = set(chain)
        for i in range(len(outcomes)):
            if i in fixed:
                continue
            before = [certain[j] for j in chain if j < i]
            after = [certain[j] for j in chain if j > i]
            brackets[i] = (before[-1] if before else None, after[0] if after else None)
        return brackets

    def _by_content(
        self,
        outcome: _Outcome,
        result: Match,
        bracket: tuple[int | None, int | None] | None,
        content: Ranked,
    ) -> Match | None:
        """A row the headings leave open, settled by its cells' text (``content``: every
        section of the article ranked by BM25 against the row's query and answer).

        - a near-tie (ambiguous): content must rank one of the tied sections first among all
          the article's sections, ``CONTENT_TIE_RATIO`` ahead of the runner-up;
        - a weak candidate (under the threshold, ``CONTENT_AHEAD_MARGIN`` ahead of every
          other section's heading): content must rank it first, ``CONTENT_WEAK_RATIO`` ahead;
          a weak candidate content does not rank first keeps the row open;
        - no heading candidate: content's first section (among all the article's) is taken
          when it lies between the row's fixed neighbours (at most
          ``CONTENT_ORDER_MAX_SECTIONS`` sections) and is ``CONTENT_ORDER_RATIO`` ahead of every
          other section between them, or anywhere when it is ``CONTENT_ALONE_RATIO`` ahead of
          every other section.

        Anything else stays open. The confidence sits under every fuzzy match's.
        """
        top = content.top
        if top is None:
            return None
        ratio = content.ratio()
        if result.reason == "ambiguous":
            tied = [t for t in outcome.tied if not t.excluded]
            if bracket is not None:  # the order narrows the tie when it can
                within = [t for t in tied if _within(t, bracket)]
                tied = within or tied
            chosen = next((t for t in tied if t.target_id == top), None)
            if chosen is None or ratio < patterns.CONTENT_TIE_RATIO:
                return None
            return _accept(chosen, "content", _content_confidence(ratio), [])
        if result.candidates:  # unmatched, yet naming something (an excluded section)
            return None
        if outcome.weak:
            best_score, best = max(outcome.weak, key=lambda st: (st[0], -st[1].position))
            runner_up = next((s for s, t in outcome.ranked if t.target_id != best.target_id), 0.0)
            if best.target_id != top:
                return None  # the headings' best guess and the text disagree: stay open
            if (
                best_score - runner_up >= patterns.CONTENT_AHEAD_MARGIN
                and ratio >= patterns.CONTENT_WEAK_RATIO
            ):
                return _accept(best, "content", _content_confidence(ratio), [])
        chosen = self._section_target(top)
        if chosen is None:
            return None
        low, high = bracket if bracket is not None else (None, None)
        if low is not None and high is not None:
            between = {t.target_id for t in self.targets[low : high + 1]}
            ahead = _ratio_among(content, between)
            if (
                len(between) <= patterns.CONTENT_ORDER_MAX_SECTIONS
                and top in between
                and ahead >= patterns.CONTENT_ORDER_RATIO
            ):
                return _accept(chosen, "content", _content_confidence(ahead), [])
        if ratio >= patterns.CONTENT_ALONE_RATIO:
            return _accept(chosen, "content", _content_confidence(ratio), [])
        return None

    def _section_target(self, section_id: str) -> Target | None:
        """The H2 heading of a section (its first target)."""
        return next((t for t in self.targets if t.target_id == section_id), None)

    def _in_order(
        self, outcome: _Outcome, low: int | None, high: int | None, margin: float
    ) -> Match:
        """One row's match read against the positions of the fixed rows around it."""
        match = outcome.match

        def inside(target: Target) -> bool:
            return (low is None or low <= target.position) and (
                high is None or target.position <= high
            )

        if outcome.tied:  # ambiguous, or a repeated heading: the neighbours choose
            within = list(dict.fromkeys(t.target_id for t in outcome.tied if inside(t)))
            if len(within) != 1 or match.section_ids == within:
                return match
            chosen = next(t for t in outcome.tied if t.target_id == within[0])
            confidence = min(patterns.MATCH_CONFIDENCE["order_max"], match.confidence or 1.0)
            return _accept(chosen, "order", confidence, [])
        # The rest needs neighbours on both sides, close together: between far-apart rows (or
        # past the last one) the order says little.
        if low is None or high is None:
            return match
        if len({t.target_id for t in self.targets[low : high + 1]}) > patterns.ORDER_MAX_SECTIONS:
            return match
        rivals = [(score, t) for score, t in outcome.weak if inside(t)]
        if match.section_ids:
            # a fuzzy match out of place is dropped only when the order points at another
            # candidate of the row: tables are often a little out of order
            target = outcome.target
            if (
                match.rule == "fuzzy"
                and target is not None
                and not inside(target)
                and any(t.target_id not in match.section_ids for _, t in rivals)
            ):
                return Match(reason="out-of-order", candidates=[target.heading])
            return match
        if match.reason != "unmatched" or match.candidates or not rivals:
            return match
        best: dict[str, tuple[float, Target]] = {}
        for score, target in rivals:
            if score > best.get(target.target_id, (-1.0, target))[0]:
                best[target.target_id] = (score, target)
        ranked = sorted(best.values(), key=lambda st: (-st[0], st[1].position))
        if len(ranked) > 1 and ranked[0][0] - ranked[1][0] < margin:
            return match
        score, target = ranked[0]
        confidence = round(min(score, patterns.MATCH_CONFIDENCE["order_max"]), 4)
        return _accept(target, "order", confidence, [])


def _within(target: Target, bracket: tuple[int | None, int | None]) -> bool:
    low, high = bracket
    return (low is None or low <= target.position) and (high is None or target.position <= high)


def _ratio_among(content: Ranked, sections: set[str]) -> float:
    """How far the best of ``sections`` is ahead of the next best of them (inf when alone)."""
    scores = [score for section_id, score in content.scores if section_id in sections]
    if not scores or scores[0] <= 0:
        return 0.0
    return scores[0] / scores[1] if len(scores) > 1 and scores[1] > 0 else math.inf


def _content_confidence(ratio: float) -> float:
    """From ``content_min`` at the least ratio accepted to ``content_max`` as the runner-up
    fades (ratio to infinity): always under every fuzzy match."""
    low, high = patterns.MATCH_CONFIDENCE["content_min"], patterns.MATCH_CONFIDENCE["content_max"]
    least = min(patterns.CONTENT_TIE_RATIO, patterns.CONTENT_WEAK_RATIO)
    share = 1.0 if math.isinf(ratio) else max(0.0, 1 - least / ratio)
    return round(low + (high - low) * share, 4)


def _reference_inside(reference: _Form, heading: _Form) -> bool:
    """The reference stands in the heading, on word boundaries.

    By tokens, or in the space-free key when the words that meet there are cut at
    punctuation: machine-translated pages split identifiers ("CStockPropImpl::p ut_Font").
    """
    if len(reference.key) < patterns.MIN_CONTAINED_CHARS:
        return False
    if _inside(reference.tokens, heading.tokens):
        return True
    key, text = reference.key, heading.key
    start = text.find(key)
    while start >= 0:
        end = start + len(key)
        cut_before = not (start and _word_char(text[start - 1]) and _word_char(key[0]))
        cut_after = not (end < len(text) and _word_char(text[end]) and _word_char(key[-1]))
        if cut_before and cut_after:
            return True
        start = text.find(key, start + 1)
    return False


def _word_char(char: str) -> bool:
    """A Latin letter, digit or underscore: what a word boundary may not cut through."""
    return char.isascii() and (char.isalnum() or char == "_")


def _heading_inside(reference: _Form, heading: _Form) -> bool:
    """The heading's tokens stand in the reference and make up enough of it."""
    share = sum(map(len, heading.tokens)) / max(1, sum(map(len, reference.tokens)))
    return share >= patterns.MIN_CONTAINED_SHARE and _inside(heading.tokens, reference.tokens)


def _inside(needle: tuple[str, ...], haystack: tuple[str, ...]) -> bool:
    size = len(needle)
    if not size or size > len(haystack):
        return False
    return any(haystack[k : k + size] == needle for k in range(len(haystack) - size + 1))


def _same_numbers(reference: _Form, heading: _Form) -> bool:
    """References and headings whose numbers differ ("v4tov4" / "v4tov6", "Exited (0)" /
    "Exited (1)") name different things: one's run of numbers must stand in the other's."""
    if not reference.digits or not heading.digits:
        return True
    return _inside(reference.digits, heading.digits) or _inside(heading.digits, reference.digits)


def _longest_ordered(items: list[tuple[int, int]]) -> list[int]:
    """Row numbers of the longest run of rows whose positions never go back (first one wins)."""
    if not items:
        return []
    best_length = [1] * len(items)
    previous = [-1] * len(items)
    for k, (_, pos) in enumerate(items):
        for j in range(k):
            if items[j][1] <= pos and best_length[j] + 1 > best_length[k]:
                best_length[k] = best_length[j] + 1
                previous[k] = j
    end = max(range(len(items)), key=lambda k: (best_length[k], -k))
    chain: list[int] = []
    while end >= 0:
        chain.append(items[end][0])
        end = previous[end]
    return chain[::-1]


def _accept(target: Target, rule: MatchRule, confidence: float, flags: list[str]) -> Match:
    if target.excluded:
        return Match(reason="unmatched", candidates=[f"{EXCLUDED_MARK}{target.heading}"])
    return Match(
        section_ids=[target.target_id], rule=rule, confidence=round(confidence, 4), flags=flags
    )


def _combine(matches: list[Match], flags: Sequence[str] = ()) -> Match:
    """Union of the parts' sections; the weakest rule and confidence speak for the whole."""
    section_ids = list(dict.fromkeys(sid for m in matches for sid in m.section_ids))
    rule = max((m.rule for m in matches if m.rule), key=RULE_ORDER.index)
    merged = list(dict.fromkeys([*flags, *(f for m in matches for f in m.flags)]))
    return Match(
        section_ids=section_ids,
        rule=rule,
        confidence=min(m.confidence for m in matches),
        flags=merged,
    )


def split_reference(reference: str, separators: Sequence[str]) -> list[str]:
    """The parts of a reference naming several sections; one part when no separator occurs."""
    parts = [reference]
    for separator in separators:
        parts = [piece for part in parts for piece in part.split(separator)]
    return [p.strip() for p in parts if heading_key(p)]


def match_reference(
    reference: str,
    article: Article,
    anchors: Sequence[str] = (),
    options: BuildOptions | None = None,
) -> Match:
    """Match a section reference against an article's headings (see the module doc)."""
    return HeadingIndex.from_article(article).match(reference, anchors, options)


def match_table(
    rows: Sequence[tuple[str, Sequence[str], Sequence[str]]],
    article: Article,
    options: BuildOptions | None = None,
) -> list[Match]:
    """The build's decision for one table: one Match per row, in table order.

    ``rows`` are (reference text, linked #ids, the row's other cells: query, answer). The
    rows are decided together (``HeadingIndex.match_rows``: the page's order, then the
    sections' text for the rows the headings leave open), then, with ``options.semantic``,
    by the optional sentence encoder for the rows still open (``semantic.resolve``).
    """
    options = build_options(options)
    index = HeadingIndex.from_article(article)
    references = [(reference, anchors) for reference, anchors, _ in rows]
    cells = [[c for c in other if c != reference] for reference, _, other in rows]
    matches = index.match_rows(
        references, options, cells=cells, content=lambda: SectionText.from_article(article)
    )
    if options.semantic:  # off by default: the encoder is imported only here
        from .semantic import resolve

        matches = resolve([reference for reference, _, _ in rows], matches, article)
    return matches
