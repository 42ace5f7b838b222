"""Inputs -> pages: (article id, path, url, bytes). Folders, files, WARC and JSONL crawls.

Article ids come from the page's path relative to the crawl folder (or its URL), never from
crawl order, so adding a page renumbers nothing else. Readers are in a registry, picked by
suffix; a record that cannot be read becomes a Page with ``error`` set, never an exception, so
one broken record costs that page only.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import re
import zlib
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from email.message import Message
from functools import lru_cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from .errors import UsageError
from .layout import BUILD_MARKERS
from .markdown import MARKDOWN_SUFFIXES, is_markdown
from .models import PassedOver

if TYPE_CHECKING:
    from warcio.archiveiterator import ArchiveIterator

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


def _file_page(path: str | Path, relative: str) -> Page:
    return Page(
        safe_id(relative), relative, b"", file=os.fspath(path), markdown=is_markdown(relative)
    )


class Listing(list[tuple[str, str]]):
    """The pages of a folder, (relative path with "/", full path) sorted, and the count of the
    files of the other kind that were passed over (``html_files``)."""

    passed_over: int = 0
    passed_over_kind: Literal["HTML", "Markdown"] = "Markdown"


def html_files(root: Path) -> Listing:
    """(relative path with "/", full path) of the pages below ``root``, sorted; hidden folders
    (.git, .cache ...) and earlier build folders are passed over. Plain string work per file:
    pathlib objects per file cost more than the walk itself.

    A tree holds HTML pages (*.html, *.htm) or Markdown ones (*.md, *.markdown): whichever
    there are more of (HTML on a tie). The others are not pages of that site: the notes of an
    HTML crawl (README.md, CASES.md), the templates of a Markdown docs tree
    (overrides/main.html). The listing says how many were passed over, and of which kind."""
    top = os.fspath(root)
    found: list[tuple[str, str]] = []
    markdown: list[tuple[str, str]] = []
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".")
            and not all(os.path.exists(os.path.join(folder, d, m)) for m in BUILD_MARKERS)
        )
        inside = os.path.relpath(folder, top)
        prefix = "" if inside == os.curdir else inside.replace(os.sep, "/") + "/"
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
    listing = Listing(sorted(chosen))
    listing.passed_over, listing.passed_over_kind = len(other), kind
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


def _listing(path: Path, listings: Listings | None) -> list[tuple[str, str]]:
    return listings[path] if listings is not None and path in listings else html_files(path)


def read_folder(root: Path, listings: Listings | None = None, prefix: str = "") -> Iterator[Page]:
    """Every page ``html_files`` finds below ``root``, in sorted path order; ids and paths
    start with ``prefix`` (``folder_prefixes``)."""
    for relative, full in _listing(root, listings):
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
    return (url, charset) if url else None


def read_warc(path: Path) -> Iterator[Page]:
    """The HTML responses of a WARC file (``.warc`` or ``.warc.gz``), with their URLs as origin.

    A record cut short (a truncated download, a crawler killed mid-write) becomes a Page with
    ``error`` set. Bytes that cannot be read (a damaged gzip member, garbage between records,
    a record warcio cannot take) become one error Page naming the byte range, in plain words,
    and reading resumes at the next record that can be read: gzip members are independent,
    and a record starts with ``WARC/1.``.
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, the generator may stop early
    except OSError as exc:
        yield _error_page(path.name, f"unreadable: {exc.strerror or exc}")
        return
    with handle:
        start: int | None = 0
        while start is not None:
            start = yield from _read_records(path, handle, start)


def _read_records(path: Path, handle: IO[bytes], base: int) -> Generator[Page, None, int | None]:
    """Pages of the records from byte ``base`` on; returns where reading resumes after bytes
    that cannot be read, None at the end of the file."""
    from warcio.archiveiterator import ArchiveIterator  # only for WARC input

    handle.seek(base)
    records = ArchiveIterator(handle)
    while True:
        try:
            record = next(records)
        except StopIteration:
            # warcio ends quietly where a gzip member or a record's headers were cut short;
            # bytes left over past the last record it read are that cut record.
            tail = _unread_tail(handle, base + _offset(records))
            if tail is not None:
                yield tail
            return None
        except Exception as exc:  # warcio raises many kinds on damaged bytes
            bad = base + _offset(records)
            resume = _next_record(handle, bad + 1)
            end = (resume if resume is not None else _size(handle)) - 1
            why = _unreadable_because(exc, handle, bad)
            yield _error_page(
                f"{path.name}@{bad}", f"bytes {bad}–{end} of {path.name} could not be read: {why}"
            )
            return resume
        try:
            found = _html_record(record)
            if found is None:
                continue
            url, charset = found
            data = record.content_stream().read()
            # warcio reads a record within its Content-Length (``limit`` is what is left
            # unread); with no length, its headers were cut short.
            missing = getattr(record.raw_stream, "limit", None)
        except Exception as exc:
            article_id = _warc_id(record, path, records)
            error = f"corrupt WARC record: {_unreadable_because(exc, None, 0)}"
            yield Page(article_id, article_id, b"", url=None, error=error)
            continue
        article_id = url_id(url)
        if missing is None or missing > 0:
            error = (
                f"truncated WARC record: {missing} of {record.length} bytes missing"
                if missing
                else "truncated WARC record: no Content-Length"
            )
            yield Page(article_id, article_id, b"", url=url, error=error)
            continue
        yield Page(article_id, article_id, data, url=url, http_charset=charset, end=handle.tell())


#: How a WARC record starts, uncompressed, and a gzip member (magic and the deflate method).
WARC_RECORD_START = b"WARC/1."
GZIP_MEMBER_START = GZIP_MAGIC + b"\x08"
#: Bytes read at a time while looking for the next record after damaged bytes.
SCAN_BYTES = 1 << 20


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


def _unreadable_because(exc: BaseException, handle: IO[bytes] | None, offset: int) -> str:
    """Why bytes of a WARC file cannot be read, in words (never the exception's own text,
    which can hold the damaged bytes)."""
    from warcio.exceptions import ArchiveLoadFailed

    if isinstance(exc, zlib.error | EOFError | gzip.BadGzipFile):
        return "the gzip data is damaged"
    if handle is not None and _gzip_member_damaged(handle, offset):
        return "the gzip data is damaged"
    if handle is not None and not _has_target_uri(handle, offset):
        return "a WARC record with no WARC-Target-URI header"
    if isinstance(exc, ArchiveLoadFailed):
        return "not a WARC record (damaged or not a WARC file)"
    return "a WARC record the WARC reader (warcio) cannot take"


def _gzip_member_damaged(handle: IO[bytes], offset: int) -> bool:
    handle.seek(offset)
    return handle.read(2) == GZIP_MAGIC and not _inflates_to_record(handle, offset)


def _has_target_uri(handle: IO[bytes], offset: int) -> bool:
    """Whether the record headers at ``offset`` name a target (warcio fails on a response
    without one); True when they cannot be read, so the caller says "damaged" instead."""
    handle.seek(offset)
    head = handle.read(8192)
    if head[:2] == GZIP_MAGIC:
        try:
            head = zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(head, 8192)
        except zlib.error:
            return True
    if not head.startswith(WARC_RECORD_START):
        return True
    headers = head.split(b"\r\n\r\n", 1)[0]
    return b"\nwarc-target-uri:" in headers.lower()


#: Bytes of an unread WARC tail that are searched for the cut record's URL.
TAIL_BYTES = 1 << 20
_TARGET_URI = re.compile(rb"WARC-Target-URI:[ \t]*<?([^\s>]+)", re.IGNORECASE)


def _unread_tail(handle: IO[bytes], offset: int) -> Page | None:
    """An error Page for bytes after the last record read, unless they are only padding."""
    handle.seek(offset)
    tail = handle.read(TAIL_BYTES)
    if not tail.strip(b"\r\n\t \0"):
        return None
    text = tail
    if tail[:2] == GZIP_MAGIC:
        try:
            text = zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(tail)
        except zlib.error:
            text = b""
    found = _TARGET_URI.search(text)
    where = f"{Path(getattr(handle, 'name', 'warc')).name}@{offset}"
    article_id = url_id(found.group(1).decode("utf-8", "replace")) if found else safe_id(where)
    error = f"truncated WARC record: the file ends inside the record at byte {offset}"
    return Page(article_id, article_id if found else where, b"", error=error)


def _offset(records: ArchiveIterator) -> int:
    return int(getattr(records, "offset", 0) or 0)


def _warc_id(record: object, path: Path, records: ArchiveIterator) -> str:
    try:
        url = record.rec_headers.get_header("WARC-Target-URI")  # type: ignore[attr-defined]
    except Exception:
        url = None
    return url_id(url) if url else safe_id(f"{path.name}@{_offset(records)}")


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
            keys.extend(
                (safe_id(prefix + relative), prefix + relative)
                for relative, _ in _listing(path, listings)
            )
        elif kind == "html":
            keys.append((safe_id(path.name), path.name))
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
            yield replace(page, source=path.name) if len(checked) > 1 else page
        if position is not None:
            with contextlib.suppress(OSError):
                base += path.stat().st_size
