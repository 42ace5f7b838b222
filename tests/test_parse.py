"""parse.py: page bytes -> the article root, or a DataError for a page to skip."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from qrelsmith.config import BuildOptions
from qrelsmith.errors import DataError
from qrelsmith.page.parse import find_root, parse_html, remove_element
from qrelsmith.page.reading import without_permalinks
from qrelsmith.patterns import PERMALINK_SELECTORS

OPTIONS = BuildOptions()


def test_the_article_root_and_title() -> None:
    page = parse_html(
        b"<html><head><title>Site</title></head><body><nav>menu</nav>"
        b"<main><h1>Guide</h1><p>text</p></main></body></html>",
        OPTIONS,
    )
    assert page.root.tag == "main" and page.title == "Guide" and page.encoding == "utf-8"


@pytest.mark.parametrize(
    ("data", "reason"),
    [(b"", "empty page"), (b"   \n", "empty page"), (b"just words", "not HTML (no markup)")],
)
def test_pages_that_must_be_skipped(data: bytes, reason: str) -> None:
    with pytest.raises(DataError, match=re.escape(reason)):
        parse_html(data, OPTIONS)


def test_a_declared_encoding_is_read() -> None:
    page = parse_html('<meta charset="shift_jis"><h1>早見表</h1>'.encode("cp932"), OPTIONS)
    assert page.title == "早見表" and page.encoding == "cp932"


def test_find_root_takes_the_first_selector_that_matches() -> None:
    document = etree.fromstring(
        "<html><body><div class='post'>x</div><main>y</main></body></html>", etree.HTMLParser()
    )
    assert find_root(document, ["article", "main", "body"]).tag == "main"
    assert find_root(document, ["div.post", "main"]).get("class") == "post"
    assert find_root(document, ["article"]) is document


def test_remove_element_keeps_the_text_after_it() -> None:
    root = etree.fromstring(
        "<div><p>a</p><table><tr><td>t</td></tr></table>tail</div>", etree.HTMLParser()
    ).find(".//div")
    remove_element(root.find("table"))
    assert etree.tostring(root, encoding=str) == "<div><p>a</p>tail</div>"


# ---------------------------------------------------------------- heading permalink marks

PERMALINKS = Path(__file__).parent / "fixtures" / "permalinks"
GENERATORS = sorted(p.stem for p in PERMALINKS.glob("*.html"))


@pytest.mark.parametrize("generator", GENERATORS)
def test_permalink_marks_of_each_generator_stay_out_of_the_text(generator: str) -> None:
    from qrelsmith import article_queries, parse_article

    article = parse_article((PERMALINKS / f"{generator}.html").read_bytes(), f"{generator}.html")
    assert [s.heading for s in article.sections] == ["Pool size", "Broken connections"]
    assert article.title.startswith(("Connection pools", "README.md"))
    texts = (
        [article.title] + [s.heading for s in article.sections] + [s.text for s in article.sections]
    )
    for text in texts:
        assert not {"¶", "#", "\u200b"} & set(text), (generator, text)
    queries, rejected = article_queries(article)
    assert not rejected
    assert [list(q.relevant) for q in queries] == [
        [f"{generator}.html#0"],
        [f"{generator}.html#1"],
    ]


def test_permalink_ids_stay_and_anchor_links_in_text_are_kept() -> None:
    from qrelsmith import parse_article

    github = parse_article((PERMALINKS / "github.html").read_bytes(), "g.html", anchors=True)
    assert "user-content-pool-size" in github.sections[0].anchors  # the element is emptied only
    hugo = parse_article((PERMALINKS / "hugo.html").read_bytes(), "h.html")
    assert hugo.sections[1].text.endswith("The pool size section says how many.")


def test_permalink_selectors_are_configurable() -> None:
    from qrelsmith import parse_article
    from qrelsmith.config import BuildOptions

    # a glyph of no permalink convention, so that only the selectors decide what is read
    page = (PERMALINKS / "sphinx.html").read_bytes().replace("¶".encode(), b"[link]")
    kept = parse_article(page, "s.html", BuildOptions(permalink_selectors=[]))
    assert [s.heading for s in kept.sections] == ["Pool size[link]", "Broken connections[link]"]
    own = BuildOptions(permalink_selectors=["dt.sig > a.headerlink"])  # only the API ones
    signature = parse_article(page, "s.html", own)
    assert signature.sections[0].heading == "Pool size[link]"
    assert "[link]" not in signature.sections[0].text.replace("Pool size[link]", "")


@pytest.mark.parametrize("generator", GENERATORS)
def test_every_permalink_anchor_of_each_generator_is_emptied(generator: str) -> None:
    # Some marks (Docusaurus' zero-width space, GitHub's octicon) never reach the text anyway;
    # the elements themselves must still be found and emptied. The text pass leaves them out
    # where it meets them; an element read on its own is emptied by ``without_permalinks``,
    # with the selectors the page's bytes can match.
    page = parse_html((PERMALINKS / f"{generator}.html").read_bytes(), BuildOptions())
    assert page.options is not None
    without_permalinks(page.root, page.options.permalink_selectors)
    marks = [
        a
        for a in page.root.iter("a")
        if (a.get("href") or "").startswith("#") and a.getparent().tag != "td"
    ]
    marks = [a for a in marks if "pool size" not in (a.text or "")]  # hugo's link in text
    assert marks and all(a.text is None and not len(a) for a in marks), generator


SELECTOR_PAGE = """<html><body><div class="doc"><h2 id="x">Pool<a class="headerlink x"
href="#x">P1</a></h2><dl><dt class="sig">f<a class="headerlink" href="#f">P2</a></dt></dl>
<p><a class=" headerlinks" href="#n">no</a><a class="HeaderLink" href="#n">no</a>
<a id="i" href="#i">P3</a><span class="headerlink">P4</span></p>
<div class="markdown-heading"><h2>G</h2><a class="anchor" href="#g">P5</a></div>
<h3>T<a class="anchor" href="#t">P6</a></h3><h4><span><a class="anchor" href="#s">no</a></span>
</h4><a class="anchor" href="#o">no</a></div></body></html>"""


@pytest.mark.parametrize(
    "css",
    [
        *PERMALINK_SELECTORS,
        "a.headerlink.x",
        "dt.sig > a.headerlink",
        "h3 > a.anchor",  # the parent's name test stays (the link's own is implied)
        "a#i",
        "a[href='#f']",
        "a:not(.x).headerlink",
        ":where(h2, dt) > a",
        "a",
    ],
)
def test_a_selector_read_with_the_text_matches_what_css_matches(css: str) -> None:
    from lxml.cssselect import CSSSelector

    from qrelsmith.page.reading import permalinks

    document = etree.fromstring(SELECTOR_PAGE, etree.HTMLParser())
    compiled = permalinks((css,))
    assert compiled.inside is not None, css  # read with the text, not emptied up front
    found = [a.text for a in compiled.inside(document)]
    assert found == [a.text for a in CSSSelector(css, translator="html")(document)]


@pytest.mark.parametrize(
    "css",
    [
        "span.headerlink",
        "h2 + a.anchor",
        "p > a:first-child",
        "div.doc a.headerlink",
        "body > div h2 > a",
        "dl > dt > a",
        "a:not(h2 a)",
    ],
)
def test_other_selectors_are_emptied_up_front(css: str) -> None:
    # their match would change as dropped elements and the table leave the tree, they look
    # beyond the parent (which the text pass, reading the article root alone, may not see), or
    # their subject is no link: the text pass cannot test them
    from lxml.cssselect import CSSSelector

    from qrelsmith.page.reading import permalinks

    assert permalinks((css,)).inside is None
    page = parse_html(SELECTOR_PAGE, BuildOptions(permalink_selectors=[css]))
    expected = etree.fromstring(SELECTOR_PAGE, etree.HTMLParser())
    matched = CSSSelector(css, translator="html")(expected)
    assert matched
    emptied = CSSSelector(css, translator="html")(page.root)
    assert emptied and all(e.text is None and not len(e) for e in emptied)


def test_a_selector_naming_an_ancestor_above_the_article_root_still_counts() -> None:
    # the Sphinx page has no <article>/<main>: its root is <body>, and "html" lies above it
    from qrelsmith import parse_article

    page = (PERMALINKS / "sphinx.html").read_bytes()
    article = parse_article(page, "s.html", BuildOptions(permalink_selectors=["html a.headerlink"]))
    assert [s.heading for s in article.sections] == ["Pool size", "Broken connections"]


@pytest.mark.parametrize(
    ("css", "needs"),
    [
        ("a.headerlink", [{"headerlink"}]),
        (".markdown-heading > a.anchor", [{"markdown-heading", "anchor"}]),
        (":is(h1, h2) > a.anchor", [{"anchor"}]),
        ("a.x:not(.headerlink)", [{"x"}]),  # a negated class is no need
        (":is(a.p.q, a.p)", [{"p"}]),  # what every alternative of :is needs
        ("a.b, a.c", [{"b"}, {"c"}]),  # a selector list: one need per alternative
        ("a.k:has(> span.y)", [{"k"}]),  # nothing read inside :has
        ("a[class~=q]", [set()]),  # an attribute test is not read as a class
    ],
)
def test_the_classes_a_selector_needs_in_the_page(css: str, needs: list[set[str]]) -> None:
    from cssselect import parse

    from qrelsmith.page.reading import required_classes

    assert [required_classes(selector.parsed_tree) for selector in parse(css)] == needs


def _kept_one_search_per_class(raw: bytes, selectors: tuple[str, ...]) -> list[str]:
    """The selectors whose classes (all of them, for one alternative at least) the bytes
    hold, by a search for each: what ``permalinks_in``' plan must keep."""
    from cssselect import parse

    from qrelsmith.page.reading import required_classes

    return [
        css
        for css in selectors
        if any(
            all(name.encode() in raw for name in required_classes(selector.parsed_tree))
            for selector in parse(css)
        )
    ]


PLAN_PAGES = [*GENERATORS, "sphinx+github", "anchor-only", "markdown-heading-only", "none"]


def _plan_page(name: str) -> bytes:
    if name in GENERATORS:
        return (PERMALINKS / f"{name}.html").read_bytes()
    pages = {
        "sphinx+github": (PERMALINKS / "sphinx.html").read_bytes()
        + (PERMALINKS / "github.html").read_bytes(),
        "anchor-only": b'<h2>A<a class="anchor" href="#a">#</a></h2>',
        "markdown-heading-only": b'<div class="markdown-heading"><h2>A</h2></div>',
        "none": b"<p>nothing: headerlin, hash link, anchorjs</p>",
    }
    return pages[name]


@pytest.mark.parametrize("name", PLAN_PAGES)
def test_the_byte_search_keeps_the_selectors_a_search_per_class_keeps(name: str) -> None:
    # permalinks_in skips the search for a class once every alternative needing it lacks
    # another one, and takes a class holding an absent shorter one as absent: the same answer
    # as one search per class, with fewer searches. On a generator's page it keeps every
    # selector that matches there.
    from lxml.cssselect import CSSSelector

    from qrelsmith.page.reading import empty_up_front, permalinks_in

    raw = _plan_page(name)
    document = etree.fromstring(raw, etree.HTMLParser())
    kept = empty_up_front(document, permalinks_in(raw, PERMALINK_SELECTORS))
    assert kept == _kept_one_search_per_class(raw, PERMALINK_SELECTORS)
    matching = [css for css in PERMALINK_SELECTORS if CSSSelector(css, translator="html")(document)]
    assert set(matching) <= set(kept)
    if name in GENERATORS:
        assert matching, name  # each generator's page has the marks of one selector at least


def test_a_selector_is_kept_where_its_other_classes_are_absent() -> None:
    # "a.x:not(.longer-class)" needs the class x only: a page without "longer-class" still
    # has its marks (the longest class named was once taken as the one the page must hold)
    page = '<article><h2>Pool<a class="x" href="#p">P1</a></h2><p>text</p></article>'
    options = BuildOptions(permalink_selectors=["a.x:not(.longer-class)"])
    parsed = parse_html(page, options)
    assert parsed.options is not None
    assert parsed.options.permalink_selectors == ["a.x:not(.longer-class)"]
    from qrelsmith import parse_article

    assert [s.heading for s in parse_article(page, "p.html", options).sections] == ["Pool"]


def test_pages_with_the_same_selectors_share_one_narrowed_options() -> None:
    # a copy of the options per page cost 18 us; the narrowed options are made once per set
    options = BuildOptions()
    first = parse_html((PERMALINKS / "sphinx.html").read_bytes(), options).options
    again = parse_html((PERMALINKS / "sphinx.html").read_bytes(), options).options
    other = parse_html((PERMALINKS / "github.html").read_bytes(), options).options
    assert first is again and first is not None and other is not None
    assert first.permalink_selectors == ["a.headerlink"]
    assert other.permalink_selectors != first.permalink_selectors
    assert first.model_dump(exclude={"permalink_selectors"}) == options.model_dump(
        exclude={"permalink_selectors"}
    )


def _tree(spec: str) -> etree._Element:
    return etree.fromstring(spec)  # XML, so that any element may hold any other


@pytest.mark.parametrize(
    "spec",
    [
        "<html><head/><body><p/></body></html>",
        "<html><head><body id='in-head'/></head><body id='second'/></html>",
        "<html><x><y><body id='deep'/></y></x><body id='child'/></html>",
        "<body id='root'><body id='inner'/></body>",
        "<html><div><p/></div><div><body id='only-deep'/></div></html>",
        "<html><head/></html>",
    ],
)
def test_first_element_is_the_first_in_document_order(spec: str) -> None:
    # first_element looks among the root's children before walking: the same element as the
    # first one a walk of the tree meets
    from qrelsmith.page.parse import first_element

    root = _tree(spec)
    assert first_element(root, "body") is next(root.iter("body"), None)


def test_the_title_is_the_first_h1_with_text_after_an_empty_one() -> None:
    page = (
        '<html><head><title>Site</title></head><body><h1><a class="headerlink" href="#t">¶</a>'
        "</h1><p>x</p><h1>Real title</h1><h2>A</h2><p>y</p></body></html>"
    )
    assert parse_html(page, BuildOptions()).title == "Real title"


def test_a_permalink_glyph_left_in_a_heading_s_text_is_no_part_of_it() -> None:
    # a crawl that unwrapped its in-page links leaves the anchors' glyphs as text
    from qrelsmith import match_reference, parse_article

    html = (
        "<article><h2>Startup probes#</h2><p>t</p><h2>RDB snapshots¶</h2><p>t</p>"
        "<h2>Probe handlers #</h2><h3>httpGet🔗</h3><p>t</p><h2>Using C#</h2><p>t</p>"
        "<h2>F#</h2><p>t</p></article>"
    )
    article = parse_article(html, "page.html")
    assert [s.heading for s in article.sections] == [
        "Startup probes",
        "RDB snapshots",
        "Probe handlers",
        "Using C#",
        "F#",
    ]
    assert article.sections[2].subheadings == ["httpGet"]
    assert match_reference("Startup probes", article).rule == "exact"
