"""Markdown page -> HTML page, for the one pipeline (parse -> sections -> quickref -> matching).

Docs repositories (MkDocs, Docusaurus, Hugo, docfx) hold ``.md`` files, not HTML. A build reads
them through ``ingest`` like HTML pages, and ``page_from_markdown`` turns each into the HTML page a
site generator would serve: CommonMark with GFM tables and strikethrough (markdown-it-py), the
front matter's ``title`` as the page title, and an id on every heading — ``{#custom-id}`` when
the heading ends with one (MkDocs ``attr_list``, Docusaurus, Hugo), else the GitHub-style slug
of its text, duplicates numbered ``-1``, ``-2`` — so ``[text](#anchor)`` links in a
quick-reference table resolve to the heading they name. Nothing else of the pipeline knows
the page was Markdown: code blocks become ``<pre>`` (dropped), so a table or a heading inside
one never counts.

markdown-it-py is imported only when a Markdown page is read: an HTML build does not load it.
"""

from __future__ import annotations

import html
import re
import tomllib
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from ..errors import DataError
from .decode import sniff_page

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_core import StateCore

#: File suffixes read as Markdown (lower case). ``.mdx`` is left out: its JSX and import lines
#: are not Markdown, and would reach the section text as words.
MARKDOWN_SUFFIXES = (".md", ".markdown")

#: markdown-it-py rules enabled on top of CommonMark: what GitHub, MkDocs and Docusaurus
#: render too (tables are what the quick-reference table is written with).
EXTRA_RULES = ("table", "strikethrough")

#: Front matter: YAML between ``---`` lines (MkDocs, Docusaurus, Jekyll, Hugo), closed by
#: ``---`` or ``...``; TOML between ``+++`` lines (Hugo). Only at the very start of the file.
_YAML_FRONT = re.compile(
    r"\A---[ \t]*\r?\n(.*?)(?:\r?\n)?^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S | re.M
)
_TOML_FRONT = re.compile(
    r"\A\+\+\+[ \t]*\r?\n(.*?)(?:\r?\n)?^\+\+\+[ \t]*(?:\r?\n|\Z)", re.S | re.M
)
#: A top-level ``title:`` of YAML front matter: plain, 'single' or "double" quoted scalar.
_YAML_TITLE = re.compile(r"^title[ \t]*:[ \t]*(.*?)[ \t]*$", re.M)

#: An attribute list at the end of a heading naming its id: ``{#custom-id}`` (Docusaurus,
#: Hugo, Pandoc) or ``{: #custom-id .class }`` (MkDocs' attr_list).
_CUSTOM_ID = re.compile(r"[ \t]*\{:?[ \t]*(?:[.\w-]+[ \t]+)*#([^\s{}]+)[^{}]*\}[ \t]*$")

#: Unicode categories a GitHub slug keeps (github-slugger drops every other character but the
#: space and '-'): letters, marks, numbers and the connector punctuation '_'.
_SLUG_KEEP = ("L", "M", "N", "Pc")


def slugify(text: str) -> str:
    """GitHub's heading slug: lower case, punctuation dropped, each space a '-', unicode
    letters kept (``"What's new in 2.0?"`` -> ``whats-new-in-20``; ``"設定 方法"`` ->
    ``設定-方法``), as github-slugger makes it."""
    kept = (
        char
        for char in text.lower()
        if char in " -" or unicodedata.category(char).startswith(_SLUG_KEEP)
    )
    return "".join(kept).replace(" ", "-")


class Slugger:
    """Unique heading ids for one page: a slug seen before gets ``-1``, ``-2`` ... (GitHub)."""

    def __init__(self, reserved: Iterable[str] = ()) -> None:
        self.used = set(reserved)
        self.counts: dict[str, int] = {}

    def unique(self, text: str) -> str:
        """The id for a heading with this text."""
        base = slugify(text)
        candidate = base
        while candidate in self.used:
            self.counts[base] = self.counts.get(base, 0) + 1
            candidate = f"{base}-{self.counts[base]}"
        self.used.add(candidate)
        return candidate


def _heading_ids(state: StateCore) -> None:
    """Core rule: give every heading its ``{#custom-id}`` (removed from the text) or slug."""
    tokens = state.tokens
    headings = [
        (tokens[i], tokens[i + 1])
        for i in range(len(tokens) - 1)
        if tokens[i].type == "heading_open" and tokens[i + 1].type == "inline"
    ]
    custom: dict[int, str] = {}
    for number, (_, inline) in enumerate(headings):
        children = inline.children or []
        if children and children[-1].type == "text":
            found = _CUSTOM_ID.search(children[-1].content)
            if found:
                custom[number] = found.group(1)
                children[-1].content = children[-1].content[: found.start()]
    slugger = Slugger(custom.values())
    for number, (opening, inline) in enumerate(headings):
        if number in custom:
            opening.attrSet("id", custom[number])
            continue
        text = "".join(
            child.content
            for child in inline.children or []
            if child.type in ("text", "code_inline")
        )
        opening.attrSet("id", slugger.unique(text))


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt  # only when a Markdown page is read

    parser = MarkdownIt("commonmark").enable(list(EXTRA_RULES))
    parser.core.ruler.push("heading_ids", _heading_ids)
    return parser


def split_front_matter(text: str) -> tuple[str | None, str]:
    """(the front matter's ``title`` or None, the Markdown after the front matter)."""
    found = _YAML_FRONT.match(text)
    if found:
        return _yaml_title(found.group(1)), text[found.end() :]
    found = _TOML_FRONT.match(text)
    if found:
        try:
            title = tomllib.loads(found.group(1)).get("title")
        except tomllib.TOMLDecodeError:
            title = None
        return (title.strip() or None) if isinstance(title, str) else None, text[found.end() :]
    return None, text


def _yaml_title(front: str) -> str | None:
    """The top-level ``title`` scalar of YAML front matter (no YAML library: a title is all a
    build reads, and it is a one-line scalar in every generator's docs)."""
    found = _YAML_TITLE.search(front)
    if not found:
        return None
    value = found.group(1)
    single = re.fullmatch(r"'((?:[^']|'')*)'(?:\s+#.*)?", value)
    double = re.fullmatch(r'"((?:[^"\\]|\\.)*)"(?:\s+#.*)?', value)
    if single:
        value = single.group(1).replace("''", "'")
    elif double:
        value = re.sub(r'\\(["\\/])', r"\1", double.group(1))
    else:
        value = re.sub(r"\s+#.*$", "", value)  # a comment after a plain scalar
    return value.strip() or None


def render(text: str) -> str:
    """A Markdown document -> a whole HTML page (UTF-8 declared), its body in ``<article>``.

    The front matter's title becomes ``<title>`` and the page header's ``<h1>`` (in
    ``<header>``, which the section text leaves out), as the site generators show it.
    """
    title, body = split_front_matter(text.lstrip("\ufeff"))
    rendered = _parser().render(body)
    head = f"<title>{html.escape(title)}</title>" if title else ""
    header = f"<header><h1>{html.escape(title)}</h1></header>\n" if title else ""
    return (
        f'<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n{head}\n</head>\n'
        f"<body>\n<article>\n{header}{rendered}</article>\n</body>\n</html>\n"
    )


def page_from_markdown(data: bytes, forced_encoding: str | None = None) -> bytes:
    """A Markdown file's bytes -> the UTF-8 bytes of its HTML page. Decoded as an HTML page
    is (BOM, the configured ``encoding``, UTF-8, detection); DataError for binary or
    undecodable bytes, which the build lists as a skipped page."""
    if not data or data.isspace():
        raise DataError("empty page")
    encoding, bom, _ = sniff_page(data, None, forced_encoding)
    text = data[bom:].decode(encoding, errors="replace")
    return render(text).encode("utf-8")


def is_markdown(name: str) -> bool:
    """Whether a file name is read as Markdown."""
    return name.lower().endswith(MARKDOWN_SUFFIXES)
