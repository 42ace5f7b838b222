"""Inputs -> pages: (article id, path, url, bytes). Folders, files, WARC and JSONL crawls.

One reader per kind of input, in ``READERS``, picked by ``input_kind``: ``folder.py`` (a site's
folder, or one file), ``warc.py`` (``.warc``, ``.warc.gz``), ``jsonl.py`` (``.jsonl``,
``.jsonl.gz``). Article ids come from the page's path relative to the crawl folder (or its
URL, ``ids.py``), never from crawl order, so adding a page renumbers nothing else. A record
that cannot be read becomes a Page with ``error`` set, never an exception, so one broken
record costs that page only.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from ..errors import UsageError
from ..patterns import MAX_PAGE_BYTES
from .folder import (
    HTML_SUFFIXES,
    Listing,
    Listings,
    list_pages,
    passed_over,
    read_file,
    read_folder,
    read_listing,
)
from .ids import readable_name, safe_id, spaceless_id, url_id
from .jsonl import read_jsonl_pages
from .page import Page
from .warc import read_warc

__all__ = [
    "CRAWL_FILES",
    "HTML_SUFFIXES",
    "READERS",
    "Listing",
    "Listings",
    "Page",
    "Reader",
    "check_paths",
    "count_pages",
    "crawl_bytes",
    "folder_listings",
    "folder_prefixes",
    "in_id_order",
    "input_kind",
    "iter_pages",
    "list_pages",
    "passed_over",
    "read_file",
    "read_folder",
    "read_jsonl_pages",
    "read_warc",
    "readable_name",
    "reader_for",
    "safe_id",
    "spaceless_id",
    "url_id",
]

#: A reader: (path, page cap in bytes) -> pages. A crawl file's reader holds no page over the
#: cap; a folder's pages are read where they are processed, which applies it (``Page.loaded``).
Reader = Callable[[Path, int], Iterator[Page]]

#: Input readers by kind; ``reader_for`` picks one from the path (``.warc``, ``.warc.gz``,
#: ``.jsonl``, ``.jsonl.gz``; a folder; any other file is one HTML page, or one Markdown page
#: by its suffix, ``Page.markdown``).
READERS: dict[str, Reader] = {
    "folder": read_folder,
    "html": read_file,
    "warc": read_warc,
    "jsonl": read_jsonl_pages,
}


#: Kinds of crawl file: read in the crawler's order, their size known before their page count.
CRAWL_FILES = ("warc", "jsonl")


def input_kind(path: Path) -> str:
    """The kind of an input path, a key of ``READERS``: "folder", a crawl file by its suffix
    (``.warc``, ``.warc.gz``, ``.jsonl``, ``.jsonl.gz``), else "html" (a single page; a
    ``.md`` one is rendered first, ``Page.markdown``)."""
    if path.is_dir():
        return "folder"
    name = path.name.lower()
    for kind in CRAWL_FILES:
        if name.endswith((f".{kind}", f".{kind}.gz")):
            return kind
    return "html"


def reader_for(path: Path) -> Reader:
    """The reader for a path (``input_kind``)."""
    return READERS[input_kind(path)]


def check_paths(paths: Sequence[str | Path]) -> list[Path]:
    """The input paths, or UsageError naming the first that does not exist."""
    if not paths:
        raise UsageError("no input path given")
    checked = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise UsageError(f"input path not found: {raw}")
        checked.append(path)
    prefixes = folder_prefixes(checked)
    named: dict[str, Path] = {}
    for path, prefix in prefixes.items():
        if prefix in named:
            raise UsageError(
                f"input folders {named[prefix]} and {path} are both named {prefix[:-1]!r}: "
                "with several inputs a folder's page ids start with its name; rename one"
            )
        named[prefix] = path
    return checked


def folder_prefixes(paths: Sequence[Path]) -> dict[Path, str]:
    """What the page ids of each input folder start with: nothing for a build of one input;
    with several, the folder's name and "/", so ``docs/index.html`` and ``blog/index.html``
    stay apart."""
    if len(paths) < 2:
        return {}
    return {
        path: (Path(os.path.abspath(path)).name or "root") + "/"
        for path in paths
        if input_kind(path) == "folder"
    }


def folder_listings(paths: Sequence[Path]) -> Listings:
    """``list_pages`` of each folder among ``paths``: a build counts, orders and reads from
    the one walk."""
    return {path: list_pages(path) for path in paths if input_kind(path) == "folder"}


def _listing(path: Path, listings: Listings | None) -> Listing:
    return listings[path] if listings is not None and path in listings else list_pages(path)


def count_pages(paths: Sequence[Path], listings: Listings | None = None) -> int | None:
    """How many pages the inputs hold, when that is cheap to know (folders and HTML files);
    None when a crawl file is among them (counting its records means reading it twice)."""
    total = 0
    for path in paths:
        kind = input_kind(path)
        if kind == "folder":
            total += len(_listing(path, listings))
        elif kind == "html":
            total += 1
        else:
            return None
    return total


def in_id_order(paths: Sequence[Path], listings: Listings | None = None) -> bool:
    """Whether the pages of ``paths`` come in the order a build writes them: ascending article
    id, then path. True for one folder (sorted paths), unless percent-encoding reorders ids (a
    space sorts before '!', its "%20" after); False as soon as a crawl file is among them
    (its order is the crawler's)."""
    keys: list[tuple[str, str]] = []
    prefixes = folder_prefixes(paths)
    for path in paths:
        kind = input_kind(path)
        if kind == "folder":
            prefix = prefixes.get(path, "")
            for relative, _ in _listing(path, listings):
                shown = readable_name(prefix + relative)
                keys.append((safe_id(shown), shown))
        elif kind == "html":
            shown = readable_name(path.name)
            keys.append((safe_id(shown), shown))
        else:
            return False
    return all(a < b for a, b in zip(keys, keys[1:], strict=False))


def crawl_bytes(paths: Sequence[Path]) -> int | None:
    """The size of the inputs when all of them are crawl files (WARC, JSONL), whose pages
    carry ``end``: what a progress estimate by bytes needs; None otherwise."""
    if not paths or any(input_kind(path) not in CRAWL_FILES for path in paths):
        return None
    try:
        return sum(path.stat().st_size for path in paths)
    except OSError:
        return None


def _read(path: Path, listings: Listings | None, limit: int) -> Iterator[Page]:
    """The pages of one input, by its reader; a folder walked already (``listings``) is read
    from its listing instead of walked again."""
    if listings is not None and path in listings:
        return read_listing(listings[path])
    return reader_for(path)(path, limit)


def iter_pages(
    paths: Sequence[str | Path],
    position: Callable[[int], None] | None = None,
    listings: Listings | None = None,
    limit: int = MAX_PAGE_BYTES,
) -> Iterator[Page]:
    """Pages of every input path, each path's pages in its reader's (sorted) order; a page of
    more than ``limit`` bytes is an error Page naming its size (``Reader``).

    With several inputs, a page names the input it came from (``source``) and a folder's ids
    and paths start with its name (``folder_prefixes``). ``position`` is told, after each page
    of a crawl file, how many bytes of all the inputs (as ``crawl_bytes`` counts them) have
    been read; ``listings`` (``folder_listings``) spares the folders a second walk.
    """
    base = 0
    checked = check_paths(paths)
    prefixes = folder_prefixes(checked)
    several = len(checked) > 1
    for path in checked:
        source = readable_name(path.name)
        # ids and paths are escaped a character at a time: the prefix's escaped alone
        path_prefix = readable_name(prefixes.get(path, ""))
        id_prefix = safe_id(path_prefix)
        for page in _read(path, listings, limit):
            if position is not None and page.end is not None:
                position(base + page.end)
            if several:
                page = replace(
                    page,
                    source=source,
                    article_id=id_prefix + page.article_id,
                    path=path_prefix + page.path,
                    escaped=page.escaped and path_prefix + page.escaped,
                )
            yield page
        if position is not None:
            with contextlib.suppress(OSError):
                base += path.stat().st_size
