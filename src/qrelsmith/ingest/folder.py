"""Folders and single files -> pages: a site's files on disk, each read where it is processed.

A folder's pages are its HTML files or its Markdown ones, whichever kind there are more of
(``site_kind``); their ids are their paths below the folder, in sorted order.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Literal

from ..models import PassedOver
from ..page.markdown import MARKDOWN_SUFFIXES, is_markdown
from ..patterns import MAX_PAGE_BYTES
from ..store.layout import BUILD_MARKERS
from .ids import escaped_name, readable_name, safe_id
from .page import Page, error_page

HTML_SUFFIXES = (".html", ".htm")

PageKind = Literal["HTML", "Markdown"]


class Listing(list[tuple[str, str]]):
    """The pages of a folder, (relative path with "/", full path) sorted, and the count of the
    files of the other kind that were passed over (``site_kind``). A sub-folder that could
    not be read (or a link that loops back) is an entry too, its relative path ending in "/",
    with its reason in ``unread``: it becomes a skipped entry, in its place in the order."""

    passed_over: int = 0
    passed_over_kind: PageKind = "Markdown"
    unread: dict[str, str]


#: ``list_pages`` of the folders among a build's inputs, walked once for all who need them.
Listings = dict[Path, Listing]


def site_kind(html: int, markdown: int) -> PageKind:
    """The kind of page of a tree with ``html`` HTML files and ``markdown`` Markdown ones:
    whichever there are more of, HTML on a tie. The others are not pages of that site: the
    notes of an HTML crawl (README.md, CASES.md), the templates of a Markdown docs tree
    (overrides/main.html)."""
    return "Markdown" if markdown > html else "HTML"


def list_pages(root: Path) -> Listing:
    """(relative path with "/", full path) of the pages below ``root``, sorted: its HTML files
    (*.html, *.htm) or its Markdown ones (*.md, *.markdown) as ``site_kind`` chooses; the
    listing says how many of the other kind were passed over. Hidden folders (.git, .cache ...)
    and earlier build folders are passed over too. Plain string work per file: pathlib objects
    per file cost more than the walk itself.

    Symbolic links to folders are followed (a docs tree links shared pages in), except one
    that leads back to a folder it is inside (a loop), which is listed as unread, as is a
    folder that cannot be read (no permission, removed during the walk)."""
    top = os.fspath(root)
    html: list[tuple[str, str]] = []
    markdown: list[tuple[str, str]] = []
    unread: dict[str, str] = {}

    def relative(folder: str) -> str:
        inside = os.path.relpath(folder, top)
        return "" if inside == os.curdir else inside.replace(os.sep, "/") + "/"

    def cannot_read(error: OSError) -> None:
        folder = os.fspath(error.filename or top)
        unread[folder] = f"unreadable folder: {error.strerror or error}"

    for folder, dirs, files in os.walk(top, onerror=cannot_read, followlinks=True):
        here = os.path.realpath(folder)
        kept = []
        for name in sorted(dirs):
            full = os.path.join(folder, name)
            if name.startswith(".") or all(
                os.path.exists(os.path.join(full, m)) for m in BUILD_MARKERS
            ):
                continue
            if os.path.islink(full):
                target = os.path.realpath(full)
                if here == target or here.startswith(target.rstrip(os.sep) + os.sep):
                    unread[full] = "a symbolic link to a folder it is inside (a loop): not followed"
                    continue
            kept.append(name)
        dirs[:] = kept
        prefix = relative(folder)
        for name in files:
            lower = name.lower()
            if lower.endswith(HTML_SUFFIXES):
                html.append((prefix + name, os.path.join(folder, name)))
            elif lower.endswith(MARKDOWN_SUFFIXES):
                markdown.append((prefix + name, os.path.join(folder, name)))
    other_kind: PageKind
    if site_kind(len(html), len(markdown)) == "HTML":
        chosen, other, other_kind = html, markdown, "Markdown"
    else:
        chosen, other, other_kind = markdown, html, "HTML"
    folders = [(relative(full) or (Path(top).name or "root") + "/", full) for full in unread]
    listing = Listing(sorted(chosen + folders))
    listing.passed_over, listing.passed_over_kind = len(other), other_kind
    listing.unread = unread
    return listing


def passed_over(listings: Mapping[Path, Listing]) -> list[PassedOver]:
    """The input folders whose files of the other kind were not read as pages."""
    return [
        PassedOver(path=path.name, kind=listing.passed_over_kind, files=listing.passed_over)
        for path, listing in sorted(listings.items())
        if listing.passed_over
    ]


def read_listing(listing: Listing) -> Iterator[Page]:
    """The pages of a folder's listing, in its (sorted path) order; an unread sub-folder is a
    Page with ``error`` set."""
    unread = getattr(listing, "unread", {})
    for relative, full in listing:
        if full in unread:
            yield error_page(readable_name(relative), unread[full])
        else:
            yield _file_page(full, relative)


def read_folder(root: Path, limit: int = MAX_PAGE_BYTES) -> Iterator[Page]:
    """Every page ``list_pages`` finds below ``root``, in sorted path order (``limit`` applies
    where each is read: ``Page.loaded``)."""
    yield from read_listing(list_pages(root))


def read_file(path: Path, limit: int = MAX_PAGE_BYTES) -> Iterator[Page]:
    """One HTML (or Markdown) file; its id is its file name (``limit``: as ``read_folder``)."""
    yield _file_page(path, path.name)


def _file_page(path: str | Path, relative: str) -> Page:
    readable = readable_name(relative)
    return Page(
        safe_id(readable),
        readable,
        b"",
        file=os.fspath(path),
        markdown=is_markdown(readable),
        escaped=escaped_name(relative),
    )
