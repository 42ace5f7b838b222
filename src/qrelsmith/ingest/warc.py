"""WARC crawls -> pages: the HTML responses of a ``.warc`` or ``.warc.gz`` (``read_warc``).

Damage costs only the bytes it spoils: the records are framed here, and bytes that cannot be
read are one error Page naming their byte range, reading resuming at the next record. The
sizes and marks this relies on are the constants below, each with its reason.
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections.abc import Callable, Generator, Iterator
from dataclasses import replace
from email.message import Message
from functools import lru_cache
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

from ..patterns import MAX_PAGE_BYTES
from .ids import safe_id, url_id
from .page import GZIP_MAGIC, Page, error_page, over_cap

#: Media types of the WARC responses that are pages; everything else in a crawl (images,
#: scripts, style sheets, PDFs) is not an article and is passed over without a report line.
HTML_MEDIA_TYPES = frozenset(["text/html", "application/xhtml+xml"])

#: The record types that can hold a page: a response (the HTTP exchange), a resource (a page
#: stored without one). Requests, metadata, revisits (no body of their own) and warcinfo cannot.
PAGE_RECORDS = ("response", "resource")

#: The HTTP status class of a page: redirects and error pages are not articles.
PAGE_STATUS_CLASS = "2"

#: The Content-Type of a record whose block is an HTTP message (status line, headers, body).
HTTP_MESSAGE_TYPE = "application/http"

#: The URL schemes of a page on the web: a WARC page with another target (``file:``,
#: ``javascript:``, a relative URI) has no URL a reader could follow, so it is reported.
WEB_SCHEMES = frozenset(["http", "https"])

#: Characters of a target URI a message quotes: a ``data:`` URI can be megabytes.
URL_SHOWN = 200

#: Distinct Content-Type values parsed once each: a crawl repeats a few.
CONTENT_TYPES_CACHED = 1024

#: How a WARC record starts, uncompressed, and a gzip member (magic and the deflate method).
WARC_RECORD_START = b"WARC/1."
GZIP_MEMBER_START = GZIP_MAGIC + b"\x08"
#: zlib's window bits for gzip data (a gzip header and trailer around the deflate stream).
GZIP_WBITS = zlib.MAX_WBITS | 16
#: Bytes read at a time: while looking for the next record after damaged bytes, and from the
#: file while a gzip member is inflated.
SCAN_BYTES = 1 << 20
READ_BYTES = 1 << 16
#: Whether a gzip member found while resyncing starts a record: its first compressed bytes
#: (a gzip header is 10 bytes, more with a file name) inflated to a few bytes, enough to
#: hold ``WARC/1.``.
PROBE_BYTES = 4096
PROBE_INFLATED = 16
#: Inflated bytes made (and dropped) at a time while looking for where a gzip member ends:
#: a member of a huge record is never held whole.
INFLATE_STEP = 1 << 20
#: Longest header block of a WARC record: real ones are under 2 KB; past this the bytes are
#: not a record's headers (garbage, or a file that is no WARC).
HEADER_BYTES = 1 << 16
#: Bytes between records that are padding, not damage (NUL too, at the end of a file a
#: crawler preallocated).
PADDING = b"\r\n\t \0"
LINE_PADDING = b"\r\n\t "

#: Why bytes could not be read: they are no record, or a gzip member's data is damaged.
NOT_A_RECORD = "not a WARC record (damaged or not a WARC file)"
GZIP_DAMAGED = "the gzip data is damaged"
#: How the reason of a record cut short starts.
_CUT = "truncated WARC record: "


def _target_uri(value: str | None) -> str:
    """A WARC-Target-URI header's URL (some crawlers write it in angle brackets)."""
    return (value or "").strip().strip("<>")


def _ends_inside(at: int) -> str:
    """The reason of a record the file ends inside, ``at`` its first byte (or its member's)."""
    return f"{_CUT}the file ends inside the record at byte {at}"


@lru_cache(maxsize=CONTENT_TYPES_CACHED)
def _media_type(content_type: str | None) -> tuple[str | None, str | None]:
    """(media type, charset) of a Content-Type header value (a crawl repeats a few values:
    each is parsed once)."""
    if not content_type:
        return None, None
    message = Message()
    message["content-type"] = content_type
    charset = message.get_param("charset")
    return message.get_content_type(), charset if isinstance(charset, str) else None


def _html_record(record: object) -> tuple[str, str | None] | None:
    """(URL, HTTP charset) of a WARC record that holds a page, None for every other record."""
    rec_type = getattr(record, "rec_type", None)
    headers = record.rec_headers  # type: ignore[attr-defined]
    if rec_type == "response":
        http = record.http_headers  # type: ignore[attr-defined]
        if http is None:
            return None
        status = http.get_statuscode() or ""
        if not status.startswith(PAGE_STATUS_CLASS):
            return None
        content_type = http.get_header("Content-Type")
    elif rec_type == "resource":  # a page stored without its HTTP exchange
        content_type = headers.get_header("Content-Type")
    else:  # requests, metadata, revisits (no body of their own), warcinfo
        return None
    media_type, charset = _media_type(content_type)
    if content_type and media_type not in HTML_MEDIA_TYPES:
        return None
    url = _target_uri(headers.get_header("WARC-Target-URI"))
    return url, charset


def _not_web_url(url: str) -> str | None:
    """Why a WARC target URI is not the URL of a web page, None when it is one."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return f"the target URI is not a valid URL: {url[:URL_SHOWN]!r}"
    if not parts.scheme:
        return f"the target URI is relative, not a URL: {url[:URL_SHOWN]!r}"
    if parts.scheme.lower() not in WEB_SCHEMES:
        return (
            f"the target URI is a {parts.scheme.lower()}: URI, not a web page: {url[:URL_SHOWN]!r}"
        )
    if not parts.netloc:
        return f"the target URI names no host: {url[:URL_SHOWN]!r}"
    return None


class _OverCap(Exception):
    """A page over the cap, the first record of its gzip member: the member is not inflated
    further, reading resumes at the next member (``_gzip_members``)."""

    def __init__(self, page: Page) -> None:
        super().__init__(page.error)
        self.page = page


def read_warc(path: Path, limit: int = MAX_PAGE_BYTES) -> Iterator[Page]:
    """The HTML responses of a WARC file (``.warc`` or ``.warc.gz``), with their URLs as origin.

    Every record that holds a page is either a Page or a Page with ``error`` set: a record cut
    short (a truncated download, a crawler killed mid-write), one that cannot be parsed, one
    whose target is no web URL. Bytes that cannot be read (a damaged gzip member, garbage
    between records, a record header without a length) become one error Page naming their
    byte range in the file, in plain words, and reading resumes at the next record that can be
    read: gzip members are independent, and a record starts with ``WARC/1.``. The records are
    framed here (each gzip member inflated on its own, each record cut at its Content-Length);
    warcio only parses one record at a time, so no damage can make it skip the ones after.

    A page of more than ``limit`` bytes (its record's length, or its body inflated by its
    Content-Encoding) is a Page with ``error`` set naming its size, and no more of it is held
    than the cap: a record that starts its gzip member is not inflated any further.
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, the generator may stop early
    except OSError as exc:
        yield error_page(path.name, f"unreadable: {exc.strerror or exc}")
        return
    with handle:
        try:
            compressed = handle.read(len(GZIP_MAGIC)) == GZIP_MAGIC
            handle.seek(0)
            if compressed:
                yield from _gzip_members(path.name, handle, limit)
            else:
                source = _Source(handle, 0)
                yield from _plain_records(path.name, source, lambda a, b: (a, b), handle, limit)
        except OSError as exc:  # an I/O error mid-file: the rest of it cannot be read
            yield error_page(f"{path.name}@{handle.tell()}", f"unreadable: {exc.strerror or exc}")


def _damaged(name: str, first: int, last: int, why: str) -> Page:
    return error_page(f"{name}@{first}", f"bytes {first}–{last} of {name} could not be read: {why}")


class _Source:
    """A forward-only byte stream with its position and bytes that can be put back."""

    def __init__(self, raw: IO[bytes] | _Member, position: int) -> None:
        self.raw = raw
        self.position = position  # of the next byte read, in the stream's own bytes
        self.buffer = bytearray()
        self.ended = False

    def _fill(self) -> bool:
        if self.ended:
            return False
        chunk = self.raw.read(READ_BYTES)
        if not chunk:
            self.ended = True
            return False
        self.buffer += chunk
        return True

    def readline(self, limit: int) -> bytes:
        """A line with its ending, at most ``limit`` bytes; b"" at the end."""
        searched = 0
        while True:
            at = self.buffer.find(b"\n", searched, limit)
            if at >= 0:
                return self._take(at + 1)
            if len(self.buffer) >= limit:
                return self._take(limit)
            searched = len(self.buffer)
            if not self._fill():
                return self._take(len(self.buffer))

    def read(self, size: int) -> bytes:
        """Up to ``size`` bytes (fewer only at the end)."""
        while len(self.buffer) < size and self._fill():
            pass
        return self._take(min(size, len(self.buffer)))

    def skip(self, size: int) -> int:
        """Pass over up to ``size`` bytes without keeping them; how many there were."""
        done = 0
        while done < size:
            chunk = self.read(min(size - done, READ_BYTES))
            if not chunk:
                break
            done += len(chunk)
        return done

    def unread(self, data: bytes) -> None:
        self.buffer[:0] = data
        self.position -= len(data)

    def _take(self, size: int) -> bytes:
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        self.position += size
        return data


class _Member:
    """The inflated bytes of the gzip member at ``start``: ``end`` (the offset after it) is
    set once it is read whole, ``cut`` when the file ends inside it; a damaged member raises
    zlib.error from ``read``."""

    def __init__(self, handle: IO[bytes], start: int) -> None:
        handle.seek(start)
        self.handle, self.start = handle, start
        self.inflater = zlib.decompressobj(GZIP_WBITS)
        self.pending = bytearray()
        self.end: int | None = None
        self.cut = False
        self.broken = False

    def read(self, size: int) -> bytes:
        if self.broken:
            raise zlib.error("damaged gzip member")
        while not self.pending and self.end is None and not self.cut:
            # at most READ_BYTES inflated at a time: 64 KiB of a bomb's compressed bytes
            # would make 64 MiB at once; what is left to inflate waits in unconsumed_tail
            chunk = self.inflater.unconsumed_tail or self.handle.read(READ_BYTES)
            if not chunk:
                self.cut = True
                break
            try:
                self.pending += self.inflater.decompress(chunk, READ_BYTES)
            except zlib.error:
                self.broken = True
                raise
            if self.inflater.eof:
                self.end = self.handle.tell() - len(self.inflater.unused_data)
        data = bytes(self.pending[:size])
        del self.pending[:size]
        return data


def _gzip_members(name: str, handle: IO[bytes], limit: int) -> Iterator[Page]:
    """The pages of a gzipped WARC, one gzip member after the other (each normally holds one
    record); a damaged member is reported whole and reading resumes at the next member."""
    size = _size(handle)
    offset = 0
    while offset < size:
        handle.seek(offset)
        head = handle.read(READ_BYTES)
        if not head.startswith(GZIP_MAGIC):
            if not head.strip(PADDING) and offset + len(head) >= size:
                return  # padding at the end of the file
            damaged, resume = _skipped(name, handle, offset, size, NOT_A_RECORD)
            yield damaged
            if resume is None:
                return
            offset = resume
            continue
        member = _Member(handle, offset)

        def spans(first: int, last: int, member: _Member = member) -> tuple[int, int]:
            end = member.end if member.end is not None else _member_end(handle, member.start)
            return member.start, (end if end is not None else size) - 1

        source = _Source(member, 0)
        try:
            yield from _plain_records(name, source, spans, handle, limit, member)
        except _OverCap as over:  # the rest of the member is the page: not inflated
            yield over.page
            resume = _next_record(handle, offset + 1)
            if resume is None:
                return
            offset = resume
            continue
        except (zlib.error, EOFError):
            damaged, resume = _skipped(name, handle, offset, size, GZIP_DAMAGED)
            yield damaged
            if resume is None:
                return
            offset = resume
            continue
        if member.end is None:  # the file ends inside this member
            if source.position == 0:  # nothing of it inflated: no record to name
                yield _cut_record(name, None, offset, member)
            return
        offset = member.end


def _skipped(
    name: str, handle: IO[bytes], offset: int, size: int, reason: str
) -> tuple[Page, int | None]:
    """The bytes from ``offset`` to the next record that starts a member, reported as one
    damaged page (``reason``), and that record's offset (None: none follows)."""
    resume = _next_record(handle, offset + 1)
    last = (resume if resume is not None else size) - 1
    return _damaged(name, offset, last, reason), resume


def _member_end(handle: IO[bytes], start: int) -> int | None:
    """Where the gzip member at ``start`` ends (None: damaged, or cut by the end of the file),
    found without moving the reader of the member, which reads on from where it is."""
    resume = handle.tell()
    try:
        handle.seek(start)
        inflater = zlib.decompressobj(GZIP_WBITS)
        while chunk := handle.read(READ_BYTES):
            inflater.decompress(chunk, 1)  # only the end is wanted, not the bytes
            while inflater.unconsumed_tail and not inflater.eof:
                inflater.decompress(inflater.unconsumed_tail, INFLATE_STEP)
            if inflater.eof:
                return handle.tell() - len(inflater.unused_data)
        return None
    except zlib.error:
        return None
    finally:
        handle.seek(resume)


def _plain_records(
    name: str,
    source: _Source,
    spans: Callable[[int, int], tuple[int, int]],
    handle: IO[bytes],
    limit: int,
    member: _Member | None = None,
) -> Iterator[Page]:
    """The pages of uncompressed WARC records read from ``source`` (a plain file, or one gzip
    member); ``spans`` turns a range of the source's bytes into the range of the file's bytes
    a report names (a gzip member is named whole)."""
    from warcio.recordloader import ArcWarcRecordLoader  # only for WARC input

    loader = ArcWarcRecordLoader(verify_http=False, arc2warc=False)
    while True:
        line = source.readline(HEADER_BYTES)
        while line and not line.strip(LINE_PADDING):
            line = source.readline(HEADER_BYTES)
        if not line:
            return
        start = source.position - len(line)
        if not line.startswith(WARC_RECORD_START):
            if WARC_RECORD_START.startswith(line) and source.ended and not source.buffer:
                yield _cut_record(name, None, start, member)  # the file ends in "WARC/"
                return
            resume, padding = _resync(source, line)
            if padding and source.ended and not source.buffer:
                return  # NUL padding up to the end of the file
            yield _damaged(name, *spans(start, resume - 1), NOT_A_RECORD)
            continue
        head, headers, ended = _header_block(source, line)
        if ended:
            if (headers or {}).get("warc-type", "response") in PAGE_RECORDS:
                yield _cut_record(name, headers, start, member)
            return
        length = _content_length(headers)
        if headers is None or length is None:
            resume, _ = _resync(source, head)
            why = (
                "a WARC record with no valid Content-Length header"
                if headers is not None
                else "a WARC record whose headers cannot be read"
            )
            yield _damaged(name, *spans(start, resume - 1), why)
            continue
        first = member is not None and start == 0  # of its member: over the cap, it ends it
        page = yield from _one_record(
            name, loader, source, head, headers, (length, limit, first), start, spans
        )
        if page is None:
            continue
        if page.error is None:
            page = replace(page, end=handle.tell())
        elif page.error.startswith(_CUT) and member is not None and member.cut:
            at = member.start
            page = replace(page, error=_ends_inside(at))
        yield page


def _header_block(source: _Source, first: bytes) -> tuple[bytes, dict[str, str] | None, bool]:
    """(the header block's bytes, its headers by lower-cased name or None when it cannot be
    read, whether the stream ended inside it)."""
    lines = [first]
    size = len(first)
    while True:
        line = source.readline(HEADER_BYTES)
        if not line:  # a header line the file ends inside says nothing sure (a cut URL)
            whole = lines if lines[-1].endswith(b"\n") else lines[:-1]
            return b"".join(lines), _parse_headers(whole), True
        lines.append(line)
        size += len(line)
        if not line.strip(b"\r\n"):
            return b"".join(lines), _parse_headers(lines), False
        if size > HEADER_BYTES:
            return b"".join(lines), None, False


def _parse_headers(lines: list[bytes]) -> dict[str, str] | None:
    headers: dict[str, str] = {}
    for raw in lines[1:]:
        text = raw.decode("utf-8", "replace").strip("\r\n")
        if not text:
            break
        if text[0] in " \t" or ":" not in text:  # a continuation line, or no header at all
            continue
        key, value = text.split(":", 1)
        headers.setdefault(key.strip().lower(), value.strip())
    return headers


def _content_length(headers: dict[str, str] | None) -> int | None:
    if headers is None:
        return None
    text = headers.get("content-length", "")
    return int(text) if text.isascii() and text.isdigit() else None


def _resync(source: _Source, consumed: bytes) -> tuple[int, bool]:
    """Pass over the bytes of a record that cannot be read (``consumed`` were read since its
    start) up to the next ``WARC/1.``, wherever it stands (junk can run into the next record's
    first line); returns its position, and whether all the bytes passed over were padding."""
    padding = not consumed.strip(PADDING)
    source.unread(consumed[1:])
    carried = b""  # the end of the last line, in case the mark is split between two reads
    while True:
        position = source.position
        line = source.readline(HEADER_BYTES)
        if not line:
            return position, padding
        at = (carried + line).find(WARC_RECORD_START) - len(carried)
        if at >= -len(carried):  # found; before this line when the mark was cut in two
            source.unread(carried[len(carried) + at :] + line if at < 0 else line[at:])
            return position + at, padding and not line[: max(at, 0)].strip(PADDING)
        padding = padding and not line.strip(PADDING)
        carried = line[-(len(WARC_RECORD_START) - 1) :]


def _cut_record(name: str, headers: dict[str, str] | None, at: int, member: _Member | None) -> Page:
    """The Page of a record whose headers the file ends inside."""
    url = _target_uri((headers or {}).get("warc-target-uri"))
    where = f"{name}@{at}"
    article_id = url_id(url) if url else safe_id(where)
    if member is not None:
        at = member.start
    return Page(article_id, article_id if url else where, b"", error=_ends_inside(at))


class _Block(io.RawIOBase):
    """A record as warcio reads it: its header block, then at most ``length`` bytes of the
    source (what is left is ``remaining``)."""

    def __init__(self, head: bytes, source: _Source, length: int) -> None:
        self.head, self.source, self.remaining = head, source, length

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self.head:
            data, self.head = self.head[: len(buffer)], self.head[len(buffer) :]
        else:
            data = self.source.read(min(len(buffer), self.remaining))
            self.remaining -= len(data)
        buffer[: len(data)] = data
        return len(data)


def _one_record(
    name: str,
    loader: object,
    source: _Source,
    head: bytes,
    headers: dict[str, str],
    sizes: tuple[int, int, bool],
    start: int,
    spans: Callable[[int, int], tuple[int, int]],
) -> Generator[Page, None, Page | None]:
    """The Page of one record whose headers and length are known (None: not a page); the
    source is left after the record's block whatever happens. ``sizes``: the record's
    length, the page cap, and whether the record starts its gzip member (then a page over
    the cap raises _OverCap, the member left where it is)."""
    length, limit, first = sizes
    block = _Block(head, source, length)
    rec_type = headers.get("warc-type", "")
    try:
        if rec_type not in PAGE_RECORDS:
            return None
        url = _target_uri(headers.get("warc-target-uri"))
        if not url:
            end = source.position + length - 1
            yield _damaged(name, *spans(start, end), "a WARC record with no WARC-Target-URI header")
            return None
        article_id = url_id(url)
        try:
            record = loader.parse_record_stream(  # type: ignore[attr-defined]
                io.BufferedReader(block, READ_BYTES), known_format="warc"
            )
            if record.http_headers is None and rec_type == "response" and _not_web_url(url):
                # warcio reads HTTP headers only under an http(s) target: read them here, so
                # a page under another target is reported rather than passed over
                content_type = (headers.get("content-type") or "").lower()
                if content_type.startswith(HTTP_MESSAGE_TYPE):
                    record.http_headers = loader.http_parser.parse(  # type: ignore[attr-defined]
                        record.raw_stream
                    )
            found = _html_record(record)
            if found is None:
                return None
            if length > limit + HEADER_BYTES:  # more than the page and its HTTP headers
                page = Page(
                    article_id,
                    article_id,
                    b"",
                    url=url,
                    error=over_cap(f"its WARC record holds {length:,} bytes", limit),
                )
                if first:
                    block.remaining = 0  # the finally below must not inflate the rest
                    raise _OverCap(page)
                return page
            data = _body(record, limit)
            if isinstance(data, str):
                return Page(article_id, article_id, b"", url=url, error=data)
            if len(data) > limit:  # inflated by its Content-Encoding
                error = over_cap(f"it inflates to more than {limit:,} bytes", limit)
                return Page(article_id, article_id, b"", url=url, error=error)
        except _OverCap:
            raise
        except Exception as exc:  # warcio raises many kinds on a damaged record
            if block.remaining:
                block.remaining -= source.skip(block.remaining)
            if block.remaining:
                return _cut_page(article_id, url, block.remaining, length)
            return Page(
                article_id, article_id, b"", url=url, error=f"corrupt WARC record: {_why(exc)}"
            )
        if block.remaining:
            block.remaining -= source.skip(block.remaining)
        if block.remaining:
            return _cut_page(article_id, url, block.remaining, length)
        problem = _not_web_url(url)
        if problem is not None:
            return Page(article_id, article_id, b"", url=url, error=problem)
        return Page(article_id, article_id, data, url=url, http_charset=found[1])
    finally:
        if block.remaining:
            block.remaining -= source.skip(block.remaining)


Inflate = Callable[[Iterator[bytes]], Iterator[bytes]]


def _zlib_inflate(wbits: int) -> Inflate:
    """A zlib stream (gzip, zlib or raw deflate by ``wbits``) inflated READ_BYTES at a time;
    what follows its end is left, as warcio leaves a body's second gzip member."""

    def inflate(chunks: Iterator[bytes]) -> Iterator[bytes]:
        inflater = zlib.decompressobj(wbits)
        for chunk in chunks:
            while chunk:
                yield inflater.decompress(chunk, READ_BYTES)
                if inflater.eof:
                    return
                chunk = inflater.unconsumed_tail
        while piece := inflater.decompress(b"", READ_BYTES):  # what zlib still holds
            yield piece

    return inflate


def _brotli_inflate(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """A brotli stream inflated about READ_BYTES at a time (brotli 1.2's output limit)."""
    import brotli

    decompressor = brotli.Decompressor()
    try:
        for chunk in chunks:
            yield decompressor.process(chunk, output_buffer_limit=READ_BYTES)
            while not decompressor.can_accept_more_data():
                yield decompressor.process(b"", output_buffer_limit=READ_BYTES)
            if decompressor.is_finished():
                return
        while not decompressor.is_finished() and (
            piece := decompressor.process(b"", output_buffer_limit=READ_BYTES)
        ):  # what brotli still holds once the input is all in
            yield piece
    except brotli.error as exc:  # one kind of error for every encoding
        raise zlib.error(str(exc)) from exc


def _bounded_brotli() -> bool:
    """Whether brotli is installed and can stop at an output size (1.2 and newer)."""
    try:
        import brotli

        brotli.Decompressor().process(b"", output_buffer_limit=1)
    except (ImportError, TypeError):
        return False
    return True


#: HTTP Content-Encoding -> the inflaters tried in turn, as warcio tries them: deflate is
#: zlib's format or, from some servers, raw deflate; a body none of them can start to inflate
#: is read as it is. warcio's own reader inflated a whole read at once (16 KiB of a bomb made
#: ~17 MB, so a body over a 20 MiB cap peaked at ~45 MB) and a whole chunk of a chunked body
#: (a 1 MB chunk inflating to 1 GiB peaked at 2.1 GB): here no call makes more than READ_BYTES.
CONTENT_ENCODINGS: dict[str, tuple[Inflate, ...]] = {
    "gzip": (_zlib_inflate(GZIP_WBITS),),
    "deflate": (_zlib_inflate(zlib.MAX_WBITS), _zlib_inflate(-zlib.MAX_WBITS)),
    "br": (_brotli_inflate,),
}
#: A brotli body when brotli cannot bound its output (warcio would inflate it whole).
NO_BROTLI = (
    "its body is brotli-compressed (Content-Encoding: br): reading it needs the brotli module, "
    "1.2 or newer"
)


def _body(record: Any, limit: int) -> bytes | str:
    """A record's page body, at most about ``limit`` + READ_BYTES bytes (more than ``limit``:
    over the cap), its HTTP transfer and content encodings undone; a str: why it cannot be
    read."""
    from warcio.bufferedreaders import ChunkedDataReader

    http, stream = record.http_headers, record.raw_stream
    if not http:
        return bytes(stream.read(limit + 1))
    if http.get_header("transfer-encoding") == "chunked":
        stream = ChunkedDataReader(stream)  # de-chunked only; a chunk is at most the record
    encoding = (http.get_header("content-encoding") or "").lower()
    if encoding == "br" and not _bounded_brotli():
        return NO_BROTLI
    if encoding not in CONTENT_ENCODINGS:
        return bytes(stream.read(limit + 1))
    return _inflated(stream, CONTENT_ENCODINGS[encoding], limit)


def _inflated(stream: Any, inflaters: tuple[Inflate, ...], limit: int) -> bytes:
    """``stream`` inflated by the first of ``inflaters`` that starts to inflate it, until past
    ``limit``; as it is when none does. A stream damaged midway gives what came before."""
    taken: list[bytes] = []  # the input read while nothing was inflated: a retry reads it again
    for inflate in inflaters:
        out = io.BytesIO()  # its buffer is the bytes returned, not copied

        def chunks(replay: list[bytes], out: io.BytesIO = out) -> Iterator[bytes]:
            yield from replay
            while chunk := stream.read(READ_BYTES):
                if not out.tell():
                    taken.append(chunk)
                yield chunk

        try:
            for piece in inflate(chunks(list(taken))):
                out.write(piece)
                if out.tell() > limit:
                    break
        except zlib.error:
            if not out.tell():
                continue
        return out.getvalue()
    data = b"".join(taken)
    return data + stream.read(max(limit + 1 - len(data), 0))


def _cut_page(article_id: str, url: str, missing: int, length: int) -> Page:
    """A record the stream ends inside (the caller says so otherwise when the file ends
    inside its gzip member)."""
    error = f"{_CUT}{missing} of {length} bytes missing"
    return Page(article_id, article_id, b"", url=url, error=error)


def _why(exc: BaseException) -> str:
    """Why a record cannot be parsed, in words (never the exception's own text, which can
    hold the damaged bytes)."""
    if isinstance(exc, zlib.error | EOFError | gzip.BadGzipFile):
        return GZIP_DAMAGED
    return "a WARC record the WARC reader (warcio) cannot take"


def _next_record(handle: IO[bytes], position: int) -> int | None:
    """The offset of the first record start at or after ``position`` (a gzip member whose
    data inflates to ``WARC/1.``, or ``WARC/1.`` at the start of a line); None if none."""
    overlap = len(WARC_RECORD_START)
    while True:
        handle.seek(position)
        chunk = handle.read(SCAN_BYTES)
        if not chunk:
            return None
        for at in sorted(_starts(chunk, GZIP_MEMBER_START) + _starts(chunk, WARC_RECORD_START)):
            if chunk.startswith(WARC_RECORD_START, at):
                if at == 0 or chunk[at - 1] == ord("\n"):
                    return position + at
            elif _inflates_to_record(handle, position + at):
                return position + at
        if len(chunk) < SCAN_BYTES:
            return None
        position += len(chunk) - overlap


def _starts(chunk: bytes, needle: bytes) -> list[int]:
    found, at = [], chunk.find(needle)
    while at >= 0:
        found.append(at)
        at = chunk.find(needle, at + 1)
    return found


def _inflates_to_record(handle: IO[bytes], offset: int) -> bool:
    handle.seek(offset)
    try:
        inflater = zlib.decompressobj(GZIP_WBITS)
        head = inflater.decompress(handle.read(PROBE_BYTES), PROBE_INFLATED)
    except zlib.error:
        return False
    return head.startswith(WARC_RECORD_START)


def _size(handle: IO[bytes]) -> int:
    return os.fstat(handle.fileno()).st_size
