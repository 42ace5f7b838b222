"""Page bytes -> an lxml tree of the article: decoded, rooted, chrome and code dropped.

lxml does the parsing (BeautifulSoup over lxml costs about 10x the bare parse, which a large
crawl cannot afford); decoding is ``decode.py``'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import lxml.html
from lxml import etree
from lxml.cssselect import CSSSelector

from .config import BuildOptions
from .decode import sniff
from .errors import DataError
from .text import fold_space

_LOOKS_LIKE_MARKUP = re.compile(rb"<\s*[a-zA-Z!]")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>")


@dataclass(frozen=True, slots=True)
class ParsedPage:
    """The article root (already cleaned) and the page's title."""

    root: lxml.html.HtmlElement
    title: str
    encoding: str


@lru_cache(maxsize=64)
def _selector(css: str) -> CSSSelector:
    return CSSSelector(css)


def _title(document: lxml.html.HtmlElement, root: lxml.html.HtmlElement) -> str:
    """The article's H1, else the page's <title>, else any H1 (site headers carry one too)."""
    for element, path in ((root, ".//h1"), (document, "//title"), (document, "//h1")):
        for found in element.xpath(path):
            text = fold_space(found.text_content())
            if text:
                return text
    return ""


def parse_html(
    data: bytes | str, options: BuildOptions, http_charset: str | None = None
) -> ParsedPage:
    """Decode and parse a page, find its article root and drop what is never section text.

    Raises DataError (empty, binary, undecodable, not HTML) for pages the build must skip.
    """
    if isinstance(data, str):
        text = _XML_DECLARATION.sub("", data)
        if not text.strip():
            raise DataError("empty page")
        raw = text.encode("utf-8")
        encoding = "utf-8"
    else:
        if not data.strip():
            raise DataError("empty page")
        encoding, bom = sniff(data, http_charset, options.encoding)
        raw = data[bom:]
        if encoding != "utf-8":
            raw = raw.decode(encoding, errors="replace").encode("utf-8")
    if not _LOOKS_LIKE_MARKUP.search(raw[:65536]):
        raise DataError("not HTML (no markup)")
    parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True)
    try:
        document = lxml.html.document_fromstring(raw, parser=parser)
    except (etree.ParserError, ValueError) as exc:
        raise DataError(f"unparsable HTML: {exc}") from exc
    root = find_root(document, options.article_selectors)
    title = _title(document, root)
    etree.strip_elements(root, *options.drop_tags, with_tail=False)
    return ParsedPage(root=root, title=title, encoding=encoding)


def find_root(document: lxml.html.HtmlElement, selectors: list[str]) -> lxml.html.HtmlElement:
    """The first element matching the first selector that matches; the document otherwise."""
    for css in selectors:
        found = _selector(css)(document)
        if found:
            element: lxml.html.HtmlElement = found[0]
            return element
    return document
