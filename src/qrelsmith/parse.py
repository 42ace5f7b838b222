"""Page bytes -> an lxml tree of the article: decoded, parsed, rooted.

lxml does the parsing (BeautifulSoup over lxml costs about 10x the bare parse, which a large
crawl cannot afford), with ``etree.HTMLParser`` rather than ``lxml.html``: the latter looks up a
Python element class for every element touched, which costs more than the parse itself on
long pages. Decoding is ``decode.py``'s job.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree
from lxml.etree import _Element as Element

from .config import BuildOptions
from .decode import sniff_page
from .errors import DataError
from .patterns import RESERVED
from .text import text_of

_PLAIN_TAG = re.compile(r"^[a-z][a-z0-9]*$")
_LOOKS_LIKE_MARKUP = re.compile(rb"<\s*[a-zA-Z!]")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>")
_RESERVED_UTF8 = tuple(mark.encode("utf-8") for mark in RESERVED)
#: The first two UTF-8 bytes of all reserved characters (U+E000-U+E002): one scan of a page.
_RESERVED_PREFIX = _RESERVED_UTF8[0][:2]
#: Characters libxml2's HTML parser keeps in text but lxml refuses to set as text (XML 1.0
#: forbids them): a tail moved by ``remove_element`` must lose them, or the page fails.
_NOT_XML_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


@dataclass(frozen=True, slots=True)
class ParsedPage:
    """The article root (already cleaned), the page's title, and how it was decoded:
    ``replaced`` counts the undecodable byte sequences read as U+FFFD."""

    root: Element
    title: str
    encoding: str
    replaced: int = 0


@lru_cache(maxsize=64)
def _selector(css: str) -> etree.XPath:
    from lxml.cssselect import CSSSelector  # only for selectors that are not plain tags

    return CSSSelector(css, translator="html")


_CLASS_TOKEN = re.compile(r"\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)")


@lru_cache(maxsize=16)
def _permalinks(selectors: tuple[str, ...]) -> tuple[tuple[bytes | None, etree.XPath], ...]:
    """Per class name a page's bytes must hold, the XPath of the selectors naming it (None for
    selectors that name no class: always run). A page runs only the queries whose class it
    holds: one walk of the tree for a Sphinx page, none for most pages."""
    from lxml.cssselect import CSSSelector

    grouped: dict[bytes | None, list[str]] = {}
    for css in selectors:
        classes = _CLASS_TOKEN.findall(css)
        # The longest class is the rarest in a page's bytes: "markdown-heading", not "anchor".
        marker = max(classes, key=len).encode() if classes else None
        grouped.setdefault(marker, []).append(CSSSelector(css, translator="html").path)
    shortest_first = sorted(grouped.items(), key=lambda item: len(item[0] or b""))
    return tuple((marker, etree.XPath(" | ".join(paths))) for marker, paths in shortest_first)


def drop_permalinks(document: Element, raw: bytes, selectors: Sequence[str]) -> None:
    """Empty the heading permalink anchors (Sphinx's "¶" and the like) in place; the element
    and its id stay, so that in-page links to it still resolve. A byte search first: an XPath
    runs only on pages whose markup names its selectors' class."""
    absent: list[bytes] = []
    for marker, query in _permalinks(tuple(selectors)):
        if marker is not None and (
            any(short in marker for short in absent) or marker not in raw
        ):  # "header-anchor" cannot be in a page without "anchor": one scan of the bytes less
            absent.append(marker)
            continue
        for anchor in query(document):
            anchor.text = None
            for child in list(anchor):
                anchor.remove(child)


def _title(document: Element, root: Element) -> str:
    """The article's H1, else the page's <title>, else any H1 (site headers carry one too)."""
    for element, tag in ((root, "h1"), (document, "title"), (document, "h1")):
        for found in element.iter(tag):
            text = text_of(found)
            if text:
                return text
    return ""


def parse_html(
    data: bytes | str, options: BuildOptions, http_charset: str | None = None
) -> ParsedPage:
    """Decode and parse a page and find its article root.

    The elements named in ``options.drop_tags`` stay in the tree (removing them costs a walk of
    every page): the section text pass skips them, and the few elements read one by one
    (tables, headings) are checked with ``dropped`` and ``cleaned``.

    Raises DataError (empty, binary, undecodable, not HTML) for pages the build must skip.
    """
    if isinstance(data, str):
        text = _XML_DECLARATION.sub("", data)
        if not text.strip():
            raise DataError("empty page")
        raw = text.encode("utf-8")
        encoding, replaced = "utf-8", 0
    else:
        if not data or data.isspace():  # no copy of a large page, unlike strip()
            raise DataError("empty page")
        encoding, bom, replaced = sniff_page(data, http_charset, options.encoding)
        raw = data[bom:]
        if encoding != "utf-8" or replaced:
            raw = raw.decode(encoding, errors="replace").encode("utf-8")
    if _RESERVED_PREFIX in raw:  # sections.py marks its text with them: no page may forge one
        for reserved in _RESERVED_UTF8:
            raw = raw.replace(reserved, b"")
    if not _LOOKS_LIKE_MARKUP.search(raw[:65536]):
        raise DataError("not HTML (no markup)")
    # collect_ids=False: no hash table of ids is built (nothing looks elements up by id), which
    # saves 3-12% of the parse.
    parser = etree.HTMLParser(
        encoding="utf-8", remove_comments=True, remove_pis=True, huge_tree=True, collect_ids=False
    )
    try:
        document = etree.fromstring(raw, parser=parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise DataError(f"unparsable HTML: {exc}") from exc
    if document is None:
        raise DataError("unparsable HTML: no document")
    # libxml2 recovers from broken markup, but a fatal error (markup nested deeper than 2,047
    # elements) ends its reading there, without an exception: the rest of the page would be
    # lost without a word, so the page is skipped and the report says why.
    fatal = parser.error_log.filter_from_fatals()
    if fatal:
        first = fatal[0]
        raise DataError(f"HTML parser stopped at line {first.line}: {_in_words(first.message)}")
    drop_permalinks(document, raw, options.permalink_selectors)
    root = find_root(document, options.article_selectors)
    title = _title(document, root)
    return ParsedPage(root=root, title=title, encoding=encoding, replaced=replaced)


#: How deep libxml2's HTML parser reads nested markup (its fixed limit; the option that lifts
#: it is libxml2's, which lxml does not let a page's reader set).
LIBXML2_MAX_DEPTH = 2047
#: How libxml2's messages start their advice to set one of its options.
_OPTION_ADVICE = "use XML_PARSE_"


def _in_words(message: str) -> str:
    """A libxml2 fatal error as a user can act on it: no advice to set a parser option."""
    if "Excessive depth" in message:
        return (
            f"markup nested deeper than {LIBXML2_MAX_DEPTH:,} levels, where the parser stops "
            "reading (the rest of the page would be lost)"
        )
    return message.partition(_OPTION_ADVICE)[0].strip().rstrip(",;:").strip()


def find_root(document: Element, selectors: list[str]) -> Element:
    """The first element matching the first selector that matches; the document otherwise."""
    if selectors and all(_PLAIN_TAG.match(css) for css in selectors):
        # One walk for all plain tags ("article", "main", "body"), not one walk per selector.
        first: dict[str, Element] = {}
        for candidate in document.iter(*selectors):
            first.setdefault(str(candidate.tag), candidate)
            if candidate.tag == selectors[0]:
                break
        return next((first[css] for css in selectors if css in first), document)
    for css in selectors:
        found = _selector(css)(document)
        if found:
            element: Element = found[0]
            return element
    return document


def dropped(element: Element, drop_tags: Sequence[str]) -> bool:
    """Whether ``element`` lies inside an element whose text is never read (nav, aside, ...)."""
    return next(element.iterancestors(*drop_tags), None) is not None


def cleaned(element: Element, drop_tags: Sequence[str]) -> Element:
    """``element`` with the dropped elements under it removed (in place; their tails stay)."""
    etree.strip_elements(element, *drop_tags, with_tail=False)
    return element


def remove_element(element: Element) -> None:
    """Remove ``element`` and its subtree from the tree, keeping the text that follows it."""
    parent = element.getparent()
    if parent is None:
        return
    tail = _NOT_XML_TEXT.sub(" ", element.tail or "")
    previous = element.getprevious()
    if tail:
        if previous is not None:
            previous.tail = _NOT_XML_TEXT.sub(" ", previous.tail or "") + tail
        else:
            parent.text = _NOT_XML_TEXT.sub(" ", parent.text or "") + tail
    parent.remove(element)
