"""Inputs -> pages: (article id, path, url, bytes). Folders, files, WARC and JSONL crawls.

Article ids come from the page's path relative to the crawl folder (or its URL), never from
crawl order, so adding a page renumbers nothing else. Readers are in a registry, picked by
suffix; a record that cannot be read becomes a Page with ``error`` set, never an exception, so
one broken record costs that page only.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import re
import zlib
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from email.message import Message
from functools import lru_cache
from pathlib import Path
from typing import IO, Literal
from urllib.parse import urlsplit

from .errors import UsageError
from .layout import BUILD_MARKERS
from .markdown import MARKDOWN_SUFFIXES, is_markdown
from .models import PassedOver

HTML_SUFFIXES = (".html", ".htm")

#: Media types of the WARC responses that are pages; everything else in a crawl (images,
#: scripts, style sheets, PDFs) is not an article and is passed over without a report line.
HTML_MEDIA_TYPES = frozenset(["text/html", "application/xhtml+xml"])

GZIP_MAGIC = b"\x1f\x8b"

#: Ports left out of an article id because the scheme implies them.
DEFAULT_PORTS = {"http": 80, "https": 443}

_UNSAFE_IN_ID = re.compile(r"[\s%]")


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

    def loaded(self) -> Page:
        """This page with its bytes read (or its ``error`` set) if they are still in its file."""
        if self.file is None:
            return self
        try:
            with open(self.file, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            return replace(self, file=None, error=f"unreadable: {exc.strerror or exc}")
        return replace(self, data=data, file=None)


def safe_id(text: str) -> str:
    """An id with no white space: white space and '%' are percent-encoded (UTF-8)."""
    return _UNSAFE_IN_ID.sub(
        lambda m: "".join(f"%{b:02X}" for b in m.group(0).encode("utf-8")), text
    )


def url_id(url: str) -> str:
    """The article id of a URL: no scheme, user or fragment; host lower-cased, default port dropped.

    ``https://Example.com:443/blog/rdp#top`` -> ``example.com/blog/rdp``: a re-crawl over http or
    https, or a link with a fragment, gives the same id. The query string is kept (it can name
    a different page).
    """
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").rstrip(".")
        port = parts.port
    except ValueError:  # a malformed port or IPv6 literal: keep the text, minus scheme/fragment
        text = re.sub(r"^[a-zA-Z][a-zA-Z0-9+.\-]*://", "", url.strip())
        return safe_id(text.split("#", 1)[0])
    if port is not None and DEFAULT_PORTS.get(parts.scheme.lower()) != port:
        host = f"{host}:{port}"
    location = host + (parts.path or "/") if host else parts.path
    if parts.query:
        location += "?" + parts.query
    return safe_id(location)


_UNDECODED = re.compile("[\udc80-\udcff]")


def readable_name(name: str) -> str:
    """A file name as text every output can hold: bytes of the name that are not UTF-8 (which
    Python keeps as lone surrogates) are percent-encoded, ``bad\\xff.html`` -> ``bad%FF.html``."""
    return _UNDECODED.sub(lambda m: f"%{ord(m.group(0)) - 0xDC00:02X}", name)


def _file_page(path: str | Path, relative: str) -> Page:
    relative = readable_name(relative)
    return Page(
        safe_id(relative), relative, b"", file=os.fspath(path), markdown=is_markdown(relative)
    )


class Listing(list[tuple[str, str]]):
    """The pages of a folder, (relative path with "/", full path) sorted, and the count of the
    files of the other kind that were passed over (``html_files``). A sub-folder that could
    not be read (or a link that loops back) is an entry too, its relative path ending in "/",
    with its reason in ``unread``: it becomes a skipped entry, in its place in the order."""

    passed_over: int = 0
    passed_over_kind: Literal["HTML", "Markdown"] = "Markdown"
    unread: dict[str, str]


def html_files(root: Path) -> Listing:
    """(relative path with "/", full path) of the pages below ``root``, sorted; hidden folders
    (.git, .cache ...) and earlier build folders are passed over. Plain string work per file:
    pathlib objects per file cost more than the walk itself.

    A tree holds HTML pages (*.html, *.htm) or Markdown ones (*.md, *.markdown): whichever
    there are more of (HTML on a tie). The others are not pages of that site: the notes of an
    HTML crawl (README.md, CASES.md), the templates of a Markdown docs tree
    (overrides/main.html). The listing says how many were passed over, and of which kind.

    Symbolic links to folders are followed (a docs tree links shared pages in), except one
    that leads back to a folder it is inside (a loop), which is listed as unread, as is a
    folder that cannot be read (no permission, removed during the walk)."""
    top = os.fspath(root)
    found: list[tuple[str, str]] = []
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
                found.append((prefix + name, os.path.join(folder, name)))
            elif lower.endswith(MARKDOWN_SUFFIXES):
                markdown.append((prefix + name, os.path.join(folder, name)))
    kind: Literal["HTML", "Markdown"] = "Markdown"
    chosen, other = found, markdown
    if len(markdown) > len(found):
        chosen, other, kind = markdown, found, "HTML"
    folders = [(relative(full) or (Path(top).name or "root") + "/", full) for full in unread]
    listing = Listing(sorted(chosen + folders))
    listing.passed_over, listing.passed_over_kind = len(other), kind
    listing.unread = unread
    return listing


def passed_over(listings: Mapping[Path, Listing]) -> list[PassedOver]:
    """The input folders whose files of the other kind were not read as pages."""
    return [
        PassedOver(path=path.name, kind=listing.passed_over_kind, files=listing.passed_over)
        for path, listing in sorted(listings.items())
        if listing.passed_over
    ]


#: ``html_files`` of the folders among a build's inputs, walked once for all who need them.
Listings = dict[Path, Listing]


def folder_listings(paths: Sequence[Path]) -> Listings:
    """``html_files`` of each folder among ``paths``: a build counts, orders and reads from
    the one walk."""
    return {path: html_files(path) for path in paths if input_kind(path) == "folder"}


def _listing(path: Path, listings: Listings | None) -> Listing:
    return listings[path] if listings is not None and path in listings else html_files(path)


def read_folder(root: Path, listings: Listings | None = None, prefix: str = "") -> Iterator[Page]:
    """Every page ``html_files`` finds below ``root``, in sorted path order; ids and paths
    start with ``prefix`` (``folder_prefixes``)."""
    listing = _listing(root, listings)
    unread = getattr(listing, "unread", {})
    for relative, full in listing:
        if full in unread:
            yield _error_page(readable_name(prefix + relative), unread[full])
        else:
            yield _file_page(full, prefix + relative)


def read_file(path: Path) -> Iterator[Page]:
    """One HTML (or Markdown) file; its id is its file name."""
    yield _file_page(path, path.name)


@lru_cache(maxsize=1024)
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
        if not status.startswith("2"):  # redirects and error pages are not articles
            return None
        content_type = http.get_header("Content-Type")
    elif rec_type == "resource":  # a page stored without its HTTP exchange
        content_type = headers.get_header("Content-Type")
    else:  # requests, metadata, revisits (no body of their own), warcinfo
        return None
    media_type, charset = _media_type(content_type)
    if content_type and media_type not in HTML_MEDIA_TYPES:
        return None
    url = (headers.get_header("WARC-Target-URI") or "").strip().strip("<>")
    return url, charset


#: The URL schemes of a page on the web: a WARC page with another target (``file:``,
#: ``javascript:``, a relative URI) has no URL a reader could follow, so it is reported.
WEB_SCHEMES = frozenset(["http", "https"])


def _not_web_url(url: str) -> str | None:
    """Why a WARC target URI is not the URL of a web page, None when it is one."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return f"the target URI is not a valid URL: {url[:200]!r}"
    if not parts.scheme:
        return f"the target URI is relative, not a URL: {url[:200]!r}"
    if parts.scheme.lower() not in WEB_SCHEMES:
        return f"the target URI is a {parts.scheme.lower()}: URI, not a web page: {url[:200]!r}"
    if not parts.netloc:
        return f"the target URI names no host: {url[:200]!r}"
    return None


#: How a WARC record starts, uncompressed, and a gzip member (magic and the deflate method).
WARC_RECORD_START = b"WARC/1."
GZIP_MEMBER_START = GZIP_MAGIC + b"\x08"
#: Bytes read at a time: while looking for the next record after damaged bytes, and from the
#: file while a gzip member is inflated.
SCAN_BYTES = 1 << 20
READ_BYTES = 1 << 16
#: Longest header block of a WARC record: real ones are under 2 KB; past this the bytes are
#: not a record's headers (garbage, or a file that is no WARC).
HEADER_BYTES = 1 << 16
#: Bytes between records that are padding, not damage (NUL too, at the end of a file a
#: crawler preallocated).
PADDING = b"\r\n\t \0"
LINE_PADDING = b"\r\n\t "


def read_warc(path: Path) -> Iterator[Page]:
    """The HTML responses of a WARC file (``.warc`` or ``.warc.gz``), with their URLs as origin.

    Every record that holds a page is either a Page or a Page with ``error`` set: a record cut
    short (a truncated download, a crawler killed mid-write), one that cannot be parsed, one
    whose target is no web URL. Bytes that cannot be read (a damaged gzip member, garbage
    between records, a record header without a length) become one error Page naming their
    byte range in the file, in plain words, and reading resumes at the next record that can be
    read: gzip members are independent, and a record starts with ``WARC/1.``. The records are
    framed here (each gzip member inflated on its own, each record cut at its Content-Length);
    warcio only parses one record at a time, so no damage can make it skip the ones after.
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, the generator may stop early
    except OSError as exc:
        yield _error_page(path.name, f"unreadable: {exc.strerror or exc}")
        return
    with handle:
        try:
            compressed = handle.read(2) == GZIP_MAGIC
            handle.seek(0)
            if compressed:
                yield from _gzip_members(path.name, handle)
            else:
                source = _Source(handle, 0)
                yield from _plain_records(path.name, source, lambda a, b: (a, b), handle)
        except OSError as exc:  # an I/O error mid-file: the rest of it cannot be read
            yield _error_page(f"{path.name}@{handle.tell()}", f"unreadable: {exc.strerror or exc}")


def _damaged(name: str, first: int, last: int, why: str) -> Page:
    return _error_page(
        f"{name}@{first}", f"bytes {first}–{last} of {name} could not be read: {why}"
    )


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
        self.inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
        self.pending = bytearray()
        self.end: int | None = None
        self.cut = False
        self.broken = False

    def read(self, size: int) -> bytes:
        if self.broken:
            raise zlib.error("damaged gzip member")
        while not self.pending and self.end is None and not self.cut:
            chunk = self.handle.read(READ_BYTES)
            if not chunk:
                self.cut = True
                break
            try:
                self.pending += self.inflater.decompress(chunk)
            except zlib.error:
                self.broken = True
                raise
            if self.inflater.eof:
                self.end = self.handle.tell() - len(self.inflater.unused_data)
        data = bytes(self.pending[:size])
        del self.pending[:size]
        return data


def _gzip_members(name: str, handle: IO[bytes]) -> Iterator[Page]:
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
            resume = _next_record(handle, offset + 1)
            last = (resume if resume is not None else size) - 1
            yield _damaged(name, offset, last, "not a WARC record (damaged or not a WARC file)")
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
            yield from _plain_records(name, source, spans, handle, member)
        except (zlib.error, EOFError):
            resume = _next_record(handle, offset + 1)
            last = (resume if resume is not None else size) - 1
            yield _damaged(name, offset, last, "the gzip data is damaged")
            if resume is None:
                return
            offset = resume
            continue
        if member.end is None:  # the file ends inside this member
            if source.position == 0:  # nothing of it inflated: no record to name
                yield _cut_record(name, None, offset, member)
            return
        offset = member.end


def _member_end(handle: IO[bytes], start: int) -> int | None:
    """Where the gzip member at ``start`` ends (None: damaged, or cut by the end of the file),
    found without moving the reader of the member, which reads on from where it is."""
    resume = handle.tell()
    try:
        handle.seek(start)
        inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
        while chunk := handle.read(READ_BYTES):
            inflater.decompress(chunk, 1)  # only the end is wanted, not the bytes
            while inflater.unconsumed_tail and not inflater.eof:
                inflater.decompress(inflater.unconsumed_tail, 1 << 20)
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
            yield _damaged(
                name, *spans(start, resume - 1), "not a WARC record (damaged or not a WARC file)"
            )
            continue
        head, headers, ended = _header_block(source, line)
        if ended:
            if (headers or {}).get("warc-type", "response") in ("response", "resource"):
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
        page = yield from _one_record(name, loader, source, head, headers, length, start, spans)
        if page is None:
            continue
        if page.error is None:
            page = replace(page, end=handle.tell())
        elif page.error.startswith(_CUT) and member is not None and member.cut:
            at = member.start
            page = replace(
                page, error=f"truncated WARC record: the file ends inside the record at byte {at}"
            )
        yield page


#: How the reason of a record cut short starts.
_CUT = "truncated WARC record: "


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
    url = ((headers or {}).get("warc-target-uri") or "").strip().strip("<>")
    where = f"{name}@{at}"
    article_id = url_id(url) if url else safe_id(where)
    if member is not None:
        at = member.start
    error = f"truncated WARC record: the file ends inside the record at byte {at}"
    return Page(article_id, article_id if url else where, b"", error=error)


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
    length: int,
    start: int,
    spans: Callable[[int, int], tuple[int, int]],
) -> Generator[Page, None, Page | None]:
    """The Page of one record whose headers and length are known (None: not a page); the
    source is left after the record's block whatever happens."""
    block = _Block(head, source, length)
    rec_type = headers.get("warc-type", "")
    try:
        if rec_type not in ("response", "resource"):
            return None
        url = headers.get("warc-target-uri", "").strip().strip("<>")
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
                if content_type.startswith("application/http"):
                    record.http_headers = loader.http_parser.parse(  # type: ignore[attr-defined]
                        record.raw_stream
                    )
            found = _html_record(record)
            if found is None:
                return None
            data = record.content_stream().read()
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


def _cut_page(article_id: str, url: str, missing: int, length: int) -> Page:
    """A record the stream ends inside (the caller says so otherwise when the file ends
    inside its gzip member)."""
    error = f"{_CUT}{missing} of {length} bytes missing"
    return Page(article_id, article_id, b"", url=url, error=error)


def _why(exc: BaseException) -> str:
    """Why a record cannot be parsed, in words (never the exception's own text, which can
    hold the damaged bytes)."""
    if isinstance(exc, zlib.error | EOFError | gzip.BadGzipFile):
        return "the gzip data is damaged"
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
        head = zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(handle.read(4096), 16)
    except zlib.error:
        return False
    return head.startswith(WARC_RECORD_START) if len(head) >= 7 else False


def _size(handle: IO[bytes]) -> int:
    return os.fstat(handle.fileno()).st_size


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:300] if text else type(exc).__name__


def _error_page(where: str, error: str) -> Page:
    return Page(safe_id(where), where, b"", error=error)


def read_jsonl_pages(path: Path) -> Iterator[Page]:
    """Pages of a JSON-lines crawl, one ``{"url": ..., "html": ...}`` object a line (or .gz).

    A line that is not such an object becomes a Page with ``error`` set, named
    ``<file>:<line>``; a truncated .gz ends the file with one such Page.
    """
    try:
        raw = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError as exc:
        yield _error_page(path.name, f"unreadable: {exc.strerror or exc}")
        return
    with raw:
        lines: IO[bytes] = raw
        if raw.peek(2)[:2] == GZIP_MAGIC:
            lines = gzip.GzipFile(fileobj=raw)  # type: ignore[assignment]
        number = 0
        while True:
            number += 1
            where = f"{path.name}:{number}"
            try:
                line = lines.readline()
            except (OSError, EOFError, zlib.error) as exc:
                yield _error_page(where, f"corrupt file: {_describe(exc)}")
                return
            if not line:
                return
            if line.strip():
                yield replace(_jsonl_page(line, where), end=raw.tell())


def _jsonl_page(line: bytes, where: str) -> Page:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError) as exc:
        return _error_page(where, f"not valid JSON: {_describe(exc)}")
    if not isinstance(value, dict):
        return _error_page(where, "expected a JSON object")
    url, html = value.get("url"), value.get("html")
    if not isinstance(url, str) or not url.strip():
        return _error_page(where, 'no "url" string')
    article_id = url_id(url)
    if not isinstance(html, str):
        return Page(article_id, article_id, b"", url=url, error='no "html" string')
    data = html.encode("utf-8", errors="replace")  # lone surrogates from \ud800 escapes
    return Page(article_id, article_id, data, url=url, decoded=True)


Reader = Callable[[Path], Iterator[Page]]

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


def iter_pages(
    paths: Sequence[str | Path],
    position: Callable[[int], None] | None = None,
    listings: Listings | None = None,
) -> Iterator[Page]:
    """Pages of every input path, each path's pages in its reader's (sorted) order.

    ``position`` is told, after each page of a crawl file, how many bytes of all the inputs
    (as ``crawl_bytes`` counts them) have been read; ``listings`` (``folder_listings``) spares
    the folders a second walk.
    """
    base = 0
    checked = check_paths(paths)
    prefixes = folder_prefixes(checked)
    for path in checked:
        if input_kind(path) == "folder":
            pages = read_folder(path, listings, prefixes.get(path, ""))
        else:
            pages = reader_for(path)(path)
        for page in pages:
            if position is not None and page.end is not None:
                position(base + page.end)
            yield replace(page, source=readable_name(path.name)) if len(checked) > 1 else page
        if position is not None:
            with contextlib.suppress(OSError):
                base += path.stat().st_size
