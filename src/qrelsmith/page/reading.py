"""The text of an element as the stages read it: without its permalinks, without the dropped
elements.

Sections, the quick-reference table (every cell) and the other readers of a page's text read
elements through here, so a heading's permalink mark ("¶", "#") or a ``<nav>`` inside a cell
never reaches a comparison. Two ways, one set of selectors (``build.permalink_selectors``):
the section-text pass of ``sections.py`` tests each link it meets against ``Permalinks.test``;
an element read on its own (the title, a heading, a table's rows) is ``cleaned`` or passed
through ``without_permalinks`` first. ``permalinks_in`` keeps, per page, only the selectors whose
classes its bytes hold, and ``empty_up_front`` applies those the text pass cannot test.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree
from lxml.etree import _Element as Element

from ..config import BuildOptions


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
