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

from ..config import BuildOptions
from ..errors import DataError
from ..patterns import RESERVED
from ..text import text_of
from .decode import sniff_page
from .reading import empty_up_front, permalinks_in, without_permalinks

_PLAIN_TAG = re.compile(r"^[a-z][a-z0-9]*$")
_LOOKS_LIKE_MARKUP = re.compile(rb"<\s*[a-zA-Z!]")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>")
_RESERVED_UTF8 = tuple(mark.encode("utf-8") for mark in RESERVED)
#: The first two UTF-8 bytes of all reserved characters (U+E000-U+E002): one scan of a page.
_RESERVED_PREFIX = _RESERVED_UTF8[0][:2]
_RESERVED_LEAD = _RESERVED_PREFIX[:1]
#: Characters libxml2's HTML parser keeps in text but lxml refuses to set as text (XML 1.0
#: forbids them): a tail moved by ``remove_element`` must lose them, or the page fails.
_NOT_XML_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


@dataclass(frozen=True, slots=True)
class ParsedPage:
    """The article root (already cleaned), the page's title, and how it was decoded:
    ``replaced`` counts the undecodable byte sequences read as U+FFFD. ``options`` are the
    build options for this page: ``permalink_selectors`` keeps only those whose class the
    page's bytes hold (the later stages test the rest on no element)."""

    root: Element
    title: str
    encoding: str
    replaced: int = 0
    options: BuildOptions | None = None
    #: The page's UTF-8 bytes as parsed: a query source tests them for its markers (one
    #: C-level search) before it walks the tree.
    raw: bytes = b""


@lru_cache(maxsize=64)
def _selector(css: str) -> etree.XPath:
    from lxml.cssselect import CSSSelector  # only for selectors that are not plain tags

    return CSSSelector(css, translator="html")


#: (options, narrowed copy) per (id of the options, selectors kept): most pages keep the same
#: few selectors (none, or their generator's), and a copy of the options per page cost 18 us.
#: The entry holds the options themselves, so that their id cannot name other options.
_NARROWED: dict[tuple[int, tuple[str, ...]], tuple[BuildOptions, BuildOptions]] = {}


def _narrowed(options: BuildOptions, present: tuple[str, ...]) -> BuildOptions:
    """``options`` with only the ``present`` permalink selectors (a copy made once)."""
    key = (id(options), present)
    entry = _NARROWED.get(key)
    if entry is None or entry[0] is not options:
        if len(_NARROWED) >= 64:
            _NARROWED.clear()
        copy = options.model_copy(update={"permalink_selectors": list(present)})
        entry = _NARROWED[key] = (options, copy)
    return entry[1]


#: The first element of a tag in document order, the context element included. libxml2 stops
#: at it; lxml's ``iter`` looks ahead for the next one once it has returned one, which walks
#: the rest of the page for a tag it holds once (<h1>, <title>: 0.2 s each on the crawl).
_FIRST = {tag: etree.XPath(f"descendant-or-self::{tag}[1]") for tag in ("h1", "title")}


def _title(document: Element, root: Element, selectors: Sequence[str]) -> str:
    """The article's H1, else the page's <title>, else any H1 (site headers carry one too):
    the first with text of each, in document order."""
    for element, tag in ((root, "h1"), (document, "title"), (document, "h1")):
        first = _FIRST[tag](element)
        if not first:
            continue  # none at all
        text = text_of(without_permalinks(first[0], selectors))
        if text:
            return text
        for found in element.iter(tag):  # the first is empty (rare): the others in turn
            text = text_of(without_permalinks(found, selectors))
            if text:
                return text
    return ""


def parse_html(
    data: bytes | str, options: BuildOptions, http_charset: str | None = None
) -> ParsedPage:
    """Decode and parse a page and find its article root.

    The elements named in ``options.drop_tags`` stay in the tree (removing them costs a walk of
    every page): the section text pass skips them, and the few elements read one by one
    (tables, headings) are checked with ``reading.dropped`` and ``reading.cleaned``.

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
    # sections.py marks its text with them: no page may forge one. Their lead byte first: a
    # one-byte search is a memchr, ~15x cheaper than the two-byte one (0.07 s on the crawl).
    if _RESERVED_LEAD in raw and _RESERVED_PREFIX in raw:
        for reserved in _RESERVED_UTF8:
            raw = raw.replace(reserved, b"")
    if not _LOOKS_LIKE_MARKUP.search(raw, 0, 65536):  # the first 64 kB, without a copy
        raise DataError("not HTML (no markup)")
    marks = permalinks_in(raw, options.permalink_selectors)
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
    present = empty_up_front(document, marks)
    if present != options.permalink_selectors:
        options = _narrowed(options, tuple(present))
    # the landmark is looked for only on pages that write one (a C-level search of the bytes)
    root = find_root(document, options.article_selectors, _MAIN_ROLE_BYTES.search(raw) is not None)
    title = _title(document, root, options.permalink_selectors)
    return ParsedPage(
        root=root, title=title, encoding=encoding, replaced=replaced, options=options, raw=raw
    )


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


def find_root(document: Element, selectors: list[str], landmark: bool = True) -> Element:
    """The first element matching the first selector that matches; the document otherwise.
    ``landmark``: the page may hold a ``role="main"`` element (``_main_landmark``)."""
    if selectors and all(_PLAIN_TAG.match(css) for css in selectors):
        # One lookup per plain tag ("article", "main", "body"): one walk for all of them went
        # through the whole page whenever it has no <article> (0.22 s on the 1,941 pages of
        # the benchmark crawl; see ``first_element``).
        for css in selectors:
            found = first_element(document, css)
            if found is None and css == "main" and landmark:
                found = _main_landmark(document)
            if found is not None:
                return found
        return document
    for css in selectors:
        found = _selector(css)(document)
        if found:
            element: Element = found[0]
            return element
    return document


#: ``role="main"``: the ARIA landmark that is what <main> is, on pages of generators that
#: write no <main> (MkDocs' default theme: ``div.col-md-9[role=main]``; Sphinx's basic theme:
#: ``div.body[role=main]``), whose <body> also holds a search dialog and keyboard help.
#: It is looked for in the top levels under <body> only (MkDocs: 3 deep, Sphinx: 4): a search
#: of the whole tree cost 7% of a page's build on the benchmark crawl, whose Sphinx pages all
#: hold one; these levels hold few elements.
_MAIN_ROLE_DEPTH = 6
_MAIN_ROLE = etree.XPath(
    "("
    + " | ".join(
        f"/html/body{'/*' * depth}[@role='main']" for depth in range(1, _MAIN_ROLE_DEPTH + 1)
    )
    + ")[1]"
)
_MAIN_ROLE_BYTES = re.compile(rb"""role\s*=\s*["']?main\b""")


def _main_landmark(document: Element) -> Element | None:
    """The first element with ``role="main"``: the selector ``main`` takes it when the page
    has no <main> element (``patterns.ARTICLE_SELECTORS``)."""
    found = _MAIN_ROLE(document)
    return found[0] if isinstance(found, list) and found else None


def first_element(root: Element, tag: str) -> Element | None:
    """The first element named ``tag`` in ``root`` (itself included), in document order.

    Without a walk of the whole tree where it can: lxml's ``iter(tag)`` ends at once when the
    parser never met the name (the document's name dictionary lacks it), but once it has
    returned an element it walks on to the next one, to the end when there is none (as for
    <body>). A child of the root with that tag is the first one unless an earlier child's
    subtree holds one (only those, <head> for <body>, are searched).
    """
    if root.tag == tag:
        return root
    child = root.find(tag)
    if child is None:
        return next(root.iter(tag), None)
    for earlier in root:
        if earlier is child:
            return child
        found = next(earlier.iter(tag), None)
        if found is not None:
            return found
    return child  # not reached: the child is one of the root's


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
