"""JSON-lines crawls -> pages: one ``{"url": ..., "html": ...}`` object a line, or gzipped."""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import IO

from ..patterns import MAX_PAGE_BYTES
from .ids import url_id
from .page import GZIP_MAGIC, Page, error_page, over_cap

#: Characters of an exception's text a skip reason quotes: a JSON error can quote the line.
REASON_CHARS = 300
#: Bytes of a line over the cap read (and dropped) at a time while passing over its rest.
SKIP_BYTES = 1 << 20


def read_jsonl_pages(path: Path, limit: int = MAX_PAGE_BYTES) -> Iterator[Page]:
    """Pages of a JSON-lines crawl, one ``{"url": ..., "html": ...}`` object a line (or .gz).

    A line that is not such an object becomes a Page with ``error`` set, named
    ``<file>:<line>``; a truncated .gz ends the file with one such Page. A line of more than
    ``limit`` bytes is such a Page too: no more of it is held than the cap (its rest is read
    and dropped a mebibyte at a time, to reach the next line).
    """
    try:
        raw = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError as exc:
        yield error_page(path.name, f"unreadable: {exc.strerror or exc}")
        return
    with raw:
        lines: IO[bytes] = raw
        if raw.peek(len(GZIP_MAGIC))[: len(GZIP_MAGIC)] == GZIP_MAGIC:
            lines = gzip.GzipFile(fileobj=raw)  # type: ignore[assignment]
        number = 0
        while True:
            number += 1
            where = f"{path.name}:{number}"
            try:
                line = lines.readline(limit + 1)
                over = len(line) > limit and not line.endswith(b"\n")
                if over:
                    _drop_rest(lines)
            except (OSError, EOFError, zlib.error) as exc:
                yield error_page(where, f"corrupt file: {_describe(exc)}")
                return
            if not line:
                return
            if over:
                yield replace(
                    error_page(where, over_cap(f"the line holds more than {limit:,} bytes", limit)),
                    end=raw.tell(),
                )
            elif line.strip():
                yield replace(_jsonl_page(line, where), end=raw.tell())


def _drop_rest(lines: IO[bytes]) -> None:
    """Read and drop the rest of a line, holding a mebibyte at most."""
    while True:
        chunk = lines.readline(SKIP_BYTES)
        if not chunk or chunk.endswith(b"\n"):
            return


def _jsonl_page(line: bytes, where: str) -> Page:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError) as exc:
        return error_page(where, f"not valid JSON: {_describe(exc)}")
    if not isinstance(value, dict):
        return error_page(where, "expected a JSON object")
    url, html = value.get("url"), value.get("html")
    if not isinstance(url, str) or not url.strip():
        return error_page(where, 'no "url" string')
    article_id = url_id(url)
    if not isinstance(html, str):
        return Page(article_id, article_id, b"", url=url, error='no "html" string')
    data = html.encode("utf-8", errors="replace")  # lone surrogates from \ud800 escapes
    return Page(article_id, article_id, data, url=url, decoded=True)


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:REASON_CHARS] if text else type(exc).__name__
