"""A row whose own cells say its answer is elsewhere: reason ``elsewhere``, never labelled.

"別記事で解説", "Covered in another article", "JOIN の詳細（別記事）": the row names a topic the
article leaves to another one, and any section it is given here is a guess
(``patterns.ELSEWHERE_PHRASES``). "See …" / "参照" says so only when the row also links to
another page (``patterns.SEE_ELSEWHERE_PHRASES``): "see Installing" alone names a section of
this page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ... import patterns
from ...text import comparable


def _phrases(phrases: Iterable[str]) -> re.Pattern[str]:
    """One pattern for the phrases, folded as the cells are; Latin ones on word boundaries
    ("ver" is not in "server", "see" not in "seed")."""
    parts = []
    for phrase in phrases:
        folded = re.escape(comparable(phrase))
        latin = re.search("[a-z]", comparable(phrase)) is not None
        parts.append(rf"(?<![a-z0-9]){folded}(?![a-z0-9])" if latin else folded)
    return re.compile("|".join(parts))


_ELSEWHERE = _phrases(patterns.ELSEWHERE_PHRASES)
_SEE = _phrases(patterns.SEE_ELSEWHERE_PHRASES)


def says_elsewhere(cells: Sequence[str], offsite: bool = False) -> bool:
    """True when the row's cells (reference, query, answer) say its answer is in another
    article or page; ``offsite``: a cell of the row links to another page."""
    text = comparable(" ".join(cells))
    if _ELSEWHERE.search(text):
        return True
    return offsite and _SEE.search(text) is not None
