"""parse.py: page bytes -> the article root, or a DataError for a page to skip."""

from __future__ import annotations

import re

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
