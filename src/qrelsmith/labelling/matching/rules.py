"""One reference against a ``HeadingIndex``: the rules, tried in order.

``outcome`` is the cascade for a reference cell: ``anchor`` (a link into a section) first,
then the reference's parts (strong separators, then weak ones, then a bracketed remark set
aside), each part through ``RULES`` in order (``exact``, ``vague``, ``exact_stripped``,
``too_short``, ``contains``) and, unless the caller asks for strict evidence only, ``fuzzy``.
A rule returns an ``Outcome`` when it decides, None to pass the reference on; each can be
called alone with an index and a ``Form``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ... import patterns
from ...config import BuildOptions
from ...models import RULE_ORDER, Match, MatchRule
from ...text import comparable, heading_key, is_light_unit, units
from .elsewhere import SEE_PATTERN, phrase_pattern
from .forms import LABEL_KIND, LABEL_WORDS, Form, Target, bracketed, stripped_text

if TYPE_CHECKING:
    from .index import HeadingIndex

#: A reference that starts with a particle or a list comma is a fragment of a sentence
#: ("を使用", "、パラメーター"): it may only match a heading exactly.
FRAGMENT_START = re.compile(r"^(?:[、，,・]|[をがにでへとやもはの](?![\u3040-\u309f]))")

#: Of those, the weak ones: a comma joins the words of one name as often as two names
#: ("Cliente, servidor, bidireccional" names one section, the streaming one). A reference is
#: split at a weak separator only when every part is then exactly a heading; otherwise the
#: whole reference is matched as one. Strong separators ("／", " / " ...) split as before.
WEAK_SEPARATORS: frozenset[str] = frozenset({"、", "，", ", "})

#: A heading contained in a longer reference counts only when it is at least this share of the
#: reference's characters: short headings ("概要", "Setup") are contained in many references.
MIN_CONTAINED_SHARE = 0.5

#: A reference contained in a heading needs at least this many characters (after
#: normalisation): one or two characters are contained everywhere.
MIN_CONTAINED_CHARS = 2

#: A fuzzy candidate must also hold at least this share of the reference's weight: a
#: reference that shares only its generic words with a heading is not a match.
MIN_RECALL = 0.5

#: Link text that names no section: never matched to one, whatever heading it resembles.
VAGUE_REFERENCES: frozenset[str] = frozenset(
    [
        "here", "click here", "this section", "this article", "this page", "learn more",
        "read more", "more", "more info", "details", "see", "see below", "link", "below", "above",
        "aquí", "aqui", "aquí.", "esta sección", "este artículo", "más información", "ver",
        "ver más", "detalles", "enlace",
        "こちら", "ここ", "詳細", "参照", "詳しくはこちら", "こちらを参照", "リンク", "この節",
        "このセクション", "下記", "以下",
        "여기", "이곳", "자세히", "자세한 내용", "참조", "참조하십시오", "참조하세요", "링크",
        "이 섹션",
    ]
)  # fmt: skip

#: Prefix marking a candidate that is an excluded section (FAQ, summary ...): a reference that
#: lands there has no corpus target and is rejected rather than sent to a neighbour.
EXCLUDED_MARK = "excluded:"

#: Flags a match can carry into golden.jsonl.
PARTIAL_FLAG = "partial-reference"
DUPLICATE_FLAG = "duplicate-heading"
REPEATED_FLAG = "repeated-subheading"


@dataclass(slots=True)
class Outcome:
    """A match and the candidates behind it, for the table's alignment."""

    match: Match
    target: Target | None = None
    tied: list[Target] = field(default_factory=list)
    weak: list[tuple[float, Target]] = field(default_factory=list)
    #: every section's best similarity, best first (fuzzy stage only): what "clearly ahead"
    #: is measured against
    ranked: list[tuple[float, Target]] = field(default_factory=list)


# --------------------------------------------------------------------- a reference cell


def outcome(
    index: HeadingIndex,
    reference: str,
    anchors: Sequence[str],
    options: BuildOptions,
    fuzzy: bool = True,
) -> Outcome:
    """A reference cell (its text and the #ids it links to) matched: the anchor rule, then
    the text whole or, when it names several sections ("A／B"), its parts."""
    linked = by_anchor(index, anchors)
    if linked:
        target = next((t for t in index.targets if t.target_id == linked[0]), None)
        return Outcome(Match(section_ids=linked, rule="anchor", confidence=1.0), target=target)
    if not heading_key(reference):  # "4.1": a bare number has no key, but names a section
        empty = Outcome(Match(reason="empty"))
        return by_number(index, reference, options, fuzzy, empty) or empty
    strong = [s for s in options.reference_separators if s not in WEAK_SEPARATORS]
    weak = [s for s in options.reference_separators if s in WEAK_SEPARATORS]
    whole = _match_listed(index, reference, weak, options, fuzzy)
    if whole.match.rule == "exact":
        return whole
    numbered = by_number(index, reference, options, fuzzy, whole)
    if numbered is not None:
        return numbered
    if not whole.match.section_ids and whole.match.reason in ("unmatched", "ambiguous"):
        under = repeated_under(index, reference, options, fuzzy)
        if under is not None:
            return under
    parts = split_reference(reference, strong)
    if len(parts) < 2:
        return whole
    outcomes = [_match_listed(index, part, weak, options, fuzzy) for part in parts]
    matched = [o.match for o in outcomes if o.match.section_ids]
    if len(matched) == len(outcomes):
        return Outcome(combine(matched))
    if whole.match.rule == "contains":
        return whole
    failed = [o.match for o in outcomes if not o.match.section_ids]
    if matched and all(m.reason == "unmatched" and not m.candidates for m in failed):
        return Outcome(combine(matched, flags=[PARTIAL_FLAG]))
    return whole if whole.match.section_ids else Outcome(failed[0])


#: The words that call a section a section, at a reference's edges.
_SECTION_NOUNS_BEFORE = re.compile(patterns.SECTION_NOUNS_BEFORE)
_SECTION_NOUNS_AFTER = re.compile(patterns.SECTION_NOUNS_AFTER)

#: A section-number mention in a reference (``patterns.SECTION_NUMBER_MENTIONS``).
_NUMBER_MENTION = re.compile("|".join(patterns.SECTION_NUMBER_MENTIONS))
_NUMBER_COUNT = re.compile("|".join(patterns.SECTION_NUMBER_COUNTS))
_NUMBER_LEADING = re.compile(patterns.SECTION_NUMBER_LEADING)
_NUMBER_LABELLED = re.compile(rf"(?<![a-z])({LABEL_WORDS})\s*(\d+(?:[.-]\d+)*)")


def _leading(folded: str) -> list[re.Match[str]]:
    """A number the reference opens with ("4. カスタム例外"), as a mention."""
    found = _NUMBER_LEADING.match(folded)
    return [] if found is None else [found]


#: ... and the words around it that only point (``patterns.NUMBER_POINTER_WORDS``).
_POINTER = phrase_pattern(patterns.NUMBER_POINTER_WORDS)


def by_number(
    index: HeadingIndex, reference: str, options: BuildOptions, fuzzy: bool, whole: Outcome
) -> Outcome | None:
    """Rule ``number``: a reference that names a section by its number ("7章", "§4",
    "Section 2.2", "第7章（常駐化）", "4.1", "6장", "7번"), once. On a page whose headings carry
    numbers, the one heading with that number decides, unless the rest of the reference
    names another section (then the row is a tie between the two). A Korean form that is as
    often a count ("6장", "7번": ``patterns.SECTION_NUMBER_COUNTS``) decides only when the
    rest only points ("자세한 내용은", "참고": ``patterns.NUMBER_POINTER_WORDS``) or names that
    section too ("4장의 개요": one of its "개요"); "사진 1장" decides nothing. A number no
    heading carries decides nothing. On a page whose headings carry none, the mention is set
    aside and the rest is matched alone ("8章 IFERROR" → "IFERROR・IFNA でエラー表示を抑え
    る"). None when the reference mentions no number or ``whole`` (the reference matched as
    text) stands."""
    if not any(character.isdigit() for character in reference):
        return None  # most references: no number to read
    folded = comparable(reference)
    strong = list(_NUMBER_MENTION.finditer(folded))
    counts = [
        m
        for m in _NUMBER_COUNT.finditer(folded)
        if not any(m.start() < s.end() and s.start() < m.end() for s in strong)
    ]
    labelled = list(_NUMBER_LABELLED.finditer(folded))
    leading = [] if strong or counts or labelled or whole.match.section_ids else _leading(folded)
    if len(strong) + len(counts) + len(labelled) + len(leading) != 1:
        return None
    mention = (strong or counts or labelled or leading)[0]
    groups = [group for group in mention.groups() if group is not None]
    kind = LABEL_KIND[groups[0]] if labelled else ""
    number = groups[-1].replace("-", ".")
    rest = (folded[: mention.start()] + " " + folded[mention.end() :]).strip()
    rest = FRAGMENT_START.sub("", rest).strip()  # "4 章の概要": the particle joined the two
    pointer_free = _POINTER.sub(" ", SEE_PATTERN.sub(" ", rest))
    named = match_part(index, rest, options, fuzzy) if heading_key(pointer_free) else None
    if not index.numbered:  # no heading carries a number: the rest alone decides
        if whole.match.section_ids or named is None or not named.match.section_ids:
            return None
        return named
    positions = index.numbered.get((kind, number), [])
    if not positions and not kind:  # "4章" for "ケース4: …"
        positions = [p for (_, n), found in index.numbered.items() if n == number for p in found]
    sections = {index.targets[p].target_id for p in positions}
    if len(sections) != 1:
        return None
    (section_id,) = sections
    target = index.targets[positions[0]]
    for other in (whole, named):
        if other is not None and other.match.section_ids not in ([], [section_id]):
            tied = sorted({target.heading, *(t.heading for t in _targets(index, other))})
            return Outcome(Match(reason="ambiguous", candidates=tied))
    if whole.match.section_ids:
        return whole
    if (
        counts
        and named is not None
        and named.match.section_ids != [section_id]
        and not any(t.target_id == section_id for t in named.tied)
    ):
        return None  # "사진 1장": the rest names nothing of that section, a count
    confidence = patterns.MATCH_CONFIDENCE["number"]
    return Outcome(accept(target, "number", confidence, []), target=target)


def _targets(index: HeadingIndex, decided: Outcome) -> list[Target]:
    """The H2 targets of a decided outcome's sections."""
    found = [index.section_target(s) for s in decided.match.section_ids]
    return [t for t in found if t is not None]


def repeated_under(
    index: HeadingIndex, reference: str, options: BuildOptions, fuzzy: bool
) -> Outcome | None:
    """A reference that names a heading the page repeats under several sections together
    with the section it means ("CrashLoopBackOff の対処法", "Pending：考えられる原因" on a
    troubleshooting page whose cases each hold "概要", "考えられる原因" and "対処法"): the
    rest of the reference is matched alone, and decides when it names one of the sections
    that hold the repeated heading. Rest naming another section, or none: None (the row
    stays open)."""
    key_of_reference = heading_key(reference)
    text = unicodedata.normalize("NFKC", reference)
    decided: dict[str, Outcome] = {}
    for key, positions, holders in index.repeated:
        if key not in key_of_reference:
            continue
        words = unicodedata.normalize("NFKC", index.targets[positions[0]].heading).split()
        rest = re.sub(r"\s*".join(map(re.escape, words)), " ", text, flags=re.IGNORECASE)
        if rest == text:
            continue
        rest = _inner(rest)  # "Likely causes of a 502": the words that joined the two
        if not heading_key(rest):
            continue
        named = match_part(index, rest, options, fuzzy)
        if len(named.match.section_ids) != 1 or named.match.section_ids[0] not in holders:
            return None  # the rest names another section, several or none
        decided[named.match.section_ids[0]] = named
    if len(decided) != 1:
        return None
    (named,) = decided.values()
    match = named.match
    # the reference holds the section's heading and more: at most ``contains``, never exact
    rule: MatchRule = "contains" if match.rule == "exact" else match.rule or "fuzzy"
    confidence = min(match.confidence or 0.0, patterns.MATCH_CONFIDENCE["contains_max"])
    flags = list(dict.fromkeys([*match.flags, REPEATED_FLAG]))
    return Outcome(
        Match(section_ids=match.section_ids, rule=rule, confidence=confidence, flags=flags),
        target=named.target,
    )


def _inner(text: str) -> str:
    """``text`` without the function words and punctuation at its edges ("of a 502" → "502")."""
    words = text.split()
    while words and words[0].strip(":：,、-→>") in _JOINING:
        words.pop(0)
    while words and words[-1].strip(":：,、-→>") in _JOINING:
        words.pop()
    return " ".join(words)


#: What ``_inner`` sets aside at a text's edges: function words, and punctuation alone.
_JOINING = frozenset({"", *patterns.MATCH_STOPWORDS})


def by_anchor(index: HeadingIndex, anchors: Sequence[str]) -> list[str]:
    """Rule ``anchor``: the sections the cell's in-page links land in; none when one link is
    broken (the cell's text decides then)."""
    found: list[str] = []
    for anchor in anchors:
        section_id = index.anchors.get(anchor)
        if section_id is None:
            return []  # a broken link: fall back to the text of the cell
        if section_id not in found:
            found.append(section_id)
    return found


def _match_listed(
    index: HeadingIndex, text: str, weak: Sequence[str], options: BuildOptions, fuzzy: bool
) -> Outcome:
    """``text`` as one reference, unless a weak separator splits it into parts that are
    each exactly a heading (``WEAK_SEPARATORS``)."""
    whole = match_part(index, text, options, fuzzy)
    if whole.match.rule == "exact":
        return whole
    if not whole.match.section_ids and whole.match.reason in ("unmatched", "ambiguous"):
        # a bracketed remark ("IIS (IIS、FTP などを選択します)") names no section (tried when
        # nothing matched), nor do the words that call a section a section ("sección de
        # cobertura", "errors.As の章": tried on a tie too, which "の章" may have made)
        folded = comparable(text).strip()
        noun_free = _SECTION_NOUNS_AFTER.sub("", _SECTION_NOUNS_BEFORE.sub("", folded)).strip()
        shorter_forms = [(noun_free, folded)]
        if whole.match.reason == "unmatched" and not whole.match.candidates:
            shorter_forms.insert(0, (stripped_text(text).strip(), text.strip()))
        for shorter, before in shorter_forms:
            if shorter != before and heading_key(shorter):
                found = match_part(index, shorter, options, fuzzy)
                if found.match.section_ids:
                    return found
    parts = split_reference(text, weak)
    if len(parts) < 2:
        return whole
    outcomes = [match_part(index, part, options, fuzzy) for part in parts]
    if all(o.match.rule == "exact" for o in outcomes):
        return Outcome(combine([o.match for o in outcomes]))
    return whole


def split_reference(reference: str, separators: Sequence[str]) -> list[str]:
    """The parts of a reference naming several sections; one part when no separator occurs."""
    parts = [reference]
    for separator in separators:
        parts = [piece for part in parts for piece in part.split(separator)]
    return [p.strip() for p in parts if heading_key(p)]


# --------------------------------------------------------------------- one text, rule by rule

Rule = Callable[["HeadingIndex", Form, BuildOptions], "Outcome | None"]


def match_part(
    index: HeadingIndex, text: str, options: BuildOptions, fuzzy: bool = True
) -> Outcome:
    """One text (a reference or one of its parts) through ``RULES``, then ``fuzzy``."""
    reference = Form(text)
    if not reference.key:
        return Outcome(Match(reason="empty"))
    for rule in RULES:
        decided = rule(index, reference, options)
        if decided is not None:
            return decided
    if not fuzzy:
        return Outcome(Match(reason="unmatched"))
    return fuzzy_rule(index, reference, options)


def exact(index: HeadingIndex, reference: Form, options: BuildOptions) -> Outcome | None:
    """Rule ``exact``: a heading equal after normalisation. Before the vague guard: a heading
    may literally be "詳細"."""
    found = index.by_key.get(reference.key)
    if not found:
        return None
    return decide_exact(index, found, "exact", patterns.MATCH_CONFIDENCE["exact"])


def vague(index: HeadingIndex, reference: Form, options: BuildOptions) -> Outcome | None:
    """Vague link text ("here", こちら) names no section: rejected, unless equal to a heading."""
    if " ".join(reference.plain.split()).strip(" .:：。!！") in VAGUE_REFERENCES:
        return Outcome(Match(reason="vague"))
    return None


def exact_stripped(index: HeadingIndex, reference: Form, options: BuildOptions) -> Outcome | None:
    """Rule ``exact`` once brackets, a "Step 2:" prefix and punctuation are set aside. When
    the heading repeats in several sections (a versioned page's "Legacy API (v5)" part), a
    bracket set aside names the one whose headings hold its words ("… (v5)"); a bracket that
    names none of them, or several, leaves the row a tie rather than the first copy."""
    if not reference.stripped:
        return None
    found = sorted(
        {
            *index.by_stripped.get(reference.stripped, ()),
            *index.by_stripped.get(reference.tokens, ()),
        }
    )
    if not found:
        return None
    if len({index.targets[i].target_id for i in found}) > 1:
        aside = frozenset(units(" ".join(bracketed(reference.plain))))
        if aside:  # "モデルの設定（v1）": the bracket may name the part of the page meant
            named = [i for i in found if aside <= _section_units(index, i)]
            if len({index.targets[i].target_id for i in named}) != 1:
                tied = sorted({index.targets[i].heading for i in found})
                return Outcome(Match(reason="ambiguous", candidates=tied))
            found = named
    return decide_exact(index, found, "exact", patterns.MATCH_CONFIDENCE["exact_stripped"])


def _section_units(index: HeadingIndex, position: int) -> frozenset[str]:
    """The units of a heading and of its section's own (H2) heading."""
    own = index.forms[position].units
    top = index.section_target(index.targets[position].target_id)
    return own if top is None else own | frozenset(units(top.heading))


def too_short(index: HeadingIndex, reference: Form, options: BuildOptions) -> Outcome | None:
    """A sentence fragment ("を使用") or a reference too short to stand inside a heading
    matches nothing but an equal heading."""
    fragment = FRAGMENT_START.match(reference.plain)
    if len(reference.key) < MIN_CONTAINED_CHARS or fragment:
        return Outcome(Match(reason="unmatched"))
    return None


def contains(index: HeadingIndex, reference: Form, options: BuildOptions) -> Outcome | None:
    """Rule ``contains``: the reference stands in headings on word boundaries, with the same
    numbers; the most similar of them wins by the margin."""
    key, joined = reference.key, reference.joined
    inside = [  # the substring tests are cheap necessary conditions of the full one
        i
        for i, form in enumerate(index.forms)
        if (key in form.key or joined in form.joined)
        and reference_inside(reference, form)
        and same_numbers(reference, form)
    ]
    if not inside:
        return None
    scored = [(index.similarity(reference, i)[0], i) for i in inside]
    low, high = (
        patterns.MATCH_CONFIDENCE["contains_min"],
        patterns.MATCH_CONFIDENCE["contains_max"],
    )
    return best(index, scored, "contains", options, lambda s: low + (high - low) * s)


#: The rules before ``fuzzy``, in the order they are tried.
RULES: tuple[Rule, ...] = (exact, vague, exact_stripped, too_short, contains)


def fuzzy_rule(index: HeadingIndex, reference: Form, options: BuildOptions) -> Outcome:
    """Rule ``fuzzy``: the word-aware similarity above ``options.fuzzy_threshold``, clearly
    ahead of every heading compared (``best``); a winner that shares only identifiers with
    another section's heading is a tie (``identifier_tie``). Candidates above
    ``patterns.ORDER_THRESHOLD`` are kept as ``weak`` for the table's order and content.
    Siblings in a near-tie are decided by the phrase they differ in (``by_phrase``)."""
    # A heading inside a longer reference competes with the similar headings: the words
    # the reference adds may name another section ("... con implementación rápida
    # deshabilitada" holds the heading "... con implementación rápida").
    scored = []
    rivals = []  # every heading compared, whatever its recall: the margin holds against all
    for i in range(len(index.targets)):
        if not same_numbers(reference, index.forms[i]):
            continue
        score, recall = index.similarity(reference, i)
        rivals.append((score, i))
        if recall >= MIN_RECALL or heading_inside(reference, index.forms[i]):
            scored.append((score, i))
    # a candidate that shares only generic or topic words and differs in the item named
    # ("#VALUE! エラー" / "#N/A エラーの意味") is none, for the order and content either
    scored = [
        (score, i)
        for score, i in scored
        if score < patterns.ORDER_THRESHOLD or index.names_item(reference, i)
    ]
    weak = [(score, index.targets[i]) for score, i in scored if score >= patterns.ORDER_THRESHOLD]
    strong = [(s, i) for s, i in scored if s >= options.fuzzy_threshold]
    if not strong:
        ranked = [(score, index.targets[i]) for score, i in index.ranked(rivals)]
        return Outcome(Match(reason="unmatched"), weak=weak, ranked=ranked)
    top = patterns.MATCH_CONFIDENCE["fuzzy_max"]
    decided = best(index, strong, "fuzzy", options, lambda s: round(min(s, top), 4), rivals)
    if decided.tied:  # a near-tie: siblings are decided by the phrase they differ in
        winner = by_phrase(
            index, reference, [i for i, t in enumerate(index.targets) if t in decided.tied]
        )
        if winner is not None:
            decided = phrase_match(index, reference, winner, top)
    if decided.target is not None:
        decided = identifier_tie(index, reference, decided)
    if decided.target is not None:
        decided = named_elsewhere(index, reference, decided)
    decided.weak = weak
    return decided


def by_phrase(index: HeadingIndex, reference: Form, candidates: Sequence[int]) -> int | None:
    """Sibling headings are decided by the phrase they differ in, or not at all: of the
    ``candidates`` (heading positions, two sections or more), the one whose section alone
    shares with the reference a telling unit (not light, not the page's topic) that no
    other candidate holds, when no other shares one of its own ("VSTO アドイン プロジェクト
    で、実行時に … のサイズを変更する" against "実行時に VSTO アドイン プロジェクトで …" and
    "デザイン時に … コントロールの…", on a page where every section says "コントロール").
    None when no one candidate or several hold such a unit."""
    sections = {index.targets[i].target_id for i in candidates}
    if len(sections) < 2:
        return None
    own: dict[str, set[str]] = {section_id: set() for section_id in sections}
    for i in candidates:
        section_id = index.targets[i].target_id
        others = set().union(
            *(index.forms[j].units for j in candidates if index.targets[j].target_id != section_id)
        )
        own[section_id].update(
            u for u in (reference.units & index.forms[i].units) - others if index.telling(u)
        )
    deciding = [section_id for section_id, held in own.items() if held]
    if len(deciding) != 1:
        return None
    return next(i for i in candidates if index.targets[i].target_id == deciding[0])


def phrase_match(index: HeadingIndex, reference: Form, winner: int, ceiling: float) -> Outcome:
    """The fuzzy match to the sibling ``by_phrase`` chose: its similarity, at most
    ``ceiling`` (the near-tie's winner's confidence)."""
    target = index.targets[winner]
    confidence = round(min(index.similarity(reference, winner)[0], ceiling), 4)
    return Outcome(accept(target, "fuzzy", confidence, []), target=target)


def identifier_tie(index: HeadingIndex, reference: Form, decided: Outcome) -> Outcome:
    """A fuzzy winner that shares nothing with the reference but identifiers another
    section's heading also carries decides nothing: "add v4tov4" is no more "set v4tov4"
    than "v4tov4 を追加します"."""
    chosen = decided.target
    assert chosen is not None
    position = chosen.position
    shared = reference.units & index.forms[position].units
    if not shared or not shared <= reference.identifiers:
        return decided
    others = [
        i
        for i, form in enumerate(index.forms)
        if index.targets[i].target_id != chosen.target_id and shared <= form.units
    ]
    if not others:
        return decided
    tied = sorted([position, *others], key=lambda i: index.targets[i].position)
    return Outcome(
        Match(reason="ambiguous", candidates=sorted({index.targets[i].heading for i in tied})),
        tied=[index.targets[i] for i in tied],
        weak=decided.weak,
    )


def named_elsewhere(index: HeadingIndex, reference: Form, decided: Outcome) -> Outcome:
    """A fuzzy winner is no match when what the reference adds to it names another
    section's heading: a sibling step that differs in one phrase ("…を構成して、標準的な…"
    against "…を構成して、カスタマイズした…" when a heading holds "標準"), or a short heading
    contained in a longer reference whose rest is a later heading's ("Configure logging
    for Docker" against "Configure logging" and "Docker logging drivers"), when that
    heading resembles the reference too (``patterns.ORDER_THRESHOLD``: a bigram a far heading
    shares says nothing). The phrase decides or nothing does: the one of those siblings that
    alone shares a telling unit with the reference (``by_phrase``), else the row stays
    ambiguous, with no tie for the order to settle."""
    chosen = decided.target
    assert chosen is not None
    rest = {
        unit
        for unit in reference.units - index.forms[chosen.position].units
        if not is_light_unit(unit)
    }
    others = [
        i
        for i, form in enumerate(index.forms)
        if index.targets[i].target_id != chosen.target_id
        and rest & form.units
        and index.similarity(reference, i)[0] >= patterns.ORDER_THRESHOLD
    ]
    # the page's topic says nothing of which heading is meant (asked last: it reads the text)
    others = [i for i in others if any(index.telling(u) for u in rest & index.forms[i].units)]
    if not others:
        return decided
    winner = by_phrase(index, reference, [chosen.position, *others])
    if winner is not None:
        return phrase_match(index, reference, winner, decided.match.confidence or 0.0)
    headings = {chosen.heading, *(index.targets[i].heading for i in others)}
    return Outcome(Match(reason="ambiguous", candidates=sorted(headings)))


# --------------------------------------------------------------------- comparisons


def reference_inside(reference: Form, heading: Form) -> bool:
    """The reference stands in the heading, on word boundaries.

    By tokens, or in the space-free key when the words that meet there are cut at
    punctuation: machine-translated pages split identifiers ("CStockPropImpl::p ut_Font").
    """
    if len(reference.key) < MIN_CONTAINED_CHARS:
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


def heading_inside(reference: Form, heading: Form) -> bool:
    """The heading's tokens stand in the reference and make up enough of it."""
    share = sum(map(len, heading.tokens)) / max(1, sum(map(len, reference.tokens)))
    return share >= MIN_CONTAINED_SHARE and _inside(heading.tokens, reference.tokens)


def _inside(needle: tuple[str, ...], haystack: tuple[str, ...]) -> bool:
    size = len(needle)
    if not size or size > len(haystack):
        return False
    return any(haystack[k : k + size] == needle for k in range(len(haystack) - size + 1))


def same_numbers(reference: Form, heading: Form) -> bool:
    """References and headings whose numbers differ ("v4tov4" / "v4tov6", "Exited (0)" /
    "Exited (1)") name different things: one's run of numbers must stand in the other's."""
    if not reference.digits or not heading.digits:
        return True
    return _inside(reference.digits, heading.digits) or _inside(heading.digits, reference.digits)


# --------------------------------------------------------------------- deciding among candidates


def decide_exact(
    index: HeadingIndex, found: list[int], rule: MatchRule, confidence: float
) -> Outcome:
    """One section among the exact candidates wins; an H2 beats an H3 elsewhere."""
    sections = {index.targets[i].target_id for i in found}
    if len(sections) > 1:
        tops = [i for i in found if index.targets[i].top]
        if tops and len({index.targets[i].target_id for i in tops}) < len(sections):
            found = tops
    return settle(index, found, rule, confidence)


def best(
    index: HeadingIndex,
    scored: list[tuple[float, int]],
    rule: MatchRule,
    options: BuildOptions,
    confidence_of: Callable[[float], float],
    rivals: Sequence[tuple[float, int]] = (),
) -> Outcome:
    """The best-scoring section, unless another scores within the margin of it: among the
    candidates, or among ``rivals`` (headings that are no candidate themselves, under the
    threshold or short of recall, still make a near-tie)."""
    ranked = index.ranked(scored)
    top_score, _ = ranked[0]
    close = [i for s, i in ranked if top_score - s < options.ambiguity_margin]
    if rivals:
        taken = {index.targets[i].target_id for i in close}
        close += [
            i
            for s, i in index.ranked(rivals)
            if top_score - s < options.ambiguity_margin and index.targets[i].target_id not in taken
        ]
    return settle(index, close, rule, confidence_of(top_score))


def settle(index: HeadingIndex, found: list[int], rule: MatchRule, confidence: float) -> Outcome:
    """Accept when one section remains; repeated headings (the same H2 name) take the
    first in the page; else ambiguous, with the tied headings for the alignment."""
    found = sorted(found, key=lambda i: index.targets[i].position)
    tied = [index.targets[i] for i in found]
    sections = list(dict.fromkeys(t.target_id for t in tied))
    flags: list[str] = []
    if len(sections) > 1:
        if (
            len({index.section_keys[i] for i in found}) > 1
            or len({index.forms[i].key for i in found}) > 1
        ):
            return Outcome(
                Match(reason="ambiguous", candidates=sorted({t.heading for t in tied})),
                tied=tied,
            )
        flags = [DUPLICATE_FLAG]
    match = accept(tied[0], rule, confidence, flags)
    return Outcome(match, target=tied[0] if match.section_ids else None, tied=tied if flags else [])


def accept(target: Target, rule: MatchRule, confidence: float, flags: list[str]) -> Match:
    """The match to ``target``; a target that is an excluded section rejects the reference."""
    if target.excluded:
        return Match(reason="unmatched", candidates=[f"{EXCLUDED_MARK}{target.heading}"])
    return Match(
        section_ids=[target.target_id], rule=rule, confidence=round(confidence, 4), flags=flags
    )


def combine(matches: list[Match], flags: Sequence[str] = ()) -> Match:
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
