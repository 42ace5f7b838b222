"""The record every reader yields: ``Page``, one input page, or why it could not be read."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from ..patterns import MAX_PAGE_BYTES
from .ids import safe_id

#: How a gzip file starts: a WARC or JSONL crawl is gzipped (``.gz``) when its bytes say so.
GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True, slots=True)
class Page:
    """One input page; ``error`` is set when it could not even be read.

    ``decoded`` marks bytes that are UTF-8 re-encoded from text that was already decoded (the
    ``html`` string of a JSONL line): the page's own charset declaration no longer applies.
    A page of a folder names its ``file`` and is read by ``loaded()`` where it is processed:
    a parallel build's workers read their own files, instead of the main process reading
    every byte and sending it to them.
    """

    article_id: str
    path: str
    data: bytes
    url: str | None = None
    http_charset: str | None = None
    error: str | None = None
    decoded: bool = False
    file: str | None = None
    #: The name of the input (folder or file) the page came from, for messages.
    source: str = ""
    #: How far into its crawl file (WARC, JSONL) the reader was after this page: bytes of the
    #: file as stored (compressed for .gz), for a progress estimate; None for other inputs.
    end: int | None = None
    #: A Markdown file (``.md``): made an HTML page by ``markdown.page_from_markdown`` first.
    markdown: bool = False
    #: A file name with bytes that are not UTF-8, written ``\\xNN`` (``ids.escaped_name``):
    #: ``path`` writes them ``%NN``, as a file named so would be; "" for other pages.
    escaped: str = ""

    def loaded(self, limit: int = MAX_PAGE_BYTES) -> Page:
        """This page with its bytes read (or its ``error`` set) if they are still in its file;
        a file of more than ``limit`` bytes is not read (``over_cap``)."""
        if self.file is None:
            return self
        try:
            with open(self.file, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                data = b"" if size > limit else handle.read(limit + 1)
        except OSError as exc:
            return replace(self, file=None, error=f"unreadable: {exc.strerror or exc}")
        if size > limit or len(data) > limit:  # the file grew while it was read: as large
            return replace(
                self,
                file=None,
                error=over_cap(f"the file holds {max(size, len(data)):,} bytes", limit),
            )
        return replace(self, data=data, file=None)


def over_cap(size: str, limit: int) -> str:
    """Why a page larger than the cap is skipped: ``size`` says how large, in words ("the file
    holds 1,048,576 bytes"; "it inflates to more than 20,971,520 bytes" where inflating
    stopped)."""
    return f"{size}, over the page cap of {limit:,} bytes ([build] max_page_bytes)"


def error_page(where: str, error: str) -> Page:
    """The Page of an input, record or line that could not be read, named ``where``."""
    return Page(safe_id(where), where, b"", error=error)
