"""Rule ``content``: a table row the headings leave between candidates, settled by its cells.

The row's other cells (query, answer) are scored by BM25 over the article's sections
(``content.SectionText``). Content decides only between heading candidates (a near-tie, or a
weak candidate against the runner-up heading), and only when the chosen section holds the
row's answer (a cell of the row, whole, as a window of its sentences, or every checkable
value) and its rivals do not. A row with no heading candidate stays open: outside the dev
set the text alone chose wrongly for 7 of 12 such rows, rows whose topic the article does
not cover and reference pages' overview sections that mention every item (issue 28).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ... import patterns
from ...models import Match
from ..content import Ranked
from .forms import Bracket
from .rules import Outcome, accept

if TYPE_CHECKING:
    from .index import HeadingIndex

#: Which of the row's cells (by number) a section (by id) holds: ``SectionText.held``.
Holds = Callable[[str], frozenset[int]]


def by_content(
    index: HeadingIndex,
    decided: Outcome,
    result: Match,
    bracket: Bracket | None,
    content: Ranked,
    holds: Holds,
) -> Match | None:
    """A row the headings leave between candidates, settled by its cells' text (``content``:
    every section of the article ranked by BM25 against the row's query and answer).

    - a near-tie (ambiguous): content must rank one of the tied sections first among all
      the article's sections, ``CONTENT_TIE_RATIO`` ahead of the runner-up;
    - a weak candidate (under the threshold, ``CONTENT_AHEAD_MARGIN`` ahead of every
      other section's heading): content must rank it first, ``CONTENT_WEAK_RATIO`` ahead;
      a weak candidate content does not rank first keeps the row open.

    Either way the chosen section must hold a cell of the row (its answer: ``holds``) that no
    rival (the other tied sections; the runner-up heading's section) holds. Anything else stays
    open (None). The confidence sits under every fuzzy match's.
    """
    top = content.top
    if top is None:
        return None
    ratio = content.ratio()
    low, high = bracket if bracket is not None else (None, None)
    if result.reason == "ambiguous":
        tied = [t for t in decided.tied if not t.excluded]
        if bracket is not None:  # the order narrows the tie when it can
            within = [t for t in tied if t.within(low, high)]
            tied = within or tied
        chosen = next((t for t in tied if t.target_id == top), None)
        if chosen is None or ratio < patterns.CONTENT_TIE_RATIO:
            return None
        if not answer_only_in(top, (t.target_id for t in tied), holds):
            return None
        return accept(chosen, "content", content_confidence(ratio), [])
    if result.candidates or not decided.weak:  # an excluded section named, or no candidate
        return None
    best_score, best = max(decided.weak, key=lambda st: (st[0], -st[1].position))
    runner_up = next(((s, t) for s, t in decided.ranked if t.target_id != best.target_id), None)
    if best.target_id != top:
        return None  # the headings' best guess and the text disagree: stay open
    if (
        best_score - (runner_up[0] if runner_up else 0.0) >= patterns.CONTENT_AHEAD_MARGIN
        and ratio >= patterns.CONTENT_WEAK_RATIO
        and answer_only_in(top, [runner_up[1].target_id] if runner_up else [], holds)
    ):
        return accept(best, "content", content_confidence(ratio), [])
    return None


def answer_only_in(chosen: str, candidates: Iterable[str], holds: Holds) -> bool:
    """The chosen section holds a cell of the row (its answer) that none of the other
    candidates holds."""
    found = holds(chosen)
    for rival in sorted(set(candidates) - {chosen}):
        if not found:
            break
        found = found - holds(rival)
    return bool(found)


def content_confidence(ratio: float) -> float:
    """From ``content_min`` at the least ratio accepted to ``content_max`` as the runner-up
    fades (ratio to infinity): always under every fuzzy match."""
    low, high = patterns.MATCH_CONFIDENCE["content_min"], patterns.MATCH_CONFIDENCE["content_max"]
    least = min(patterns.CONTENT_TIE_RATIO, patterns.CONTENT_WEAK_RATIO)
    share = 1.0 if math.isinf(ratio) else max(0.0, 1 - least / ratio)
    return round(low + (high - low) * share, 4)
