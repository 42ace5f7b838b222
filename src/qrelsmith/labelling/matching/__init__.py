"""A section reference x an article's headings -> Match.

Rules, tried in order and recorded: ``anchor`` (an in-page link to a heading or into a
section), ``exact`` (equal after normalisation, or after dropping a bracketed part or a
"Step 2:" prefix), ``contains`` (one holds the other, on word boundaries), ``fuzzy`` (a
word-aware similarity above a measured threshold, see ``patterns.SIMILARITY_WEIGHTS``). When an
exact candidate exists only exact candidates compete, and an H2 beats an H3 elsewhere.
Near-ties are ambiguous, never guessed: the margin holds against every heading compared, also
one under the threshold, and a fuzzy winner that shares only identifiers another section's
heading also carries ("add v4tov4" / "set v4tov4") is a tie. Vague link text ("here", こちら)
and sentence fragments ("を使用") match nothing but an equal heading.

A reference naming several sections ("A／B") yields all of them when every part matches, and
the parts that match (flagged ``partial-reference``) when the others match nothing at all; a
reference equal to a heading is never split ("TCP/UDP の違い" stays whole). A weak separator
(、，,) splits only into parts that are each exactly a heading; otherwise the reference is
matched whole. A reference that matches nothing is tried once more without its bracketed
remark ("IIS (IIS、FTP などを選択します)").

The rows of one table are decided together (``order.match_rows``): quick-reference tables
follow the page's order, so a heading repeated k times and named k times maps occurrence by
occurrence, and a monotone alignment over heading positions takes a weaker candidate that
sits where its neighbours say it should (rule ``order``) and rejects a fuzzy match the order
contradicts. The rows the headings still leave between candidates are read against the
sections' text: the row's other cells (query, answer) scored by BM25 over the article's
sections (``content.SectionText``), rule ``content`` (``content_rule.by_content``), taken only
where the chosen section holds the row's answer and its rivals do not. A row no heading
resembles is placed (rule ``order``) where the decided rows around it leave one section: both
in it, or it alone between theirs (``order.by_place``). ``match_table`` is that decision for a
table.

Every match carries one ``confidence`` in 0-1 (``patterns.MATCH_CONFIDENCE``).

A row whose own cells say its answer is in another article or page ("別記事で解説", "see …"
with a link to another page) is rejected as ``elsewhere`` (elsewhere.py) before any rule.

The package, by job: forms.py (what a heading or a reference is compared as), index.py (an
article's headings: the one way to build the index, lookups, weights, similarity), rules.py
(one reference, rule by rule), order.py (a table's rows and the page's order), content_rule.py
(rule ``content``), elsewhere.py (rows that say their answer is elsewhere).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ...config import BuildOptions, build_options
from ...models import Article, Match
from ..content import SectionText
from .elsewhere import says_elsewhere
from .forms import Form, Target
from .index import HeadingIndex, SectionHeadings
from .order import CERTAIN, sections_between
from .rules import DUPLICATE_FLAG, EXCLUDED_MARK, PARTIAL_FLAG, REPEATED_FLAG, split_reference

__all__ = [
    "CERTAIN",
    "DUPLICATE_FLAG",
    "EXCLUDED_MARK",
    "PARTIAL_FLAG",
    "REPEATED_FLAG",
    "Form",
    "HeadingIndex",
    "SectionHeadings",
    "Target",
    "match_reference",
    "match_table",
    "split_reference",
]


def match_reference(
    reference: str,
    article: Article,
    anchors: Sequence[str] = (),
    options: BuildOptions | None = None,
) -> Match:
    """Match a section reference against an article's headings (see the module doc)."""
    return HeadingIndex.from_article(article).match(reference, anchors, options)


def match_table(
    rows: Sequence[tuple[str, Sequence[str], Sequence[str]]],
    article: Article,
    options: BuildOptions | None = None,
    offsite: Sequence[bool] = (),
) -> list[Match]:
    """The build's decision for one table: one Match per row, in table order.

    ``rows`` are (reference text, linked #ids, the row's other cells: query, answer);
    ``offsite`` says, per row, whether a cell links to another page. A row whose cells say
    its answer is elsewhere is rejected (``elsewhere.says_elsewhere``) and takes no part in
    the others' decision. The rows are decided together (``order.match_rows``: the page's
    order, then the sections' text for the rows the headings leave between candidates),
    then, with ``options.semantic``, by the optional sentence encoder for the rows still
    open, where its choice lies between the row's fixed neighbours (``semantic.resolve``,
    ``order.sections_between``).
    """
    options = build_options(options)
    index = HeadingIndex.from_article(article)
    away = [
        says_elsewhere([reference, *other], number < len(offsite) and offsite[number])
        for number, (reference, _, other) in enumerate(rows)
    ]
    references = [
        ("", ()) if gone else (reference, anchors)
        for gone, (reference, anchors, _) in zip(away, rows, strict=True)
    ]
    cells = [
        [] if gone else [c for c in other if c != reference]
        for gone, (reference, _, other) in zip(away, rows, strict=True)
    ]
    # the sections' text, read once for the content rule and the encoder's check
    text = functools.cache(lambda: SectionText.from_article(article))
    matches = index.match_rows(references, options, cells=cells, content=text)
    matches = [
        Match(reason="elsewhere") if gone else m for gone, m in zip(away, matches, strict=True)
    ]
    if options.semantic:  # off by default: the encoder is imported only here
        from ..semantic import resolve

        between = sections_between(index, matches)
        references_text = [reference for reference, _, _ in rows]
        matches = resolve(references_text, matches, article, between, cells, text)
    return matches
