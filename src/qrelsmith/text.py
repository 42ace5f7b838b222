"""Text normalisation shared by the stages: whitespace folding and the comparison forms.

Every comparison of text starts from ``fold_case`` (NFKC, so full-width letters and digits
meet their ASCII forms, then case folding); ``comparable`` also drops Latin accents,
``squashed`` all white space, ``alphanumeric`` white space and punctuation, ``heading_key``
numbering, brackets and edge punctuation. No stage normalises text on its own.

And Okapi BM25, written once for the two stages that score text with it: Lucene's idf
(``bm25_idf``), each document's saturation point (``bm25_norm``) and a term's score
(``bm25_weight``). They take numbers or numpy arrays alike: the matcher's content evidence
(``labelling.content.SectionText``) scores one article's sections one term at a time, the baseline
retriever (``evaluate.baseline``) a whole corpus as arrays, with the same operations in the
same order (only the logarithm differs by kind: ``math.log1p`` for a number, ``numpy.log1p``
for an array; numpy is not imported here, a build never loads it).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from . import patterns

#: Brackets removed before comparing a reference with a heading.
BRACKETS = "()（）[]［］{}｛｝「」『』【】〈〉《》<>＜＞\"'“”‘’"

#: Light stemming of Latin words (text.stem): a word is compared by its first letters, so
#: "filtros de acciones" meets "Filtros de acción" and "registrar" meets "registro".
STEM_PREFIX = 5

#: Words that name no section on their own ("how to", "方法", "手順", "場合", "사용", "방법"):
#: they weigh little in the similarity. Latin words are compared by their stems (text.stem);
#: CJK and Hangul ones are bigrams, as the units are. Kana bigrams are light already; the
#: Korean particles and endings that stand as a unit of their own ("에서" of "firewalld에서",
#: "으로") are as light: a held-out page's "firewalld에서 규칙 지우기" took the sub-heading
#: "firewalld에서" by its particle, over "firewalld 규칙 삭제" (dev set unchanged).
GENERIC_UNITS: frozenset[str] = frozenset(
    [
        "how", "use", "using", "usar", "uso", "about", "overview", "introduction", "example",
        "examples", "ejemplo", "informacion", "general",
        "方法", "手順", "場合", "使用", "概要", "設定",
        "사용", "방법", "개요", "설정", "하기", "하는",
        "에서", "으로", "에게", "까지", "부터", "하고", "하여", "해서", "하다", "한다",
    ]
)  # fmt: skip

_SPACE = re.compile(r"\s+")
#: Leading section numbers ("3.", "3.2", "第3章", "(3)", "Step 3:") are not part of a heading's
#: name: references rarely repeat them.
#: A bare number is no numbering: "404 Not Found", "2024 年の変更" keep it.
_NUMBERING = re.compile(
    r"^(?:第\d+[章節]?|\d+(?:[.\-]\d+)+[.:)、]?|\d+[.:)、．]|\(\d+\)|step\s*\d+[.:]?)\s*"
)
_BRACKETS = re.compile("[" + re.escape(BRACKETS) + "]")
_PUNCTUATION_EDGES = re.compile(r"^[\s:：、。,.・\-–—]+|[\s:：、。,.・\-–—?？!！]+$")


_ODD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_ODD_TABLE = {code: None for code in (0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD)} | {
    code: " " for code in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F)
}


def fold_space(text: str) -> str:
    """Collapse runs of white space to one space, drop invisible and control characters."""
    folded = " ".join(text.split())
    # The common case in one C pass: no control (Cc) or format (Cf) character is left, so none
    # of ``_ODD`` was there but white-space ones (U+000B, U+000C, U+001C-U+001F), which the
    # split has folded as the rewrite would have. Half the cost of the ``_ODD`` search.
    if folded.isprintable():
        return folded
    if _ODD.search(text):  # rare: a search that finds nothing costs far less than a rewrite
        return " ".join(text.translate(_ODD_TABLE).split())
    return folded


def text_of(element: Any) -> str:
    """An element's text content with white space folded (lxml elements)."""
    return fold_space("".join(element.itertext()))


def fold_case(text: str) -> str:
    """NFKC and case folding: the first step of every comparison ("ＡＢＣ", "abc" -> "abc")."""
    return unicodedata.normalize("NFKC", text).casefold()


def folded_words(text: str) -> str:
    """``fold_case`` with white space folded: how a reviewer's or a header's words compare."""
    return fold_space(fold_case(text))


def squashed(text: str) -> str:
    """``fold_case`` without any white space: text compared character by character."""
    return "".join(fold_case(text).split())


_NOT_ALPHANUMERIC = re.compile(r"[\W_]+")


def alphanumeric(text: str) -> str:
    """``fold_case`` with only letters and digits: "RDP の番号？" equals "RDPの番号"."""
    return _NOT_ALPHANUMERIC.sub("", fold_case(text))


def strip_numbering(text: str) -> str:
    """``text`` without a leading section number."""
    return _NUMBERING.sub("", text.strip())


@lru_cache(maxsize=8192)
def heading_key(text: str) -> str:
    """Comparison key of a heading or reference: NFKC (width), case, numbering, brackets, spaces.

    Remembered: a reference's key is asked for again by each rule it passes through (12,596
    calls for 4,219 texts on the benchmark crawl)."""
    key = strip_numbering(fold_case(text))
    key = _BRACKETS.sub("", key)
    key = _PUNCTUATION_EDGES.sub("", key)
    return _SPACE.sub("", key)


# --------------------------------------------------------------------------- comparison units

_HIRAGANA = re.compile(r"[\u3040-\u309f]")
#: One run of a key: a Latin word, or a run of CJK or of Hangul characters.
_RUN = re.compile(
    r"(?P<word>\d+(?:\.\d+)+|~?[0-9a-zA-Z]+(?:_[0-9a-zA-Z]+)*[#+]*)"
    r"|(?P<cjk>[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaffー々〆]+)"
    r"|(?P<hangul>[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]+)"
)


def fold_accents(text: str) -> str:
    """Latin letters without their diacritics ("configuración" -> "configuracion").

    Only Latin letters are folded: kana keep their (han)dakuten ("パ" is not "ハ").
    """
    if text.isascii():
        return text
    return "".join(_fold_latin(ch) if "\u00c0" <= ch <= "\u024f" else ch for ch in text)


def _fold_latin(char: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))


def comparable(text: str) -> str:
    """NFKC, case-folded, accent-folded text, white space kept: what tokens are read from."""
    return fold_accents(fold_case(text))


def runs(text: str) -> list[tuple[str, str, str]]:
    """(kind, run, as written) in order: kind is "word" (Latin/digits), "cjk" or "hangul"; the
    run is case-folded, "as written" keeps the capitals that mark an identifier."""
    written = fold_accents(unicodedata.normalize("NFKC", text))
    if "~ " in written:  # a destructor spaced by translation: "CAtlArray:: ~ CAtlArray"
        written = written.replace("~ ", "~")
    return [
        (m.lastgroup or "word", m.group().casefold(), m.group()) for m in _RUN.finditer(written)
    ]


def tokens(text: str) -> tuple[str, ...]:
    """Words and single CJK/Hangul characters, in order: the units of containment.

    Containment on tokens keeps word boundaries ("here" is not in "there", "size" not in
    "max_size") while CJK, which has no spaces, compares character by character.
    """
    out: list[str] = []
    for kind, run, _ in runs(text):
        if kind == "word":
            out.append(run)
        else:
            out.extend(run)
    return tuple(out)


_IDENTIFIER = re.compile(r"[a-z][A-Z]|[_0-9#+~]")


def stem(word: str, original: str = "") -> str:
    """A light stem of a Latin word: its first ``STEM_PREFIX`` letters.

    Truncation joins the forms of a word across Spanish and English ("registrar" /
    "registro", "configure" / "configuration"). Identifiers ("GetImageIndex", "max_size",
    "v4tov6") are kept whole: ``original`` is the word as written, whose inner capitals say so.
    """
    if len(word) <= STEM_PREFIX or not word.isalpha() or _IDENTIFIER.search(original):
        return word
    return word[:STEM_PREFIX]


def units(text: str) -> list[str]:
    """The weighted comparison units of a text, in order, duplicates kept.

    Latin words (stop words dropped, light stems), CJK runs as character bigrams, Hangul runs as
    bigrams too (a run of one character is its own unit). Spelling and spacing variants
    ("ListObjectコントロール" / "ListObject コントロール") give the same units.
    """
    out: list[str] = []
    found = runs(text)
    for number, (kind, run, written) in enumerate(found):
        if kind == "word":
            if run not in patterns.MATCH_STOPWORDS:
                out.append(stem(run, written))
            if len(run) == 1 and number + 1 < len(found) and found[number + 1][0] == "word":
                # machine translation splits an identifier after its first letter
                # ("Sid::D ialup", "CStockPropImpl::p ut_Font"): the joined word is a unit too
                out.append(stem(run + found[number + 1][1], written + found[number + 1][2]))
        elif len(run) == 1:
            out.append(run)
        else:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out


def holds_unit(folded: str, unit: str) -> bool:
    """A folded text (``comparable``) holds a unit: a Latin unit (a word's stem, an
    identifier) at a word's start ("progr" in "programs"), a bigram anywhere."""
    if unit not in folded:
        return False
    return not unit.isascii() or re.search(r"(?<![0-9a-z])" + re.escape(unit), folded) is not None


_GENERIC = frozenset(stem(word) for word in GENERIC_UNITS)


def is_light_unit(unit: str) -> bool:
    """A unit carrying little meaning: a bigram with hiragana in it (particles, okurigana,
    the seam between a particle and the next word: "の原", "を使") or a generic word."""
    return unit in _GENERIC or bool(_HIRAGANA.search(unit))


def bm25_idf(documents: Any, df: Any, log1p: Callable[[Any], Any] = math.log1p) -> Any:
    """Lucene's idf, ln(1 + (N - df + 0.5) / (df + 0.5)), of terms found in ``df`` of
    ``documents`` documents (always > 0); pass ``numpy.log1p`` for arrays."""
    return log1p((documents - df + 0.5) / (df + 0.5))


def bm25_norm(lengths: Any, average: float, k1: float, b: float) -> Any:
    """k1 x (1 - b + b x length / average): the saturation point of each document's tf."""
    return k1 * (1.0 - b + b * lengths / average)


def bm25_weight(idf: Any, tf: Any, norm: Any, k1: float) -> Any:
    """A term's BM25 score in a document: its ``idf`` (times any weight of the term) x its
    frequency ``tf`` saturated against the document's ``bm25_norm``."""
    return idf * tf * (k1 + 1.0) / (tf + norm)
