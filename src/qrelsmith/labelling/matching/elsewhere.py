"""A row whose own cells say its answer is elsewhere: reason ``elsewhere``, never labelled.

"別記事で解説", "Covered in another article", "JOIN の詳細（別記事）": the row names a topic the
article leaves to another one, and any section it is given here is a guess
(``ELSEWHERE_PHRASES``). "See …" / "参照" says so only when the row also links to
another page (``SEE_ELSEWHERE_PHRASES``): "see Installing" alone names a section of
this page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ...text import comparable

#: A row whose own cells say its answer is in another article or on another page is never
#: labelled in this one (reason ``elsewhere``, matching/elsewhere.py): outside the dev set
#: content gave such rows ("別記事で解説", "Covered in another article", "JOIN の詳細（別記事）")
#: the section its text ranked first (issue 28). Phrases per language (ja, en, es, ko, zh, as
#: the header keywords), compared accent- and case-folded; Latin ones on word boundaries. None
#: occurs in the dev set's 1,386 rows, whose references all lead into their own page.
ELSEWHERE_PHRASES: tuple[str, ...] = (
    "別記事", "別の記事", "別ページ", "別のページ", "別稿", "他の記事", "別エントリ",
    "another article", "separate article", "other article", "different article",
    "another post", "separate post", "another page", "separate page", "covered elsewhere",
    "otro artículo", "artículo aparte", "artículo independiente", "artículo separado",
    "otra página", "página aparte", "otra entrada",
    "다른 문서", "다른 글", "별도 문서", "별도의 문서", "별도 글", "다른 아티클", "다른 페이지",
    "별도 페이지", "다른 게시물",
    "另一篇", "其他文章", "另文", "单独的文章", "單獨的文章", "另一页", "另一頁",
)  # fmt: skip
#: ... and phrases that send the reader on ("see …", "参照"), which say so only when the row
#: also links to another page: "see Installing" with no such link names a section of this one.
SEE_ELSEWHERE_PHRASES: tuple[str, ...] = (
    "参照", "をご覧", "を見て", "詳しくは",
    "see", "refer to", "read more", "check out",
    "ver", "véase", "vea", "consulte", "consultar", "lea",
    "참조", "참고", "보세요", "확인하세요",
    "参见", "参阅", "請參閱", "请参阅", "详见", "詳見",
)  # fmt: skip


def phrase_pattern(phrases: Iterable[str]) -> re.Pattern[str]:
    """One pattern for the phrases, folded as the cells are; Latin ones on word boundaries
    ("ver" is not in "server", "see" not in "seed")."""
    parts = []
    for phrase in phrases:
        folded = re.escape(comparable(phrase))
        latin = re.search("[a-z]", comparable(phrase)) is not None
        parts.append(rf"(?<![a-z0-9]){folded}(?![a-z0-9])" if latin else folded)
    return re.compile("|".join(parts))


_ELSEWHERE = phrase_pattern(ELSEWHERE_PHRASES)
SEE_PATTERN = phrase_pattern(SEE_ELSEWHERE_PHRASES)


def says_elsewhere(cells: Sequence[str], offsite: bool = False) -> bool:
    """True when the row's cells (reference, query, answer) say its answer is in another
    article or page; ``offsite``: a cell of the row links to another page."""
    text = comparable(" ".join(cells))
    if _ELSEWHERE.search(text):
        return True
    return offsite and SEE_PATTERN.search(text) is not None
