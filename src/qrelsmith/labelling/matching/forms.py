"""What a heading or a reference is compared as (``Form``), and one indexed heading (``Target``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from ... import patterns
from ...text import comparable, heading_key, runs, stem, tokens, units

#: Prefixes that are not part of a heading's name: "Step 2:", "手順 2:", "例:", "Example:".
#: Matching without them still counts as exact (confidence MATCH_CONFIDENCE["exact_stripped"]).
NAME_PREFIX = re.compile(
    r"^(?:(?:step|paso|手順|ステップ|단계)\s*\d+|example|ejemplo|例|예|note|nota|注意|참고)"
    r"\s*[:：.．)]\s*",
    re.IGNORECASE,
)

#: The positions of the fixed rows before and after a table row (None: no fixed row that
#: side): where the page's order says the row's heading lies (order.py).
Bracket = tuple[int | None, int | None]


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

    def within(self, low: int | None, high: int | None) -> bool:
        """The heading lies between two positions of the page (None: no bound that side)."""
        return (low is None or low <= self.position) and (high is None or self.position <= high)


#: Endings and particles a Korean word carries after its stem ("삭제합니다", "서비스를"): set
#: aside to read the word a reference and a heading name (``Form.content_words``), longest
#: first, one per word and only where two letters of stem are left. Chosen as the common
#: particles and the verb endings of reference cells and headings ("…하기", "…합니다").
HANGUL_ENDINGS = (
    "합니다", "하세요", "하려면", "하는", "하기", "하다", "한다", "하고", "하여", "해서",
    "에서", "으로", "에게", "까지", "부터", "을", "를", "은", "는", "이", "가", "의", "에",
    "로", "와", "과", "도", "만",
)  # fmt: skip
#: The words of a Japanese run: a run of kanji (a Sino-Japanese compound: "削除", "更新") or
#: of katakana ("サービス"); hiragana (particles, okurigana) parts them.
_JAPANESE_WORD = re.compile(
    r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆]{2,}|[\u30a0-\u30ffー]{2,}"
)


_DIGITS = re.compile(r"\d+")
_IDENTIFIER = re.compile(r"[a-z][A-Z]|[_0-9]")
_LETTER = re.compile(r"[a-z]")
#: A token holding a Latin letter or digit and a symbol inside or at its edges: "#VALUE!",
#: "#N/A", "C#", ".NET", "Node.js" (CJK runs stop it: "#N/Aエラー" is "#N/A"). A hyphen is no
#: such symbol: "rate-limit" is two words.
_SYMBOL_TOKEN = re.compile(
    r"[#!/$%@&*+=?.:]*[0-9A-Za-z]+(?:[#!/$%@&*+=?.:]+[0-9A-Za-z]*)+|[#!$%@&*+=?.][0-9A-Za-z]+"
)


class Form:
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
        if NAME_PREFIX.match(plain) or any(o in plain for o in _OPENINGS):
            return "".join(tokens(stripped_text(plain)))
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
    def words(self) -> frozenset[str]:
        """The Latin words as units (stop words and the joins of split identifiers aside): what
        may be a rare word. CJK and Hangul bigrams are no words, and their particles are not
        told apart from content ("형을")."""
        return frozenset(
            stem(run, written)
            for kind, run, written in runs(self.text)
            if kind == "word" and run not in patterns.MATCH_STOPWORDS
        )

    @cached_property
    def marked(self) -> frozenset[str]:
        """The units that name an item by their form: identifiers, words with digits, and the
        words of a token written with a symbol ("#VALUE!", "#N/A", "X-RateLimit-Reset")."""
        found = set(self.identifiers)
        found.update(unit for unit in self.units if any(ch.isdigit() for ch in unit))
        for token in _SYMBOL_TOKEN.findall(self.text):
            found.update(units(" ".join(run for kind, run, _ in runs(token) if kind == "word")))
        return frozenset(found & self.units)

    @cached_property
    def content_words(self) -> tuple[tuple[str, frozenset[str]], ...]:
        """The words of the text in order, each with its units: Latin words, and the CJK and
        Hangul words that may name an item (runs of two kanji or more, of katakana, Hangul
        words without their ending: ``HANGUL_ENDINGS``). Kana particles and single kanji are
        none. What ``HeadingIndex.names_item`` aligns a reference and a heading by."""
        found: list[tuple[str, frozenset[str]]] = []
        for kind, run, _ in runs(self.text):
            if kind == "word":
                words = [run] if run not in patterns.MATCH_STOPWORDS else []
            elif kind == "hangul":
                ending = next((e for e in HANGUL_ENDINGS if run.endswith(e)), "")
                stem_ = run[: len(run) - len(ending)] if len(run) - len(ending) >= 2 else run
                words = [stem_] if len(stem_) >= 2 else []
            else:
                words = _JAPANESE_WORD.findall(run)
            found.extend((word, frozenset(units(word))) for word in words)
        return tuple(found)

    @cached_property
    def digits(self) -> tuple[str, ...]:
        """The runs of digits, in order: spacing and identifiers split by machine translation
        ("Sid::P reW2KAccess") keep them."""
        return tuple(_DIGITS.findall(self.joined))


#: Brackets whose content ``stripped`` drops (after NFKC, which makes "（" a "(").
_BRACKET_PAIRS = (
    ("(", ")"), ("[", "]"), ("<", ">"), ("「", "」"), ("（", "）"), ("［", "］"), ("＜", "＞"),
)  # fmt: skip
_OPENINGS = tuple(pair[0] for pair in _BRACKET_PAIRS)


def bracketed(plain: str) -> list[str]:
    """What ``stripped_text`` drops as bracketed parts of ``plain``: their contents, in order."""
    found: list[str] = []
    without = NAME_PREFIX.sub("", plain)
    for opening, closing in _BRACKET_PAIRS:
        while opening in without and closing in without.split(opening, 1)[1]:
            head, rest = without.split(opening, 1)
            inside, tail = rest.split(closing, 1)
            found.append(inside)
            without = head + " " + tail
    return found


def stripped_text(plain: str) -> str:
    """``plain`` (comparable text) without bracketed parts and without a name prefix."""
    without = NAME_PREFIX.sub("", plain)
    for opening, closing in _BRACKET_PAIRS:
        while opening in without and closing in without.split(opening, 1)[1]:
            head, rest = without.split(opening, 1)
            without = head + " " + rest.split(closing, 1)[1]
    return without
