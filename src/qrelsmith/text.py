"""Text normalisation shared by the stages: whitespace folding and the comparison key."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from . import patterns

_SPACE = re.compile(r"\s+")
#: Leading section numbers ("3.", "3.2", "第3章", "(3)", "Step 3:") are not part of a heading's
#: name: references rarely repeat them.
_NUMBERING = re.compile(r"^(?:第?\d+(?:[.\-]\d+)*[.:)、章節]?|\(\d+\)|step\s*\d+[.:]?)\s*")
_BRACKETS = re.compile("[" + re.escape(patterns.BRACKETS) + "]")
_PUNCTUATION_EDGES = re.compile(r"^[\s:：、。,.・\-–—]+|[\s:：、。,.・\-–—?？!！]+$")


_ODD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_ODD_TABLE = {code: None for code in (0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD)} | {
    code: " " for code in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F)
}


def fold_space(text: str) -> str:
    """Collapse runs of white space to one space, drop invisible and control characters."""
    if _ODD.search(text):  # rare: a search that finds nothing costs far less than a rewrite
        text = text.translate(_ODD_TABLE)
    return " ".join(text.split())


def text_of(element: Any) -> str:
    """An element's text content with white space folded (lxml elements)."""
    return fold_space("".join(element.itertext()))


def strip_numbering(text: str) -> str:
    """``text`` without a leading section number."""
    return _NUMBERING.sub("", text.strip())


def heading_key(text: str) -> str:
    """Comparison key of a heading or reference: NFKC (width), case, numbering, brackets, spaces."""
    key = unicodedata.normalize("NFKC", text).casefold()
    key = strip_numbering(key)
    key = _BRACKETS.sub("", key)
    key = _PUNCTUATION_EDGES.sub("", key)
    return _SPACE.sub("", key)
