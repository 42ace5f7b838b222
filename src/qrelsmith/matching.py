"""A section reference x an article's headings -> Match.

Rules, tried in order and recorded: ``anchor`` (an in-page link to a heading or into a section),
``exact`` (equal after normalisation), ``contains`` (one contains the other), ``fuzzy``
(rapidfuzz ratio above a measured threshold). Near-ties are reported as ambiguous, never guessed.
A reference naming several sections ("A／B") yields all of them when every part matches; a
reference equal to a heading is never split ("TCP/UDP の違い" stays whole).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from .config import BuildOptions
from .models import RULE_ORDER, Article, Match, MatchRule
from .text import heading_key

#: Prefix marking a candidate that is an excluded section (FAQ, summary ...): a reference that
#: lands there has no corpus target and is rejected rather than sent to a neighbour.
EXCLUDED_MARK = "excluded:"

#: A heading contained in a longer reference counts only when it is at least this share of the
#: reference's length: short headings ("概要", "Setup") are contained in many references.
MIN_CONTAINED_SHARE = 0.5

#: A reference contained in a heading needs at least this many characters (after
#: normalisation): one or two characters are contained everywhere.
MIN_CONTAINED_CHARS = 2


@dataclass(frozen=True, slots=True)
class Target:
    """One heading a reference may point at."""

    target_id: str
    heading: str
    key: str
    excluded: bool = False


class HeadingIndex:
    """The headings of one article (H2 and nested ones), keyed for comparison."""

    def __init__(self, targets: Iterable[Target], anchors: dict[str, str] | None = None):
        self.targets = [t for t in targets if t.key]
        self.keys = [t.key for t in self.targets]
        self.anchors = anchors or {}

    @classmethod
    def from_article(cls, article: Article) -> HeadingIndex:
        """Index the corpus sections, their subheadings, their anchors and the excluded ones."""
        targets: list[Target] = []
        anchors: dict[str, str] = {}
        for section in article.sections:
            for heading in (section.heading, *section.subheadings):
                targets.append(Target(section.id, heading, heading_key(heading)))
            for anchor in section.anchors:
                anchors.setdefault(anchor, section.id)
        for excluded in article.excluded:
            targets.append(
                Target(excluded.id, excluded.heading, heading_key(excluded.heading), True)
            )
        return cls(targets, anchors)

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
        options = options or BuildOptions()
        linked = self._by_anchor(anchors)
        if linked:
            return Match(section_ids=linked, rule="anchor", score=100.0)
        if not heading_key(reference):
            return Match(reason="empty")
        whole = self._match_part(reference, options, fuzzy)
        if whole.rule == "exact":
            return whole
        parts = split_reference(reference, options.reference_separators)
        if len(parts) > 1:
            matches = [self._match_part(part, options, fuzzy) for part in parts]
            if all(m.section_ids for m in matches):
                return _combine(matches)
            if not whole.section_ids:
                return next(m for m in matches if not m.section_ids)
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

    def _match_part(self, text: str, options: BuildOptions, fuzzy: bool = True) -> Match:
        key = heading_key(text)
        if not key:
            return Match(reason="empty")
        exact = [t for t in self.targets if t.key == key]
        if exact:
            return _decide(exact, "exact", 100.0)
        contained = [t for t in self.targets if _contains(key, t.key)]
        if contained:
            scored = [(fuzz.ratio(key, t.key), t) for t in contained]
            return _best(scored, "contains", options.ambiguity_margin, fixed_score=100.0)
        if not fuzzy:
            return Match(reason="unmatched")
        found = process.extract(
            key, self.keys, scorer=fuzz.ratio, score_cutoff=options.fuzzy_threshold, limit=None
        )
        scored = [(score, self.targets[position]) for _, score, position in found]
        if not scored:
            return Match(reason="unmatched")
        return _best(scored, "fuzzy", options.ambiguity_margin)


def _contains(reference_key: str, heading: str) -> bool:
    if len(reference_key) >= MIN_CONTAINED_CHARS and reference_key in heading:
        return True
    return heading in reference_key and len(heading) >= MIN_CONTAINED_SHARE * len(reference_key)


def _decide(targets: list[Target], rule: MatchRule, score: float) -> Match:
    """One section among ``targets`` wins; several distinct sections are ambiguous."""
    sections = list(dict.fromkeys(t.target_id for t in targets))
    if len(sections) > 1:
        return Match(reason="ambiguous", candidates=sorted({t.heading for t in targets}))
    return _accept(targets[0], rule, score)


def _best(
    scored: list[tuple[float, Target]],
    rule: MatchRule,
    margin: float,
    fixed_score: float | None = None,
) -> Match:
    """The best-scoring section, unless another section scores within ``margin`` of it."""
    best_per_section: dict[str, tuple[float, Target]] = {}
    for score, target in scored:
        held = best_per_section.get(target.target_id)
        if held is None or score > held[0]:
            best_per_section[target.target_id] = (score, target)
    ranked = sorted(best_per_section.values(), key=lambda st: (-st[0], st[1].target_id))
    top_score, top = ranked[0]
    rivals = [t for s, t in ranked[1:] if top_score - s < margin]
    if rivals:
        return Match(
            reason="ambiguous", candidates=sorted({top.heading, *(t.heading for t in rivals)})
        )
    return _accept(top, rule, fixed_score if fixed_score is not None else round(top_score, 2))


def _accept(target: Target, rule: MatchRule, score: float) -> Match:
    if target.excluded:
        return Match(reason="unmatched", candidates=[f"{EXCLUDED_MARK}{target.heading}"])
    return Match(section_ids=[target.target_id], rule=rule, score=score)


def _combine(matches: list[Match]) -> Match:
    """Union of the parts' sections; the weakest rule and the lowest score speak for the whole."""
    section_ids = list(dict.fromkeys(sid for m in matches for sid in m.section_ids))
    rule = max((m.rule for m in matches if m.rule), key=RULE_ORDER.index)
    return Match(section_ids=section_ids, rule=rule, score=min(m.score for m in matches))


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
