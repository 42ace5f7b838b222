"""Text normalisation shared by the stages: whitespace folding and the comparison key."""

from __future__ import annotations

import re
import unicodedata

from . import patterns

_SPACE = re.compile(r"\s+")
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: Leading section numbers ("3.", "3.2", "第3章", "(3)", "Step 3:") are not part of a heading's
#: name: references rarely repeat them.
_NUMBERING = re.compile(r"^(?:第?\d+(?:[.\-]\d+)*[.:)、章節]?|\(\d+\)|step\s*\d+[.:]?)\s*")
_BRACKETS = re.compile("[" + re.escape(patterns.BRACKETS) + "]")
_PUNCTUATION_EDGES = re.compile(r"^[\s:：、。,.・\-–—]+|[\s:：、。,.・\-–—?？!！]+$")


def fold_space(text: str) -> str:
    """Collapse runs of white space to one space, drop invisible and control characters."""
    text = _CONTROL.sub(" ", _INVISIBLE.sub("", text))
    return _SPACE.sub(" ", text).strip()


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
