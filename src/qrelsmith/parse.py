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


@lru_cache(maxsize=64)
def _selector(css: str) -> etree.XPath:
    from lxml.cssselect import CSSSelector  # only for selectors that are not plain tags

    return CSSSelector(css, translator="html")


@dataclass(frozen=True, slots=True)
class PermalinkSelector:
    """One permalink selector as ``permalinks_in`` and ``empty_up_front`` apply it:
    ``alternatives``, the numbers (in ``Permalinks.markers``' numbering) of the alternatives of
    its selector list; ``up_front`` the XPath that empties its anchors when the text pass
    cannot test it (None when it can)."""

    css: str
    alternatives: frozenset[int]
    up_front: etree.XPath | None


@dataclass(frozen=True, slots=True)
class Marker:
    """A class some alternative of a permalink selector needs (``needed_by``: their numbers),
    and the shorter such classes it holds (absent one of those, it is absent too)."""

    name: bytes
    needed_by: frozenset[int]
    holds: frozenset[bytes]


@dataclass(frozen=True, slots=True)
class Permalinks:
    """How a set of permalink selectors is applied to pages.

    A selector whose subject is an ``<a>``, that tests the link itself and at most its parent
    (``a.headerlink``, ``h2 > a.anchor``: classes, ids, attributes, ``:is``/``:not`` of
    those; no ancestor, sibling or child-position test, no ``:has``/``:contains``/``:empty``)
    is read where the text is: ``test`` is an XPath condition on an ``<a>`` (the context node),
    which the section-text pass tests on the links it meets anyway, and ``inside`` empties the
    marks under the few elements read on their own (title, headings, table rows, caption,
    label). Emptying them all up front took one more walk of every page (0.4 s of 3.3 s on the
    1,941 pages of the benchmark crawl, 0.15 s of it a walk of the Sphinx pages' trees). The
    other selectors are emptied up front, as before.

    A page keeps only the selectors whose classes its bytes hold, so that the text pass tests
    none on most pages (the test costs about 1.5 us per link). Each alternative of a selector
    list needs every class ``required_classes`` finds in it; ``markers`` are those classes,
    shortest first. A byte search costs ~15 us on an average page of the crawl, so a class is
    looked for only while an alternative needing it is still possible ("markdown-heading" not
    on a page without "anchor"), and one holding an absent shorter one ("header-anchor",
    "anchor") is absent without a search."""

    test: str
    inside: etree.XPath | None
    selectors: tuple[PermalinkSelector, ...]
    markers: tuple[Marker, ...]


#: cssselect parse-tree nodes that test the element itself only: their match survives the
#: removal of other elements (dropped tags, the quick-reference table) and the emptying of
#: other marks. No combinator inside them, no sibling or child-position test.
_SELF_NODES = ("Element", "Class", "Hash", "Attrib", "Negation", "Matching")


def _compound(tree: object) -> bool:
    """Whether ``tree`` tests the element itself only (see ``_SELF_NODES``)."""
    kind = type(tree).__name__
    if kind == "SpecificityAdjustment":  # :where(), translated as :is()
        kind = "Matching"
    if kind not in _SELF_NODES:
        return False
    inner = [getattr(tree, "selector", None), getattr(tree, "subselector", None)]
    inner += list(getattr(tree, "selector_list", ()))
    return all(_compound(node) for node in inner if node is not None)


def _for_text_pass(tree: object) -> bool:
    """Whether the text pass can test ``tree`` exactly: the element's own tests, and at most
    its parent's (``parent > a``). The pass reads the article root as a document of its own,
    which has no ancestor above the root: the parent of a link inside it is the root at most,
    a grandparent or an ancestor may lie beyond it."""
    if type(tree).__name__ == "CombinedSelector":
        return (
            getattr(tree, "combinator", "") == ">"
            and _compound(getattr(tree, "selector"))  # noqa: B009
            and _compound(getattr(tree, "subselector"))  # noqa: B009
        )
    return _compound(tree)


def _condition(tree: object, translator: object, subject: bool = True) -> str:
    """An XPath condition true of the context ``<a>`` exactly when it matches ``tree`` (one
    that ``_for_text_pass`` accepts, whose subject is an ``<a>``): its own tests, and its
    parent's. The subject's name test (``self::a``) is left out: the text pass tests only
    ``<a>`` elements (its template matches them; ``inside`` is ``descendant::a[...]``), and the
    test per link cost ~5% more with it."""
    if type(tree).__name__ == "CombinedSelector":
        parent = _condition(getattr(tree, "selector"), translator, subject=False)  # noqa: B009
        own = _condition(getattr(tree, "subselector"), translator, subject)  # noqa: B009
        return f"({own}) and parent::*[{parent}]"
    expression = translator.xpath(tree)  # type: ignore[attr-defined]
    if not subject:
        expression.add_name_test()
    return _WITHOUT_PRESENCE.sub(r"\2", str(expression.condition or "true()"))


#: cssselect writes a class test as ``@class and contains(@class, 'x') and ...``: the presence
#: test is implied by a ``contains`` of a non-empty literal (an absent attribute is the empty
#: string), and costs the text pass an attribute lookup per link (~0.02 s on the crawl's 164k
#: Sphinx links, ~10% of the test).
_WITHOUT_PRESENCE = re.compile(r"@(class|id) and (contains\(@\1, (?:'[^']+'|\"[^\"]+\")\))")


def _subject(tree: object) -> object:
    while type(tree).__name__ == "CombinedSelector":
        tree = getattr(tree, "subselector")  # noqa: B009
    return tree


def required_classes(tree: object) -> frozenset[str]:
    """The classes every element path matching ``tree`` (a cssselect parse tree) must carry
    somewhere in the page: a class test on the subject or on an element a combinator needs.
    Not those under ``:not``; of ``:is``/``:where``, those all of its alternatives need; none
    inside ``:has`` (its parse tree differs between cssselect versions). Any other node needs
    what its own subject needs: a class too few only costs a byte search, one too many would
    lose a match."""
    kind = type(tree).__name__
    needed: set[str] = set()
    inner = getattr(tree, "selector", None)
    if inner is not None:
        needed |= required_classes(inner)
    if kind == "Class":
        needed.add(str(getattr(tree, "class_name")))  # noqa: B009
    elif kind == "CombinedSelector":
        needed |= required_classes(getattr(tree, "subselector"))  # noqa: B009
    elif kind in ("Matching", "SpecificityAdjustment"):
        each = [required_classes(node) for node in getattr(tree, "selector_list", ())]
        needed |= frozenset.intersection(*each) if each else frozenset()
    return frozenset(needed)


@lru_cache(maxsize=64)
def permalinks(selectors: tuple[str, ...]) -> Permalinks:
    """The selectors compiled once: the text-pass test and the up-front queries."""
    from cssselect import parse
    from lxml.cssselect import CSSSelector, LxmlHTMLTranslator

    translator = LxmlHTMLTranslator()
    tests: list[str] = []
    compiled: list[PermalinkSelector] = []
    needs: list[frozenset[bytes]] = []  # per alternative of every selector list
    for css in selectors:
        parsed = parse(css)
        trees = [selector.parsed_tree for selector in parsed]
        numbers = frozenset(range(len(needs), len(needs) + len(trees)))
        needs.extend(frozenset(c.encode() for c in required_classes(tree)) for tree in trees)
        up_front: etree.XPath | None = None
        if all(
            _for_text_pass(tree)
            and translator.xpath(_subject(tree)).element == "a"
            and selector.pseudo_element is None
            for tree, selector in zip(trees, parsed, strict=True)
        ):
            tests.extend(_condition(tree, translator) for tree in trees)
        else:
            up_front = CSSSelector(css, translator="html")
        compiled.append(PermalinkSelector(css, numbers, up_front))
    names = sorted({name for need in needs for name in need}, key=lambda name: (len(name), name))
    markers = tuple(
        Marker(
            name,
            frozenset(number for number, need in enumerate(needs) if name in need),
            frozenset(short for short in names[:position] if short in name),
        )
        for position, name in enumerate(names)
    )
    test = " or ".join(f"({condition})" for condition in tests)
    return Permalinks(
        test=test,
        inside=etree.XPath(f"descendant::a[{test}]") if test else None,
        selectors=tuple(compiled),
        markers=markers,
    )


def _empty(anchor: Element) -> None:
    anchor.text = None
    for child in list(anchor):
        anchor.remove(child)


def permalinks_in(raw: bytes, selectors: Sequence[str]) -> list[PermalinkSelector]:
    """The selectors that can match in a page, by a byte search for their classes. Run on the
    bytes before they are parsed: they are then still in the CPU cache."""
    plan = permalinks(tuple(selectors))
    absent: set[bytes] = set()
    impossible: set[int] = set()  # alternatives needing an absent class
    for marker in plan.markers:  # shortest first
        if marker.needed_by <= impossible:
            continue  # every alternative needing it already lacks another class
        if not marker.holds.isdisjoint(absent) or marker.name not in raw:
            absent.add(marker.name)
            impossible |= marker.needed_by
    return [s for s in plan.selectors if not s.alternatives <= impossible]


def empty_up_front(document: Element, present: Sequence[PermalinkSelector]) -> list[str]:
    """Apply the ``present`` selectors the text pass cannot test (none of the defaults),
    emptying their anchors in place; the element and its id stay, so that in-page links to it
    still resolve. The selectors, as CSS."""
    up_front = tuple(s.up_front for s in present if s.up_front is not None)
    if up_front:  # all matched on the page as it came, then emptied
        for anchor in _union(up_front)(document):
            _empty(anchor)
    return [s.css for s in present]


@lru_cache(maxsize=64)
def _union(queries: tuple[etree.XPath, ...]) -> etree.XPath:
    return etree.XPath(" | ".join(query.path for query in queries))


def without_permalinks(element: Element, selectors: Sequence[str]) -> Element:
    """``element`` with the permalink anchors under it emptied (in place), for an element whose
    text is read on its own rather than by the section-text pass."""
    if selectors and len(element):  # a mark is an element: none under a text-only element
        inside = permalinks(tuple(selectors)).inside
        if inside is not None:
            for anchor in inside(element):
                _empty(anchor)
    return element


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
    root = find_root(document, options.article_selectors)
    title = _title(document, root, options.permalink_selectors)
    return ParsedPage(root=root, title=title, encoding=encoding, replaced=replaced, options=options)


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
        # One lookup per plain tag ("article", "main", "body"): one walk for all of them went
        # through the whole page whenever it has no <article> (0.22 s on the 1,941 pages of
        # the benchmark crawl; see ``first_element``).
        for css in selectors:
            found = first_element(document, css)
            if found is None and css == "main":
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
_MAIN_ROLE = etree.XPath("(//*[@role='main'])[1]")


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


def dropped(element: Element, drop_tags: Sequence[str]) -> bool:
    """Whether ``element`` lies inside an element whose text is never read (nav, aside, ...)."""
    return next(element.iterancestors(*drop_tags), None) is not None


def cleaned(element: Element, options: BuildOptions) -> Element:
    """``element`` with the dropped elements under it removed (in place; their tails stay) and
    its permalink anchors emptied: an element read on its own, outside the section-text pass.
    The anchors go first: the order in which the tree used to be cleaned."""
    without_permalinks(element, options.permalink_selectors)
    etree.strip_elements(element, *options.drop_tags, with_tail=False)
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
