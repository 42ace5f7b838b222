"""A table's rows decided together: the page's order (rule ``order``), then the text.

Quick-reference tables follow the page's order. A heading the page repeats k times and the
table names k times maps occurrence by occurrence (``by_occurrence``). Rows whose match is
certain (``CERTAIN``: one heading, no tie) fix positions; when most of them follow the page
(``patterns.ORDER_MIN_SHARE``) each other row is read against the two fixed rows around it,
its ``Bracket``: that takes a weaker candidate that sits where its neighbours say it should,
and rejects a fuzzy match the order contradicts (``in_order``); a tie stays one. The rows the
headings still leave open between candidates go to the content rule (content_rule.py). Last,
a row no heading resembles is placed where the decided rows around it leave exactly one
section (``by_place``: both in one section, or one section between theirs), when the text
supports the place (``Places.supports``: the row's answer or its reference's telling words
are written there, and not better in a section outside the neighbours).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from ... import patterns
from ...config import BuildOptions
from ...models import Match
from ...text import comparable, heading_key, holds_unit, is_light_unit, units
from ..content import SectionText
from .content_rule import by_content
from .forms import Bracket, Form, Target
from .rules import EXCLUDED_MARK, Outcome, accept, outcome

if TYPE_CHECKING:
    from .index import HeadingIndex

#: Rules certain enough to fix a row's position in a table's alignment (one heading, no tie).
#: Containment counts: API tables name members by a part of the heading ("data" for
#: "basic_string_view::data"), and with only exact rows fixed such a table had no order at
#: all (dev set: +3 right, no wrong; the sample site unchanged). A section named by its
#: number ("7章") is as certain.
CERTAIN: frozenset[str] = frozenset({"anchor", "exact", "contains", "number"})


def match_rows(
    index: HeadingIndex,
    rows: Sequence[tuple[str, Sequence[str]]],
    options: BuildOptions,
    cells: Sequence[Sequence[str]] = (),
    content: Callable[[], SectionText] | None = None,
) -> list[Match]:
    """Match the references of one table together, using the page's order.

    ``rows`` are (reference text, linked #ids) in table order; each is matched alone
    (``rules.outcome``), then read against its bracket (``in_order``). ``cells`` (each row's
    other cells: query, answer) and ``content`` (the article's section text, built on first
    use) let the rows the headings leave open be settled by what the sections say (rule
    ``content``, ``content_rule.by_content``).
    """
    outcomes = [outcome(index, text, anchors, options, True) for text, anchors in rows]
    found = brackets(outcomes)
    outcomes = by_occurrence(outcomes, [heading_key(text) for text, _ in rows], found)
    results: list[Match] = []
    for i, decided in enumerate(outcomes):
        bracket = found.get(i)
        if bracket is None:
            results.append(decided.match)
        else:
            results.append(in_order(index, decided, bracket, options.ambiguity_margin))
    if content is None:
        return results  # no text to check a place against: the order alone places nothing
    read = functools.cache(content)  # built once, for the content rule and the places
    if cells:
        results = _by_content(index, outcomes, results, found, cells, read)

    places: list[Places] = []  # made when a row is first placed

    def supports(number: int, place: str, inside: Collection[str]) -> bool:
        if not places:
            places.append(Places(index, read(), [text for text, _ in rows], cells))
        return places[0].supports(number, place, inside)

    return by_place(index, outcomes, results, supports)


def _by_content(
    index: HeadingIndex,
    outcomes: Sequence[Outcome],
    results: list[Match],
    found: dict[int, Bracket],
    cells: Sequence[Sequence[str]],
    content: Callable[[], SectionText],
) -> list[Match]:
    """The rows the headings leave between candidates, settled by their cells' text where
    it is unambiguous (``content_rule.by_content``)."""
    text: SectionText | None = None
    results = list(results)
    for i, (decided, result) in enumerate(zip(outcomes, results, strict=True)):
        row_cells = [c for c in (cells[i] if i < len(cells) else ()) if c.strip()]
        if result.section_ids or result.reason not in OPEN_REASONS:
            continue
        if not row_cells or any(c.startswith(EXCLUDED_MARK) for c in result.candidates):
            continue
        if result.reason == "unmatched" and not decided.weak:
            continue  # no heading candidate: content never decides alone
        text = text if text is not None else content()
        settled = by_content(
            index,
            decided,
            result,
            found.get(i),
            text.rank(row_cells),
            functools.partial(text.held, texts=row_cells),
        )
        if settled is not None:
            results[i] = settled
    return results


#: The reasons of a row the headings leave open: what the order and the text may settle.
OPEN_REASONS: frozenset[str] = frozenset({"unmatched", "ambiguous"})
#: Rows that take no part in the table's order: they name nothing of this page.
SILENT_REASONS: frozenset[str] = frozenset({"elsewhere", "empty"})


#: Whether the text supports placing a table row (by number) in a section (by id), given the
#: sections between its neighbours (``Places.supports``).
Supports = Callable[[int, str, Collection[str]], bool]


def by_place(
    index: HeadingIndex, outcomes: Sequence[Outcome], results: list[Match], supports: Supports
) -> list[Match]:
    """Rows the headings leave open where the page's order leaves them one section each
    (rule ``order``). Between two consecutive decided rows of a table that follows the page
    (``fixed_chain``), the open rows name headings that lie between the two decided rows'
    headings. When both decided rows are in one section, the rows between are in it too (a
    reference page's table names the items of its section "URI schemes" in turn: "mailto",
    "ms-chat:"). Otherwise, when the sections between theirs are exactly as many as the
    open rows, each row takes one, in order ("놓고" between "array::max_size" and
    "array::rbegin" is "array::pointer"). Only rows no heading resembles are placed so: a
    tie between headings stays one (see ``in_order``), and a row between them decided out of
    order, tied, vague, or naming an excluded section leaves the places unsaid, as do
    neighbours with no heading between them. A place is taken only where the text
    ``supports`` it (``Places.supports``): the order alone never decides (issue 28)."""
    chain = fixed_chain(index, outcomes, results)
    out = list(results)
    for (before, (_, low)), (after, (high, _)) in itertools.pairwise(chain):
        rows = [n for n in range(before + 1, after) if results[n].reason not in SILENT_REASONS]
        if not rows or any(
            results[n].section_ids or results[n].reason != "unmatched" or results[n].candidates
            for n in rows
        ):
            continue
        if low.target_id == high.target_id:
            places = [low.target_id] * len(rows)
        else:
            # a table that names H2s (both neighbours' headings are) names none of the
            # subheadings between them ("구문", "설명" under each member)
            level = low.top and high.top
            inside = list(
                dict.fromkeys(
                    t.target_id
                    for t in index.targets
                    if low.position < t.position < high.position and (t.top or not level)
                )
            )
            # as many rows as sections, in the page's order: one each (only in a table of
            # H2s when there are several: between subheadings a section may hold two)
            if len(inside) != len(rows) or (len(rows) > 1 and not level):
                continue
            places = inside
        confidence = min(
            patterns.MATCH_CONFIDENCE["order_max"],
            results[before].confidence or 1.0,
            results[after].confidence or 1.0,
        )
        bounds = index.between(low.position, high.position)
        for n, place in zip(rows, places, strict=True):
            target = index.section_target(place)
            if target is not None and supports(n, place, bounds):
                out[n] = accept(target, "order", confidence, [])
    return out


#: A section that holds every unit (light ones aside) of the references of at least this
#: share of a table's rows lists the table's items (the table's own section, a members list,
#: an overview naming every item): it tells no row from another, so it is no rival to a
#: place (``Places.listing``). By cross-validation on the dev set's halves
#: (docs/label-quality.md, round three): 0.3 / 0.5 / 0.8 keep rule 6's rows on both halves,
#: 1.0 costs half A 4 rows, no exemption 10; half B is flat. 0.5 is kept.
LISTING_SHARE = 0.5
#: A place names a row (``Places.names_place``) when it writes at least this share of the
#: row's telling units: one word of several in common ("関数" of "ウィンドウ関数") is no
#: evidence. By cross-validation (docs/label-quality.md, round three): 0.25 / 0.34 / 0.5 /
#: 0.67 / 1.0 keep half A's rows at every value, half B's at 0.25 one more; 0.5, "half
#: of what the reference names", is kept.
FOUND_SHARE = 0.5


class Places:
    """What the text says of the places the order gives a table's rows (``supports``): the
    sections' text (``content.SectionText``) and headings, read for the rows' references
    (``rows``, in table order) and cells."""

    def __init__(
        self,
        index: HeadingIndex,
        text: SectionText,
        rows: Sequence[str],
        cells: Sequence[Sequence[str]],
    ):
        self.index = index
        self.text = text
        self.cells = cells
        self.rows = rows
        #: each row's reference's units, light ones aside (what ``listing`` looks for)
        self.words = [frozenset(u for u in units(r) if not is_light_unit(u)) for r in rows]
        self._own: dict[int, frozenset[str]] = {}
        self._cells: dict[int, tuple[list[str], list[frozenset[str]]]] = {}
        self._headings: dict[str, list[str]] = {}
        self._folded: dict[str, str] = {}
        self._listing: dict[str, bool] = {}

    def own(self, number: int) -> frozenset[str]:
        """A row's telling units (not light, not the page's topic: ``HeadingIndex.telling``),
        read when the row is first asked about."""
        known = self._own.get(number)
        if known is None:
            units = Form(self.rows[number]).units
            known = self._own[number] = frozenset(u for u in units if self.index.telling(u))
        return known

    def found(
        self, number: int, section_id: str, units: frozenset[str] | None = None
    ) -> frozenset[str]:
        """The row's telling units (or ``units``) that the section's headings or text hold."""
        folded = self.folded(section_id)
        wanted = self.own(number) if units is None else units
        return frozenset(u for u in wanted if holds_unit(folded, u))

    def folded(self, section_id: str) -> str:
        """A section's headings and text, folded as units are read (``text.comparable``)."""
        folded = self._folded.get(section_id)
        if folded is None:
            if not self._headings:
                for t in self.index.targets:
                    self._headings.setdefault(t.target_id, []).append(t.heading)
            headings = comparable(" ".join(self._headings.get(section_id, ())))
            text = self.index.folded_text(section_id)
            if text is None:  # an index built with no text (or other text) for it
                text = comparable(self.text.text_of(section_id))
            folded = self._folded[section_id] = headings + " " + text
        return folded

    def names_place(self, number: int, place: str) -> bool:
        """The reference's own words are written in the place: at least ``FOUND_SHARE`` of
        its telling units, and, when it has specific units (an identifier, a number, a
        symbol-bearing or rare word: ``HeadingIndex.specific``), one of them."""
        found = self.found(number, place)
        if not found or len(found) < FOUND_SHARE * len(self.own(number)):
            return False
        specific = self.index.specific(Form(self.rows[number]))
        return not specific or bool(self.found(number, place, specific))

    def row_cells(self, number: int) -> tuple[list[str], list[frozenset[str]]]:
        """A row's cells that say something, and each one's units."""
        known = self._cells.get(number)
        if known is None:
            row = self.cells[number] if number < len(self.cells) else ()
            cells = [c for c in row if c.strip()]
            known = self._cells[number] = (cells, [frozenset(units(c)) for c in cells])
        return known

    def held(self, number: int, section_id: str) -> frozenset[int]:
        """The row's cells the section holds (``SectionText.held``). A cell none of whose
        units the section's text holds is held nowhere there (read first: it costs little)."""
        cells, cell_units = self.row_cells(number)
        folded = self.folded(section_id)
        hope = [n for n, found in enumerate(cell_units) if any(u in folded for u in found)]
        if not hope:
            return frozenset()
        held = self.text.held(section_id, [cells[n] for n in hope])
        return frozenset(hope[k] for k in held)

    def listing(self, section_id: str) -> bool:
        """The section holds every unit (light ones aside) of the references of at least
        ``LISTING_SHARE`` of the rows."""
        known = self._listing.get(section_id)
        if known is None:
            named = [n for n, words in enumerate(self.words) if words]
            listed = sum(
                1 for n in named if self.found(n, section_id, self.words[n]) == self.words[n]
            )
            known = self._listing[section_id] = bool(named) and listed >= LISTING_SHARE * len(named)
        return known

    def supports(self, number: int, place: str, inside: Collection[str]) -> bool:
        """The text supports the place the order gives a row (issue 28: decide only when the
        row's answer is found in the chosen section). The place must hold the row's
        evidence: a cell of the row (its answer, whole, as a window of sentences or every
        checkable value), or its reference's own words (``names_place``). And no section
        outside the neighbours' bounds (``inside``) may hold it better — a cell the place
        lacks, or every cell the place holds and, of the telling units, those the place
        holds and more — unless that section lists the table's items (``listing``). A row
        naming a topic the page does not cover finds nothing of its own in the place; a
        reference page's item row given an overview section that lists every item finds
        its item's own section holding its answer, or more of its words."""
        held = self.held(number, place)
        found = self.found(number, place)
        if not held and not self.names_place(number, place):
            return False
        for rival in self.text.ids:
            if rival == place or rival in inside:
                continue
            theirs = self.held(number, rival)
            better = bool(theirs - held) or (theirs >= held and found < self.found(number, rival))
            if better and not self.listing(rival):
                return False
        return True


#: The rules that name a heading, not only a section: a row they decide is bounded by that
#: heading in the table's order (``fixed_chain``).
BY_HEADING: frozenset[str] = frozenset({"exact", "contains", "fuzzy"})


def fixed_chain(
    index: HeadingIndex, outcomes: Sequence[Outcome], matches: Sequence[Match]
) -> list[tuple[int, tuple[Target, Target]]]:
    """The decided rows (a ``LEXICAL`` rule, one section) that follow the page, in table
    order, each with the first and the last heading it may name: the heading its rule
    matched, or else its section's first and last (an anchor, the order or the text name
    the section only). Empty when most of them do not follow the page's sections
    (``patterns.ORDER_MIN_SHARE``)."""
    placed: dict[int, tuple[Target, Target]] = {}
    for number, match in enumerate(matches):
        if match.rule not in LEXICAL or len(match.section_ids) != 1:
            continue
        section_id = match.section_ids[0]
        named = outcomes[number].target
        if match.rule in BY_HEADING and named is not None and named.target_id == section_id:
            placed[number] = (named, named)
            continue
        own = [t for t in index.targets if t.target_id == section_id]
        if own:
            placed[number] = (own[0], own[-1])
    # the table follows the page section by section: within one section a reference
    # page's table may list the subheadings in its own order
    sections = {n: index.section_target(first.target_id) for n, (first, _) in placed.items()}
    chain = longest_ordered(
        sorted((n, section.position) for n, section in sections.items() if section is not None)
    )
    if len(placed) < 2 or len(chain) < patterns.ORDER_MIN_SHARE * len(placed):
        return []
    return [(n, placed[n]) for n in chain]


def by_occurrence(
    outcomes: list[Outcome], keys: Sequence[str], found: dict[int, Bracket]
) -> list[Outcome]:
    """A heading repeated in k sections and named by k rows of the table (their references'
    ``keys`` equal to it) maps occurrence by occurrence, in table order (rule ``order``): a
    troubleshooting page repeats "概要" and "考えられる原因" under each case, and its table
    lists them in page order. Another count (a heading named fewer or more times than it
    repeats), rows that only resemble it, or an occurrence outside its row's bracket (the
    fixed rows around it, ``found``: a versioned page's later copy) say nothing of which is
    meant: the first is kept (a repeated H2), or the row stays a tie for its neighbours
    (``in_order``)."""
    groups: dict[tuple[str, tuple[str, ...]], list[int]] = {}  # (heading, its sections)
    for number, decided in enumerate(outcomes):
        named = {t.key for t in decided.tied}
        if named == {keys[number]}:
            sections = tuple(dict.fromkeys(t.target_id for t in decided.tied))
            if len(sections) > 1:
                groups.setdefault((decided.tied[0].key, sections), []).append(number)
    out = list(outcomes)
    for (_, sections), numbers in groups.items():
        if len(numbers) != len(sections):
            continue
        chosen = [
            next(t for t in outcomes[number].tied if t.target_id == section_id)
            for number, section_id in zip(numbers, sections, strict=True)
        ]
        if not all(
            t.within(*found.get(number, (None, None)))
            for number, t in zip(numbers, chosen, strict=True)
        ):
            continue
        for number, target in zip(numbers, chosen, strict=True):
            match = outcomes[number].match
            confidence = min(patterns.MATCH_CONFIDENCE["order_max"], match.confidence or 1.0)
            out[number] = Outcome(accept(target, "order", confidence, list(match.flags)))
    return out


def brackets(outcomes: Sequence[Outcome]) -> dict[int, Bracket]:
    """For each row the order reads (not a fixed row itself), the positions of the fixed
    rows before and after it; empty when the table does not follow the page."""
    certain = {
        i: decided.target.position
        for i, decided in enumerate(outcomes)
        if decided.target is not None and not decided.tied and decided.match.rule in CERTAIN
    }
    chain = longest_ordered(sorted(certain.items()))
    if len(certain) < 2 or len(chain) < patterns.ORDER_MIN_SHARE * len(certain):
        return {}
    found: dict[int, Bracket] = {}
    fixed = set(chain)
    for i in range(len(outcomes)):
        if i in fixed:
            continue
        before = [certain[j] for j in chain if j < i]
        after = [certain[j] for j in chain if j > i]
        found[i] = (before[-1] if before else None, after[0] if after else None)
    return found


#: The rules whose rows bound the semantic fallback's choice (``sections_between``): every
#: lexical decision. With only ``CERTAIN`` rows, tables whose rows are all fuzzy had no order,
#: and the fallback decided 2 + 21 rows of the dev set's halves A + B instead of 3 + 23 (none
#: wrong either way).
LEXICAL: frozenset[str] = CERTAIN | {"fuzzy", "order", "content"}


def sections_between(
    index: HeadingIndex, matches: Sequence[Match], fixing: Collection[str] = LEXICAL
) -> list[set[str] | None]:
    """For each row of a decided table, the sections between the decided rows around it
    (rows matched to one section by a ``fixing`` rule; a table edge bounds nothing), when
    most of them follow the page (``patterns.ORDER_MIN_SHARE``); None for such a row itself
    and for every row of a table that does not follow the page. What the semantic
    fallback's choice must agree with."""
    positions: dict[int, int] = {}
    for number, match in enumerate(matches):
        if match.rule in fixing and len(match.section_ids) == 1:
            target = index.section_target(match.section_ids[0])
            if target is not None:
                positions[number] = target.position
    chain = longest_ordered(sorted(positions.items()))
    if len(positions) < 2 or len(chain) < patterns.ORDER_MIN_SHARE * len(positions):
        return [None] * len(matches)
    fixed = set(chain)
    out: list[set[str] | None] = []
    for number in range(len(matches)):
        if number in fixed:
            out.append(None)
            continue
        before = [positions[j] for j in chain if j < number]
        after = [positions[j] for j in chain if j > number]
        low, high = (before[-1] if before else None), (after[0] if after else None)
        out.append({t.target_id for t in index.targets if t.within(low, high) and t.top})
    return out


def longest_ordered(items: list[tuple[int, int]]) -> list[int]:
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


def in_order(index: HeadingIndex, decided: Outcome, bracket: Bracket, margin: float) -> Match:
    """One row's match read against the positions of the fixed rows around it (rule
    ``order``)."""
    match = decided.match
    low, high = bracket
    if decided.tied:
        # a tie the neighbours alone would break stays one: on the dev set that chose 1 row
        # right and 3 wrong (half A 0/2, half B 1/1: a versioned page whose author linked
        # another copy of the heading); a heading named as often as it repeats is mapped
        # occurrence by occurrence (``by_occurrence``)
        return match
    # The rest needs neighbours on both sides, close together: between far-apart rows (or
    # past the last one) the order says little.
    if low is None or high is None:
        return match
    if len(index.between(low, high)) > patterns.ORDER_MAX_SECTIONS:
        return match
    rivals = [(score, t) for score, t in decided.weak if t.within(low, high)]
    if match.section_ids:
        # a fuzzy match out of place is dropped only when the order points at another
        # candidate of the row: tables are often a little out of order
        target = decided.target
        if (
            match.rule == "fuzzy"
            and target is not None
            and not target.within(low, high)
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
    return accept(target, "order", confidence, [])
