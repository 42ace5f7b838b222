"""Inputs -> pages: (article id, path, url, bytes). Folders and files; readers in a registry.

Article ids come from the page's path relative to the crawl folder (or its URL), never from
crawl order, so adding a page renumbers nothing else.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import UsageError

HTML_SUFFIXES = (".html", ".htm")

_UNSAFE_IN_ID = re.compile(r"[\s%]")


@dataclass(frozen=True, slots=True)
class Page:
    """One input page; ``error`` is set when it could not even be read."""

    article_id: str
    path: str
    data: bytes
    url: str | None = None
    http_charset: str | None = None
    error: str | None = None


def safe_id(text: str) -> str:
    """An id with no white space: white space and '%' are percent-encoded (UTF-8)."""
    return _UNSAFE_IN_ID.sub(
        lambda m: "".join(f"%{b:02X}" for b in m.group(0).encode("utf-8")), text
    )


def _read(path: Path, relative: str) -> Page:
    try:
        data = path.read_bytes()
    except OSError as exc:
        return Page(safe_id(relative), relative, b"", error=f"unreadable: {exc.strerror or exc}")
    return Page(safe_id(relative), relative, data)


def read_folder(root: Path) -> Iterator[Page]:
    """Every *.html / *.htm below ``root``, in sorted path order."""
    found: list[tuple[str, Path]] = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in files:
            if name.lower().endswith(HTML_SUFFIXES):
                full = Path(folder, name)
                found.append((full.relative_to(root).as_posix(), full))
    for relative, full in sorted(found):
        yield _read(full, relative)


def read_file(path: Path) -> Iterator[Page]:
    """One HTML file; its id is its file name."""
    yield _read(path, path.name)


Reader = Callable[[Path], Iterator[Page]]

#: Input readers by kind; ``reader_for`` picks one from the path.
READERS: dict[str, Reader] = {"folder": read_folder, "html": read_file}


def reader_for(path: Path) -> Reader:
    """The reader for a path: a folder, or a file by its suffix (HTML by default)."""
    if path.is_dir():
        return READERS["folder"]
    name = path.name.lower()
    for kind, reader in READERS.items():
        if kind in ("folder", "html"):
            continue
        if name.endswith((f".{kind}", f".{kind}.gz")):
            return reader
    return READERS["html"]


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
    return checked


def iter_pages(paths: Sequence[str | Path]) -> Iterator[Page]:
    """Pages of every input path, each path's pages in its reader's (sorted) order."""
    for path in check_paths(paths):
        yield from reader_for(path)(path)
