"""Article root -> sections: split at H2 (configurable), H3 and deeper belong to their H2.

Text before the first split heading (the intro, the quick-reference table) is not a section;
sections whose heading is FAQ / summary / references are set aside as excluded. One pass of
lxml's ``iterwalk`` over the tree: no per-element Python recursion.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import lxml.html
from lxml import etree

from . import patterns
from .models import ExcludedSection, Section
from .text import fold_space, strip_numbering

HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")

#: Elements after which text of the next element must not run into the previous word.
BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "blockquote",
        "br",
        "caption",
        "dd",
        "details",
        "div",
        "dl",
        "dt",
        "figcaption",
        "figure",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "li",
        "main",
        "ol",
        "p",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    ]
)


@dataclass
class _Open:
    """A section being collected."""

    index: int
    heading: str
    anchors: list[str]
    chunks: list[str] = field(default_factory=list)
    subheadings: list[str] = field(default_factory=list)


@lru_cache(maxsize=16)
def _exclusion_regexes(excluded: tuple[str, ...]) -> list[tuple[str, re.Pattern[str]]]:
    return [
        (p, re.compile(rf"^(?:{p}){patterns.EXCLUDED_HEADING_TAIL}", re.IGNORECASE))
        for p in excluded
    ]


def exclusion_pattern(heading: str, excluded: Sequence[str]) -> str | None:
    """The first excluded-heading pattern that matches ``heading``, if any."""
    normalized = strip_numbering(fold_space(unicodedata.normalize("NFKC", heading)).casefold())
    for pattern, regex in _exclusion_regexes(tuple(excluded)):
        if regex.match(normalized):
            return pattern
    return None


def heading_level(tag: object) -> int:
    """1-6 for h1-h6, 0 for anything else."""
    if isinstance(tag, str) and len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
        return int(tag[1])
    return 0


def split_sections(
    root: lxml.html.HtmlElement,
    article_id: str,
    level: int = patterns.SECTION_LEVEL,
    excluded_patterns: Sequence[str] = patterns.EXCLUDED_HEADINGS,
) -> tuple[list[Section], list[ExcludedSection]]:
    """Split ``root`` at headings of ``level``; returns (corpus sections, excluded sections)."""
    opened: list[_Open] = []
    current: _Open | None = None
    pending_ids: list[str] = []  # ids seen since the last text: they belong to the next heading
    heading_depth = 0  # > 0 while inside a split heading
    heading_chunks: list[str] = []
    sub_chunks: list[str] | None = None
    sub_depth = 0
    count = 0

    def add(text: str | None) -> None:
        nonlocal pending_ids
        if not text:
            return
        if heading_depth:
            heading_chunks.append(text)
        elif current is not None:
            current.chunks.append(text)
            if sub_chunks is not None and sub_depth:
                sub_chunks.append(text)
        if not text.isspace():
            pending_ids = []

    walker = etree.iterwalk(root, events=("start", "end"))
    for event, element in walker:
        tag = element.tag
        if not isinstance(tag, str):
            continue
        rank = heading_level(tag)
        if event == "start":
            element_id = element.get("id") or (element.get("name") if tag == "a" else None)
            if rank == level and not heading_depth:
                heading_depth = 1
                heading_chunks = []
                anchors = [*pending_ids, *([element_id] if element_id else [])]
                if opened and pending_ids:  # "<section id=x><h2>": x names the new section
                    previous = opened[-1]
                    previous.anchors = [a for a in previous.anchors if a not in pending_ids]
                current = _Open(index=count, heading="", anchors=anchors)
                opened.append(current)
                count += 1
                pending_ids = []
            elif rank and rank < level and not heading_depth:
                current = None  # a higher heading ends the section; its text belongs to none
            else:
                if element_id:
                    if current is not None:
                        current.anchors.append(element_id)
                    pending_ids.append(element_id)
                if rank > level and current is not None and not heading_depth:
                    sub_chunks, sub_depth = [], 1
                elif sub_depth:
                    sub_depth += 1
                if heading_depth and tag != "h" + str(level):
                    heading_depth += 1
            if tag in BLOCK_TAGS:
                add(" ")
            add(element.text)
        else:
            if heading_depth:
                heading_depth -= 1
                if heading_depth == 0 and current is not None:
                    current.heading = fold_space("".join(heading_chunks))
                    add(" ")
                    add(element.tail)
                    continue
            if sub_depth:
                sub_depth -= 1
                if sub_depth == 0 and sub_chunks is not None and current is not None:
                    subheading = fold_space("".join(sub_chunks))
                    if subheading:
                        current.subheadings.append(subheading)
                    sub_chunks = None
            if tag in BLOCK_TAGS:
                add(" ")
            if element is not root:
                add(element.tail)

    sections: list[Section] = []
    excluded: list[ExcludedSection] = []
    for item in opened:
        section_id = f"{article_id}#{item.index}"
        pattern = exclusion_pattern(item.heading, excluded_patterns)
        if pattern is not None:
            excluded.append(ExcludedSection(id=section_id, heading=item.heading, pattern=pattern))
            continue
        sections.append(
            Section(
                id=section_id,
                article_id=article_id,
                index=item.index,
                heading=item.heading,
                subheadings=item.subheadings,
                anchors=list(dict.fromkeys(item.anchors)),
                text=fold_space("".join(item.chunks)),
            )
        )
    return sections, excluded
