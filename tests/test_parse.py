"""parse.py: page bytes -> the article root, or a DataError for a page to skip."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from qrelsmith.config import BuildOptions
from qrelsmith.errors import DataError
from qrelsmith.parse import find_root, parse_html, remove_element

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

    page = (PERMALINKS / "sphinx.html").read_bytes()
    kept = parse_article(page, "s.html", BuildOptions(permalink_selectors=[]))
    assert [s.heading for s in kept.sections] == ["Pool size¶", "Broken connections¶"]
    own = BuildOptions(permalink_selectors=["dt.sig > a.headerlink"])  # only the API ones
    signature = parse_article(page, "s.html", own)
    assert signature.sections[0].heading == "Pool size¶"
    assert "¶" not in signature.sections[0].text.replace("Pool size¶", "")


@pytest.mark.parametrize("generator", GENERATORS)
def test_every_permalink_anchor_of_each_generator_is_emptied(generator: str) -> None:
    # Some marks (Docusaurus' zero-width space, GitHub's octicon) never reach the text anyway;
    # the elements themselves must still be found and emptied.
    page = parse_html((PERMALINKS / f"{generator}.html").read_bytes(), BuildOptions())
    marks = [
        a
        for a in page.root.iter("a")
        if (a.get("href") or "").startswith("#") and a.getparent().tag != "td"
    ]
    marks = [a for a in marks if "pool size" not in (a.text or "")]  # hugo's link in text
    assert marks and all(a.text is None and not len(a) for a in marks), generator
