"""Article root -> sections: split at H2 (configurable), H3 and deeper belong to their H2.

Text before the first split heading (the intro, the quick-reference table) is not a section;
sections whose heading is FAQ / summary / references are set aside as excluded. The text is read in
one C-level ``itertext`` pass over a marked tree: no per-element Python loop.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape

from lxml import etree

from .. import patterns
from ..config import BuildOptions
from ..models import ExcludedSection, Section, SubHeading
from ..patterns import LINK_CLOSE, LINK_OPEN, MARK
from ..store import layout
from ..text import fold_space, folded_words, strip_numbering
from .reading import permalinks

#: What may follow an excluded keyword for the heading still to count as that keyword.
EXCLUDED_HEADING_TAIL = r"(?:$|[\s・:：、,，/／&（(「\-–—]|と|및|y\s)"

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
    #: each subheading's level and the number of chunks before its text
    starts: list[tuple[int, int]] = field(default_factory=list)


@lru_cache(maxsize=16)
def _exclusion_regexes(
    excluded: tuple[str, ...],
) -> tuple[re.Pattern[str], list[tuple[str, re.Pattern[str]]]]:
    """All patterns as one regex (the common case: no match, one test) and each on its own."""
    tail = EXCLUDED_HEADING_TAIL
    each = [(p, re.compile(rf"^(?:{p}){tail}", re.IGNORECASE)) for p in excluded]
    alternatives = "|".join(f"(?:{p})" for p in excluded) or "(?!)"
    return re.compile(rf"^(?:{alternatives}){tail}", re.IGNORECASE), each


def exclusion_pattern(heading: str, excluded: Sequence[str]) -> str | None:
    """The first excluded-heading pattern that matches ``heading``, if any."""
    normalized = strip_numbering(folded_words(heading))
    anyone, each = _exclusion_regexes(tuple(excluded))
    if not anyone.match(normalized):
        return None
    return next((pattern for pattern, regex in each if regex.match(normalized)), None)


def heading_level(tag: object) -> int:
    """1-6 for h1-h6, 0 for anything else."""
    if isinstance(tag, str) and len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
        return int(tag[1])
    return 0


_TOKENS = re.compile(f"{MARK}([^{MARK}]*){MARK}")

_LINK_SPAN = re.compile(f"{LINK_OPEN}[^{LINK_CLOSE}]*{LINK_CLOSE}")

_XML_MARK = "&#xE000;"
_ID = f'<xsl:text>{_XML_MARK}#</xsl:text><xsl:value-of select="."/><xsl:text>{_XML_MARK}</xsl:text>'


def _id_of(attribute: str) -> str:
    return f'<xsl:for-each select="{attribute}">{_ID}</xsl:for-each>'


_TAG_NAME = re.compile(patterns.TAG_NAME)


@lru_cache(maxsize=16)
def _stylesheet(drop_tags: tuple[str, ...], with_ids: bool, permalink: str = "") -> etree.XSLT:
    """One C-level pass (libxslt) that turns the article tree into text with markers: block
    breaks as spaces, ``H<n>`` ... ``/H`` around headings, ``#<id>`` where an element carries
    an id (or an ``<a>`` a name), and nothing at all of a dropped element.

    It costs about what lxml's own ``itertext`` walk costs; a Python loop over elements cost 4x,
    and removing the dropped elements from the tree first cost another walk. The id test is an
    ``xsl:if`` in each template: a shared named template cost half the pass again. Without
    ``ids`` the pass takes about 40% less time.
    """
    bad = [tag for tag in drop_tags if not _TAG_NAME.match(tag)]
    if bad:
        raise ValueError(f"drop_tags: {bad[0]!r} is not an HTML tag name")
    ids = f'<xsl:if test="@id">{_id_of("@id")}</xsl:if>' if with_ids else ""
    blocks = "|".join(sorted(BLOCK_TAGS - set(HEADING_TAGS)))
    # "*/tag": the root element itself is never dropped (an article selector may name one).
    dropped = "|".join(f"*/{tag}" for tag in drop_tags)
    drop = f'<xsl:template match="{dropped}" priority="4"/>' if drop_tags else ""
    names = f'<xsl:if test="@name">{_id_of("@name")}</xsl:if>' if with_ids else ""
    # A permalink's content is left out, its ids kept, as if it had been emptied in the tree.
    content = (
        f'<xsl:if test="not({escape(permalink)})"><xsl:apply-templates/></xsl:if>'
        if permalink
        else "<xsl:apply-templates/>"
    )
    anchors = (
        f'<xsl:template match="*[@id]" priority="1">{ids}<xsl:apply-templates/></xsl:template>'
        if with_ids
        else ""
    )
    # A link to another page (not "#..."): its text between LINK_OPEN and LINK_CLOSE. An
    # old-style <a name> without href wraps text and is not a link. Both tests sit inside the
    # one template of every <a>, not in match patterns: the in-page test as a pattern predicate
    # cost 0.18 s over the 1,941 pages of the benchmark crawl (a third of the text pass),
    # inside 0.05 s; an "a[@href]" template beside the "a" one cost ~0.02 s more than this (the
    # Sphinx pages' 164k links).
    links = f"""<xsl:template match="a" priority="2">{ids}{names}<xsl:choose>
<xsl:when test="starts-with(@href, '#') or not(@href)">{content}</xsl:when><xsl:otherwise>
<xsl:text>&#xE001;</xsl:text>{content}<xsl:text>&#xE002;</xsl:text>
</xsl:otherwise></xsl:choose></xsl:template>"""
    text = f"""<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="text" encoding="UTF-8"/>{drop}
<xsl:template match="{"|".join(HEADING_TAGS)}" priority="3">
<xsl:text> {_XML_MARK}H</xsl:text><xsl:value-of select="substring(local-name(), 2)"/>
<xsl:text>{_XML_MARK}</xsl:text>{ids}<xsl:apply-templates/>
<xsl:text>{_XML_MARK}/H{_XML_MARK} </xsl:text></xsl:template>
<xsl:template match="{blocks}" priority="2">
<xsl:text> </xsl:text>{ids}<xsl:apply-templates/><xsl:text> </xsl:text></xsl:template>
{anchors}
{links}
</xsl:stylesheet>"""
    return etree.XSLT(etree.XML(text))


def marked_text(
    root: etree._Element,
    drop_tags: Sequence[str] = patterns.DROP_TAGS,
    ids: bool = True,
    permalink_selectors: Sequence[str] = patterns.PERMALINK_SELECTORS,
) -> str:
    """The text of ``root`` with block breaks, heading markers and (``ids``) id markers; the
    elements named in ``drop_tags`` (under ``root``) contribute nothing, nor do the heading
    permalink anchors (``parse_html`` has emptied those this pass cannot tell)."""
    test = permalinks(tuple(permalink_selectors)).test
    return str(_stylesheet(tuple(drop_tags), ids, test)(root))


def split_sections(
    root: etree._Element,
    article_id: str,
    options: BuildOptions,
    anchors: bool = True,
) -> tuple[list[Section], list[ExcludedSection]]:
    """Split ``root`` at headings of ``options.section_level``; returns (corpus sections,
    excluded sections).

    A section is excluded by its heading (``options.excluded_headings``) or, when at least
    ``options.link_only_density`` of its text is the text of links to other pages (0 turns
    this off), as link-only (see ``link_density``); the ``options.drop_tags`` add no text.

    The marked text is read in one pass and its marker stream walked: the Python loop runs
    per heading and id, not per element. ``anchors=False`` leaves element ids out (the
    sections get no ``anchors``): only a quick-reference table's links need them.
    """
    level, link_only_density = options.section_level, options.link_only_density
    text = marked_text(root, options.drop_tags, anchors, options.permalink_selectors)
    parts = _TOKENS.split(text)
    opened: list[_Open] = []
    current: _Open | None = None
    pending_ids: list[str] = []  # ids since the last text: they belong to the next heading
    headings: list[int] = []  # open heading ranks (a stack: broken markup may nest them)
    opened_at: list[int] = []  # the section's chunk count where each open heading began
    heading_chunks: list[str] = []
    for position, part in enumerate(parts):
        if position % 2 == 0:  # text
            if not part:
                continue
            rank = headings[-1] if headings else 0
            if rank == level:
                heading_chunks.append(part)
                continue
            if current is not None:
                current.chunks.append(part)
                if rank > level:
                    heading_chunks.append(part)
            if not part.isspace():
                pending_ids = []
        elif part.startswith("#"):
            # an id inside a heading is that heading's own, even when the heading is empty:
            # only ids met between headings ("<section id=x><h2>", "<a name=x></a><h2>")
            # wait for the next one
            if not headings:
                pending_ids.append(part[1:])
            if current is not None:
                current.anchors.append(part[1:])
        elif part.startswith("H"):
            rank = int(part[1])
            headings.append(rank)
            opened_at.append(len(current.chunks) if current is not None else 0)
            heading_chunks = []
            if rank == level:
                if opened and pending_ids:  # "<section id=x><h2>": x names the new section
                    previous = opened[-1]
                    previous.anchors = [a for a in previous.anchors if a not in pending_ids]
                current = _Open(index=len(opened), heading="", anchors=list(pending_ids))
                opened.append(current)
                pending_ids = []
            elif rank < level:
                current = None  # a higher heading ends the section; its text belongs to none
        elif part == "/H" and headings:
            rank, chunk = headings.pop(), opened_at.pop()
            text = without_glyph(fold_space(_without_links("".join(heading_chunks))))
            heading_chunks = []
            if current is not None and text:
                if rank == level:
                    current.heading = text
                elif rank > level:
                    current.subheadings.append(text)
                    current.starts.append((rank, chunk))

    sections: list[Section] = []
    excluded: list[ExcludedSection] = []
    for item in opened:
        section_id = layout.section_id(article_id, item.index)
        pattern = exclusion_pattern(item.heading, options.excluded_headings)
        if pattern is not None:
            excluded.append(ExcludedSection(id=section_id, heading=item.heading, pattern=pattern))
            continue
        text = "".join(item.chunks)
        if LINK_OPEN in text:
            density = link_density(text) if link_only_density > 0 else None
            if density is not None and density >= link_only_density:
                excluded.append(
                    ExcludedSection(
                        id=section_id, heading=item.heading, why="links", link_density=density
                    )
                )
                continue
        text, places = folded_text(item, text)
        sections.append(
            Section(
                id=section_id,
                article_id=article_id,
                index=item.index,
                heading=item.heading,
                subheadings=item.subheadings,
                outline=places,
                anchors=list(dict.fromkeys(item.anchors)),
                text=text,
            )
        )
    return sections, excluded


def folded_text(item: _Open, text: str) -> tuple[str, list[SubHeading]]:
    """A section's text (``text``: its chunks joined) with white space folded and links
    unmarked, and where each of its subheadings starts in it.

    The marked text puts a space before every heading, so the chunks before a subheading end
    in white space: the text folds piece by piece, cut where each subheading starts, to what
    it folds to whole, and a subheading's offset is the folded length before it plus the one
    space that joins them. Each chunk is folded once, as the whole text was. A heading whose
    text is not found there (markup nesting headings in headings) is left out:
    ``subheadings`` still names it.
    """
    if not item.starts:
        return fold_space(_without_links(text)), []
    pieces: list[str] = []
    starts: list[tuple[int, int]] = []  # (level, offset)
    length, done = 0, 0  # the folded length of the chunks before chunk ``done``
    for rank, chunk in item.starts:
        piece = fold_space(_without_links("".join(item.chunks[done:chunk])))
        if piece:
            pieces.append(piece)
            length += len(piece) + (1 if length else 0)
        done = chunk
        starts.append((rank, length + (1 if length else 0)))
    pieces.append(fold_space(_without_links("".join(item.chunks[done:]))))
    folded = " ".join(pieces)  # the last piece holds the last subheading: never empty
    # built here from values already checked: a model's validation cost a fifth of this
    places = [
        SubHeading.model_construct(at=at, level=rank, text=heading)
        for (rank, at), heading in zip(starts, item.subheadings, strict=True)
        if folded.startswith(heading, at)
    ]
    return folded, places


#: The glyph a heading's permalink anchor shows ("¶" of Sphinx, "#" of Hugo and MkDocs, "§",
#: "🔗", "⚓"), left at the end of the heading's text when the anchor's markup is gone (a crawl
#: that unwrapped its in-page links) or its class is no permalink selector. "C#", "F#" (one
#: letter before the "#") keep theirs.
_PERMALINK_GLYPHS = frozenset("¶§#\U0001f517\u2693")


def without_glyph(heading: str) -> str:
    """A heading's text without a permalink glyph at its end ("Startup probes#")."""
    text = heading.rstrip()
    if len(text) < 2 or text[-1] not in _PERMALINK_GLYPHS:
        return heading
    one_letter = text[-2].isascii() and text[-2].isalpha() and (len(text) == 2 or text[-3] in " (")
    if text[-1] == "#" and one_letter:
        return heading  # "C#", "Using F#"
    return text[:-1].rstrip() or heading


def _without_links(text: str) -> str:
    if LINK_OPEN not in text:
        return text
    return text.replace(LINK_OPEN, "").replace(LINK_CLOSE, "")


def _solid(text: str) -> int:
    """The number of characters of ``text`` that are not white space."""
    return len("".join(text.split()))


def link_density(text: str) -> float | None:
    """The share of a section's characters (white space left out) inside links to other
    pages; None when more than ``patterns.LINK_ONLY_MAX_OTHER_CHARS`` are outside links, as
    in any section with prose of its own.

    ``text`` is the section's text with LINK_OPEN/LINK_CLOSE around link text. Regex scans
    that seek LINK_OPEN (a literal) and C-level counts: no loop over characters. Most
    sections stop at the prose before their first link; the test after it leaves out only
    spaces and line breaks (other white space counts, so it can only keep a section).
    """
    limit = patterns.LINK_ONLY_MAX_OTHER_CHARS
    # A shortcut: the prose before the first link, often enough to stop (the tests below count
    # it too). Its first few hundred characters: a section's prose runs to thousands, and a
    # part of it holding more than the limit is enough.
    before = text[: min(text.find(LINK_OPEN), 4 * limit)]
    if len(before) > limit and _solid(before) > limit:
        return None
    outside = _LINK_SPAN.sub("", text)
    if len(outside) - outside.count(" ") - outside.count("\n") > limit:
        return None
    other = _solid(outside.replace(LINK_CLOSE, ""))
    if other > limit:
        return None
    inside = _solid(_without_links("".join(_LINK_SPAN.findall(text))))
    return round(inside / (inside + other), 2) if inside + other else None
