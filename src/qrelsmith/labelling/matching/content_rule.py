"""Rule ``content``: a table row the headings leave open, settled by its cells' text.

The row's other cells (query, answer) are scored by BM25 over the article's sections
(``content.SectionText``); the text chooses, the table's order (the row's bracket) confirms.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ... import patterns
from ...models import Match
from ..content import Ranked
from .forms import Bracket
from .rules import Outcome, accept

if TYPE_CHECKING:
    from .index import HeadingIndex


def by_content(
    index: HeadingIndex,
    decided: Outcome,
    result: Match,
    bracket: Bracket | None,
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

    Anything else stays open (None). The confidence sits under every fuzzy match's.
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
        return accept(chosen, "content", content_confidence(ratio), [])
    if result.candidates:  # unmatched, yet naming something (an excluded section)
        return None
    if decided.weak:
        best_score, best = max(decided.weak, key=lambda st: (st[0], -st[1].position))
        runner_up = next((s for s, t in decided.ranked if t.target_id != best.target_id), 0.0)
        if best.target_id != top:
            return None  # the headings' best guess and the text disagree: stay open
        if (
            best_score - runner_up >= patterns.CONTENT_AHEAD_MARGIN
            and ratio >= patterns.CONTENT_WEAK_RATIO
        ):
            return accept(best, "content", content_confidence(ratio), [])
    chosen = index.section_target(top)
    if chosen is None:
        return None
    if low is not None and high is not None:
        between = index.between(low, high)
        ahead = ratio_among(content, between)
        if (
            len(between) <= patterns.CONTENT_ORDER_MAX_SECTIONS
            and top in between
            and ahead >= patterns.CONTENT_ORDER_RATIO
        ):
            return accept(chosen, "content", content_confidence(ahead), [])
    if ratio >= patterns.CONTENT_ALONE_RATIO:
        return accept(chosen, "content", content_confidence(ratio), [])
    return None


def ratio_among(content: Ranked, sections: set[str]) -> float:
    """How far the best of ``sections`` is ahead of the next best of them (inf when alone)."""
    scores = [score for section_id, score in content.scores if section_id in sections]
    if not scores or scores[0] <= 0:
        return 0.0
    return scores[0] / scores[1] if len(scores) > 1 and scores[1] > 0 else math.inf


def content_confidence(ratio: float) -> float:
    """From ``content_min`` at the least ratio accepted to ``content_max`` as the runner-up
    fades (ratio to infinity): always under every fuzzy match."""
    low, high = patterns.MATCH_CONFIDENCE["content_min"], patterns.MATCH_CONFIDENCE["content_max"]
    least = min(patterns.CONTENT_TIE_RATIO, patterns.CONTENT_WEAK_RATIO)
    share = 1.0 if math.isinf(ratio) else max(0.0, 1 - least / ratio)
    return round(low + (high - low) * share, 4)
