"""sections.py: split at H2, H3 kept inside, intro dropped, exclusions (by heading and by link
density), code dropped, anchors."""

from __future__ import annotations

import re

from qrelsmith import parse_article
from qrelsmith.config import BuildOptions

PAGE = """<!doctype html><html><head><title>T | Site</title></head><body>
<header><h1>Site name</h1><nav>Home About</nav></header>
<main><article><h1>Article title</h1><p>Intro text before any H2.</p>
<h2 id="one">1. First <em>topic</em></h2><p>First body.</p>
<h3 id="sub">Detail</h3><p>Sub body <code>inline()</code>.</p>
<pre><code>print("dropped")</code></pre>
<section id="second"><h2>Second</h2><div><p>Second body.</p></div></section>
<h2>よくある質問</h2><p>Q and A</p>
<h2>参考になる設定例</h2><p>kept</p>
<h2>参考・出典</h2><p>links</p>
<h2>Summary and next steps</h2><p>gone</p>
<script>var x = "<h2>not a heading</h2>";</script>
<aside>sidebar</aside></article></main><footer>foot</footer></body></html>"""


def test_split_and_exclusions() -> None:
    article = parse_article(PAGE, "a.html")
    assert [s.heading for s in article.sections] == ["1. First topic", "Second", "参考になる設定例"]
    assert [s.id for s in article.sections] == ["a.html#0", "a.html#1", "a.html#3"]
    assert [(e.heading, e.pattern) for e in article.excluded] == [
        ("よくある質問", "よくある質問"),
        ("参考・出典", "参考"),
        ("Summary and next steps", "summary"),
    ]
    first = article.sections[0]
    assert first.subheadings == ["Detail"]
    assert first.text == "First body. Detail Sub body inline()."
    assert "dropped" not in first.text
    assert article.title == "Article title"


def test_intro_chrome_and_scripts_are_not_section_text() -> None:
    article = parse_article(PAGE, "a.html")
    everything = " ".join(s.text for s in article.sections)
    for absent in ("Intro text", "Site name", "sidebar", "foot", "not a heading", "Home"):
        assert absent not in everything


def test_anchors_belong_to_their_section() -> None:
    article = parse_article(PAGE, "a.html")
    assert article.sections[0].anchors == ["one", "sub"]
    assert article.sections[1].anchors == ["second"]


def test_a_build_reads_anchors_only_where_a_table_needs_them() -> None:
    assert all(not s.anchors for s in parse_article(PAGE, "a.html", anchors=None).sections)
    assert parse_article(PAGE, "a.html", anchors=False).sections[0].anchors == []
    linked = PAGE.replace(
        "<p>Intro text before any H2.</p>",
        "<table><tr><th>Question</th><th>Section</th></tr>"
        "<tr><td>Where?</td><td><a href='#sub'>Detail</a></td></tr></table>",
    )
    article = parse_article(linked, "a.html", anchors=None)
    assert article.table is not None
    assert article.sections[0].anchors == ["one", "sub"]


def test_an_empty_h2_keeps_its_own_id() -> None:
    """An empty H2 directly followed by another H2 keeps its id: a link to it must not land on
    its neighbour. An id just before a heading (``<a name>``, a wrapper) still names it."""
    page = (
        "<body><h2 id='empty'></h2><h2 id='next'>Next</h2><p>t</p>"
        "<h2 id='sub-empty'>Third</h2><h3 id='h3-empty'></h3><h2 id='last'>Last</h2><p>u</p>"
        "<a name='before'></a><h2>Named</h2><p>v</p></body>"
    )
    sections = parse_article(page, "p.html").sections
    assert [(s.heading, s.anchors) for s in sections] == [
        ("", ["empty"]),
        ("Next", ["next"]),
        ("Third", ["sub-empty", "h3-empty"]),
        ("Last", ["last"]),
        ("Named", ["before"]),
    ]


def test_an_anchor_with_both_id_and_name_gives_both() -> None:
    page = "<body><h2>One</h2><p><a id='x' name='y'>here</a></p><h2>Two</h2><p>t</p></body>"
    assert parse_article(page, "p.html").sections[0].anchors == ["x", "y"]


def test_dropped_elements_lose_their_headings_tables_and_text() -> None:
    page = """<body><article><h1>Title<button>Copy link</button></h1>
    <nav><h2>On this page</h2><table><tr><th>Question</th><th>Section</th></tr>
    <tr><td>Where?</td><td>Two</td></tr></table></nav>
    <h2>One<button>#</button></h2><p>first <svg><text>icon</text></svg>text</p>
    <aside><h2>Related</h2></aside>
    <h2>Two</h2><p>second</p></article></body>"""
    article = parse_article(page, "d.html")
    assert article.table is None  # the table inside <nav> is page chrome
    assert [(s.id, s.heading, s.text) for s in article.sections] == [
        ("d.html#0", "One", "first text"),
        ("d.html#1", "Two", "second"),
    ]


def test_a_root_that_is_a_drop_tag_still_gives_its_text() -> None:
    page = "<body><aside><h2>Kept</h2><p>text <nav>menu</nav></p></aside></body>"
    options = BuildOptions(article_selectors=["aside"])
    assert [(s.heading, s.text) for s in parse_article(page, "r.html", options).sections] == [
        ("Kept", "text")
    ]


def test_section_level_is_configurable() -> None:
    article = parse_article(PAGE, "a.html", BuildOptions(section_level=3))
    assert [s.heading for s in article.sections] == ["Detail"]


def test_root_selector_falls_back_to_body() -> None:
    article = parse_article("<html><body><h2>Only</h2><p>text</p></body></html>", "b.html")
    assert [(s.heading, s.text) for s in article.sections] == [("Only", "text")]


def test_root_and_title_found_whatever_the_case_of_their_tags() -> None:
    page = """<HTML><Head><TITLE>Site | Page</TITLE></Head><BODY><H1>Site header</H1>
    <nav>menu</nav><MaIn><H1>Page title</H1><H2>Only</H2><P>kept</P></MaIn>
    <H2>Outside</H2><p>not in the article</p></BODY></HTML>"""
    article = parse_article(page, "c.html")
    assert article.title == "Page title"
    assert [(s.heading, s.text) for s in article.sections] == [("Only", "kept")]


def test_a_page_without_body_or_title_tags_still_has_a_root_and_a_title() -> None:
    article = parse_article("<h1>Bare</h1><h2>One</h2>text", "bare.html")
    assert article.title == "Bare"
    assert [(s.heading, s.text) for s in article.sections] == [("One", "text")]
    untitled = parse_article("<h2>One</h2><p>text</p>", "untitled.html")
    assert untitled.title == ""


# Link-only sections, shaped as on the dev set's Microsoft docs (Markdown rendered to HTML).
LINKS_EN = """<html><body><article><h1>Configure logging</h1><p>Intro.</p>
<h2 id="providers">Logging providers</h2>
<p>A provider writes logs to a destination. The <a href="/api/ilogger">ILogger</a> interface is
the entry point; see <a href="https://example.com/serilog">Serilog</a> for a third-party one, and
<a href="#filters">filters</a> below.</p>
<h2 id="filters">Log filters</h2><p>Filters choose the minimum level per category.</p>
<h2 id="next">Where to go from here</h2>
<ul><li><a href="/aspnetcore/fundamentals/host">Generic host in ASP.NET Core</a></li>
<li><a href="/aspnetcore/fundamentals/configuration">Configuration in ASP.NET Core</a></li>
<li><a href="/dotnet/core/extensions/logging-providers">Logging providers in .NET</a></li></ul>
<h2>See also</h2><ul><li><a href="/a">High-performance logging</a></li></ul>
</article></body></html>"""

LINKS_JA = """<html><body><article><h1>コード メトリクス</h1>
<h2>メトリクスを生成する</h2><p>[分析] メニューの <a href="/ja/metrics">コード メトリクスの計算</a>
を選ぶと、ソリューション全体の値が表示されます。保守容易性インデックスは 0 から 100 の値です。</p>
<h2>情報の入手方法</h2><p><a href="/ja/intellitrace-use">保存された IntelliTrace データの使用</a></p>
<p><a href="/ja/intellitrace">IntelliTrace</a></p>
<h3>ブログ</h3><p><a href="https://blogs.example.com/a">IntelliTrace 収集計画の作成およびカスタマイズ</a></p>
<p><a href="https://blogs.example.com/b">運用サーバーでの IntelliTrace 収集の最適化</a></p>
<h3>フォーラム</h3><p><a href="https://forums.example.com/vs">Visual Studio デバッガー</a></p>
<h2>関連項目</h2><p>説明のある文章がここに少しだけあります。</p>
</article></body></html>"""


def test_link_dense_section_is_excluded_by_density_and_says_so() -> None:
    article = parse_article(LINKS_EN, "en/logging.html")
    assert [s.heading for s in article.sections] == ["Logging providers", "Log filters"]
    by_heading = {e.heading: e for e in article.excluded}
    nxt = by_heading["Where to go from here"]
    assert (nxt.why, nxt.pattern, nxt.link_density) == ("links", None, 1.0)
    see_also = by_heading["See also"]
    assert (see_also.why, see_also.pattern, see_also.link_density) == ("heading", "see also", None)


def test_a_section_with_a_few_links_keeps_them_as_text() -> None:
    providers = parse_article(LINKS_EN, "en/logging.html").sections[0]
    assert (
        "The ILogger interface is the entry point; see Serilog for a third-party one"
        in providers.text
    )
    assert "\ue001" not in providers.text and "\ue002" not in providers.text


def test_japanese_link_list_by_density_and_kanren_koumoku_by_name() -> None:
    article = parse_article(LINKS_JA, "ja/metrics.html")
    assert [s.heading for s in article.sections] == ["メトリクスを生成する"]
    assert "コード メトリクスの計算 を選ぶと" in article.sections[0].text
    found = [(e.heading, e.why, e.pattern, e.link_density) for e in article.excluded]
    # the subheadings ブログ / フォーラム are the only characters outside links
    assert found == [
        ("情報の入手方法", "links", None, 0.93),
        ("関連項目", "heading", "関連項目", None),
    ]


def test_in_page_links_do_not_count_so_unwrapping_them_changes_nothing() -> None:
    toc = """<body><h2>On this page</h2><ul><li><a href="#a">Install the package and configure it</a></li>
    <li><a href="#b">Run the service</a></li></ul><h2 id="a">A</h2><p>a</p></body>"""
    unwrapped = re.sub(r"<a href=\"#\w+\">(.*?)</a>", r"\1", toc)
    for page in (toc, unwrapped):
        assert [s.heading for s in parse_article(page, "t.html").sections] == ["On this page", "A"]


def test_link_only_density_zero_keeps_link_lists() -> None:
    options = BuildOptions(link_only_density=0)
    article = parse_article(LINKS_EN, "en/logging.html", options=options)
    assert "Where to go from here" in [s.heading for s in article.sections]
    assert article.sections[-1].text.startswith("Generic host in ASP.NET Core")


def test_a_page_cannot_forge_link_marks() -> None:
    page = "<body><h2>One</h2><p>\ue001plain text that is not a link at all\ue002</p></body>"
    article = parse_article(page, "f.html")
    assert article.sections[0].text == "plain text that is not a link at all"


def test_a_reference_heading_is_content_and_references_are_excluded() -> None:
    """ "Reference" alone or with words after it heads API and protocol sections in technical
    manuals (Python's "Reference counts", git's "Reference discovery"); a bibliography is
    "References"."""
    page = (
        "<article><h1>T</h1>"
        + "".join(
            f"<h2>{heading}</h2><p>Some body text about it.</p>"
            for heading in (
                "Reference",
                "Reference counts",
                "Reference discovery",
                "References",
                "References and further reading",
            )
        )
        + "</article>"
    )
    article = parse_article(page, "r.html")
    assert [s.heading for s in article.sections] == [
        "Reference",
        "Reference counts",
        "Reference discovery",
    ]
    assert [(e.heading, e.pattern) for e in article.excluded] == [
        ("References", "references"),
        ("References and further reading", "references"),
    ]


def test_only_an_a_with_an_href_off_the_page_is_marked_as_a_link() -> None:
    # one template reads every <a>: an <a name> without href wraps text, "#..." stays on the
    # page, an empty href (or any other) leaves it; a permalink keeps its marks, not its text
    from lxml import etree

    from qrelsmith.page.sections import marked_text
    from qrelsmith.patterns import LINK_CLOSE, LINK_OPEN, MARK

    page = """<div><p><a name="n">named</a> <a href="#x">here</a> <a href="o.html">away</a>
    <a href="">empty</a> <a class="headerlink" href="#h">P1</a>
    <a class="headerlink" href="o.html#h">P2</a></p></div>"""
    root = etree.fromstring(page, etree.HTMLParser()).find(".//div")
    for ids in (False, True):
        for selectors in ((), ("a.headerlink",)):
            text = marked_text(root, ids=ids, permalink_selectors=selectors)
            words = " ".join(text.replace(MARK, " ").split())
            assert text.split()[0] == (f"{MARK}#n{MARK}named" if ids else "named")
            links = re.findall(f"{LINK_OPEN}([^{LINK_CLOSE}]*){LINK_CLOSE}", text)
            assert links == ["away", "empty", "" if selectors else "P2"], (ids, selectors)
            assert ("P1" in words) == (not selectors)


def test_link_density_counts_the_prose_before_the_first_link_without_its_white_space() -> None:
    from qrelsmith.page.sections import link_density
    from qrelsmith.patterns import LINK_CLOSE, LINK_ONLY_MAX_OTHER_CHARS, LINK_OPEN

    links = "".join(f"{LINK_OPEN}page {n}{LINK_CLOSE} " for n in range(40))
    # a long run of white space before few characters: not prose, the links decide
    assert link_density(" \n" * 400 + "x" * 50 + " " + links) == 0.82
    # the limit's worth of characters, spread past the first few hundred: prose
    spread = "a" + " " * 1000 + "b" * LINK_ONLY_MAX_OTHER_CHARS
    assert link_density(spread + " " + links) is None
    assert link_density(spread[:-1] + " " + links) is not None


def _outline(body: str, **options: object) -> list[tuple[int, int, str]]:
    """(at, level, text) of the first section's sub-headings, each checked against its text."""
    html = f"<html><body><article><h1>T</h1>{body}</article></body></html>"
    section = parse_article(html, "a.html", BuildOptions(**options)).sections[0]  # type: ignore[arg-type]
    for place in section.outline:
        assert section.text[place.at : place.at + len(place.text)] == place.text
    return [(place.at, place.level, place.text) for place in section.outline]


def test_sub_headings_are_placed_in_the_folded_text_with_their_levels() -> None:
    body = (
        "<h2>Top</h2><h3>First</h3><p>Body  text\n with <a href='https://x.example/'>a link"
        "</a>.</p><h4>Deep <code>er</code></h4><h3>Next</h3><h3>Adjacent</h3><p>tail</p>"
        "<h5>Last</h5>"
    )
    # at 0 (first in the section), a link and folded spaces before one, two adjacent, at the end
    assert _outline(body) == [
        (0, 3, "First"),
        (29, 4, "Deep er"),
        (37, 3, "Next"),
        (42, 3, "Adjacent"),
        (56, 5, "Last"),
    ]
    page = parse_article(f"<html><body><h1>T</h1>{body}</body></html>", "a.html")
    assert page.sections[0].text.endswith(" tail Last")


def test_sub_headings_without_text_and_after_code_are_placed_right() -> None:
    body = (
        "<h2>Top</h2><p>x</p><pre>dropped()</pre><h3><img alt='i'></h3><h3>  Spaced\t"
        "<em>out</em> </h3><p>\u200bzero width</p><h3>Ok</h3>"
    )
    assert _outline(body) == [(2, 3, "Spaced out"), (24, 3, "Ok")]


def test_a_deeper_split_level_places_the_headings_below_it() -> None:
    body = "<h2>Part</h2><h3>Top</h3><p>a</p><h4>Under</h4><p>b</p>"
    assert _outline(body, section_level=3) == [(2, 4, "Under")]


def test_text_folded_at_sub_headings_is_the_text_folded_whole() -> None:
    body = (
        "<h2>Top</h2><h3>Zero</h3><p>a\u200b b\u00a0\u00a0c <a href='https://x.example/'>link</a>\x0b</p>"
        "<h3> One\u00ad </h3><p>\u3000d\x01e</p><h4>Two</h4><h3>Three <a href='/y'>y</a></h3>"
        "<p>f\u2060 g</p>"
    )
    with_headings = parse_article(f"<html><body>{body}</body></html>", "a.html").sections[0]
    as_text = parse_article(
        "<html><body>" + re.sub(r"<(/?)h[34]>", r"<\1p>", body) + "</body></html>", "a.html"
    ).sections[0]
    assert as_text.outline == [] and len(with_headings.outline) == 4
    assert with_headings.text == as_text.text
