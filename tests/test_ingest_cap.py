"""The page cap (issue 27, item 4): a page over ``[build] max_page_bytes`` is skipped with its
size, inflating stops at the cap, and one page's memory is bounded. The bombs are made here, in
a temporary folder, by streaming compression: none is stored in the repository."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import tracemalloc
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from qrelsmith import build
from qrelsmith.cli import main
from qrelsmith.config import BuildOptions, Config
from qrelsmith.ingest import iter_pages, read_jsonl_pages, read_warc, warc

GOOD = (
    b"<html><body><h1>Good</h1><h2>Ports</h2><p>Use port 22.</p><table><tr><th>Question</th>"
    b"<th>Section</th></tr><tr><td>which port for ssh</td><td>Ports</td></tr></table></body></html>"
)
T = TypeVar("T")
FILL = b"a" * (1 << 16)
HTTP_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"


def bomb_body(size: int) -> Iterator[bytes]:
    """``size`` bytes of one HTML page, a block at a time."""
    start = b"<html><body><h2>Bomb</h2><p>"
    yield start
    left = size - len(start)
    while left > 0:
        yield FILL[:left]
        left -= len(FILL)


def warc_record(
    url: str, body: Iterable[bytes], length: int, encoding: str = ""
) -> Iterator[bytes]:
    """The bytes of a WARC response record whose HTTP body (``length`` bytes) is ``body``."""
    http = HTTP_HEAD + (f"Content-Encoding: {encoding}\r\n".encode() if encoding else b"")
    http += b"\r\n"
    yield (
        f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http) + length}\r\n\r\n"
    ).encode()
    yield http
    yield from body
    yield b"\r\n\r\n"


def gzip_member(chunks: Iterable[bytes]) -> bytes:
    """One gzip member of ``chunks``, compressed as they come."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    return b"".join(deflate.compress(chunk) for chunk in chunks) + deflate.flush()


def write_bomb_warc(path: Path, size: int) -> Path:
    """A .warc.gz: a page inflating to ``size`` bytes, then a good page, a member each."""
    with open(path, "wb") as out:
        out.write(gzip_member(warc_record("https://example.com/bomb", bomb_body(size), size)))
        out.write(gzip_member(warc_record("https://example.com/good", [GOOD], len(GOOD))))
    return path


def traced(read: Callable[[], T]) -> tuple[T, int]:
    """What ``read`` returns, and the peak of the memory Python allocated meanwhile."""
    tracemalloc.start()
    try:
        return read(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_folder_page_over_the_cap_is_skipped_with_its_size(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "at-cap.html").write_bytes(GOOD)
    (site / "over.html").write_bytes(GOOD + b" ")
    options = Config(build=BuildOptions(max_page_bytes=len(GOOD)))
    result = build([site], options)
    assert [s.path for s in result.report.skipped] == ["over.html"]
    assert result.report.skipped[0].reason == (
        f"the file holds {len(GOOD) + 1:,} bytes, over the page cap of {len(GOOD)} bytes "
        "([build] max_page_bytes)"
    )
    assert [q.qid for q in result.queries] == ["at-cap.html#q0"]
    # report.json's manifest names a cap that was set, and no cap at its default (the bytes
    # a build wrote before there was one)
    assert result.report.manifest.config["build"]["max_page_bytes"] == len(GOOD)  # type: ignore[index]
    assert "max_page_bytes" not in build([site]).report.manifest.config["build"]  # type: ignore[operator]
    (site / "over.html").write_bytes(b" " * (16 << 20))
    _, peak = traced(lambda: build([site], options))
    assert peak < 4 << 20  # the file over the cap is not read


def test_a_warc_gz_bomb_is_not_inflated_past_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_bomb_warc(tmp_path / "bomb.warc.gz", 64 << 20)
    inflated = []
    real_read = warc._Member.read

    def counted(member: warc._Member, size: int) -> bytes:
        data = real_read(member, size)
        inflated.append(len(data))
        return data

    monkeypatch.setattr(warc._Member, "read", counted)
    pages, peak = traced(lambda: list(read_warc(path, limit=1 << 20)))
    assert [(p.article_id, p.error) for p in pages] == [
        (
            "example.com/bomb",
            f"its WARC record holds {(64 << 20) + len(HTTP_HEAD) + 2:,} bytes, over the page "
            "cap of 1,048,576 bytes ([build] max_page_bytes)",
        ),
        ("example.com/good", None),
    ]
    assert pages[1].data == GOOD
    assert sum(inflated) < 1 << 20  # the bomb's member was left after its headers
    assert peak < 8 << 20


def test_a_record_over_the_cap_inside_a_member_or_a_plain_warc_is_passed_over(
    tmp_path: Path,
) -> None:
    records = [
        *warc_record("https://example.com/first", [GOOD], len(GOOD)),
        *warc_record("https://example.com/bomb", bomb_body(3 << 20), 3 << 20),
        *warc_record("https://example.com/good", [GOOD], len(GOOD)),
    ]
    plain = tmp_path / "plain.warc"
    plain.write_bytes(b"".join(records))
    whole = tmp_path / "whole.warc.gz"  # one member for the whole file, as some tools write
    whole.write_bytes(gzip_member(records))
    for path in (plain, whole):
        pages, peak = traced(lambda path=path: list(read_warc(path, limit=1 << 20)))
        assert [p.article_id for p in pages] == [
            "example.com/first",
            "example.com/bomb",
            "example.com/good",
        ]
        assert "over the page cap of 1,048,576 bytes" in (pages[1].error or "")
        assert pages[0].data == pages[2].data == GOOD
        assert peak < 3 << 20, path.name


def chunked(body: bytes) -> bytes:
    """``body`` as one chunk of an HTTP chunked transfer encoding."""
    return b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"


def compressed(body: Iterable[bytes], wbits: int) -> bytes:
    """``body`` compressed into one zlib stream: gzip, zlib or raw deflate by ``wbits``."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, wbits)
    return b"".join(deflate.compress(chunk) for chunk in body) + deflate.flush()


def encoded_warc(path: Path, body: bytes, headers: str) -> Path:
    """A .warc: a page whose HTTP body is ``body`` under ``headers``, then a good page."""
    record = warc_record("https://example.com/bomb", [body], len(body), "")
    head = next(record)
    http = HTTP_HEAD + headers.encode() + b"\r\n"
    head = head.replace(
        b"Content-Length: %d" % (len(HTTP_HEAD) + 2 + len(body)),
        b"Content-Length: %d" % (len(http) + len(body)),
    )
    path.write_bytes(
        b"".join(
            [
                head,
                http,
                body,
                b"\r\n\r\n",
                *warc_record("https://example.com/good", [GOOD], len(GOOD)),
            ]
        )
    )
    return path


BOMBS = {
    "gzip": lambda body: (compressed(body, zlib.MAX_WBITS | 16), "Content-Encoding: gzip\r\n"),
    "deflate": lambda body: (compressed(body, zlib.MAX_WBITS), "Content-Encoding: deflate\r\n"),
    "raw deflate": lambda body: (
        compressed(body, -zlib.MAX_WBITS),
        "Content-Encoding: deflate\r\n",
    ),
    "chunked gzip": lambda body: (
        chunked(compressed(body, zlib.MAX_WBITS | 16)),
        "Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n",
    ),
}


@pytest.mark.parametrize("kind", sorted(BOMBS))
def test_a_content_encoding_bomb_stops_at_the_cap(tmp_path: Path, kind: str) -> None:
    # A small record whose body inflates to 96 MiB. warcio's reader inflated 16 KiB of
    # compressed bytes at a time (up to ~17 MB at once) and a chunked body's whole chunk at
    # once (here all 96 MiB; 2.1 GB for a 1 GiB bomb): now no more than 64 KiB at a time, so
    # the peak is the cap and a little.
    body, headers = BOMBS[kind](bomb_body(96 << 20))
    path = encoded_warc(tmp_path / "encoded.warc", body, headers)
    pages, peak = traced(lambda: list(read_warc(path, limit=1 << 20)))
    assert [(p.article_id, p.error) for p in pages] == [
        (
            "example.com/bomb",
            "it inflates to more than 1,048,576 bytes, over the page cap of 1,048,576 bytes "
            "([build] max_page_bytes)",
        ),
        ("example.com/good", None),
    ]
    assert peak < 3 << 20


PAGE = b"<html><body><h2>Page</h2><p>" + b"words and more words " * 20_000 + b"</p></body></html>"


@pytest.mark.parametrize(
    ("body", "headers"),
    [
        (compressed([PAGE], zlib.MAX_WBITS | 16), "Content-Encoding: gzip\r\n"),
        (compressed([PAGE], zlib.MAX_WBITS | 16) * 2, "Content-Encoding: GZIP\r\n"),
        (compressed([PAGE], zlib.MAX_WBITS), "Content-Encoding: deflate\r\n"),
        (compressed([PAGE], -zlib.MAX_WBITS), "Content-Encoding: deflate\r\n"),
        (PAGE, "Content-Encoding: gzip\r\n"),  # says gzip, is not: read as it is
        (PAGE, "Content-Encoding: compress\r\n"),
        (
            chunked(compressed([PAGE], zlib.MAX_WBITS | 16)),
            "Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n",
        ),
        (chunked(PAGE), "Transfer-Encoding: chunked\r\n"),
        (PAGE, "Transfer-Encoding: chunked\r\n"),  # says chunked, is not
        (compressed([PAGE], zlib.MAX_WBITS | 16)[:-4000], "Content-Encoding: gzip\r\n"),  # cut
    ],
)
def test_a_body_reads_as_warcio_reads_it(tmp_path: Path, body: bytes, headers: str) -> None:
    from warcio.archiveiterator import ArchiveIterator

    path = encoded_warc(tmp_path / "page.warc", body, headers)
    with open(path, "rb") as handle:
        expected = next(iter(ArchiveIterator(handle))).content_stream().read()
    page = next(iter(read_warc(path)))
    assert page.error is None
    assert page.data == expected
    assert PAGE.startswith(page.data[:100])


def test_a_brotli_body_is_reported_when_brotli_cannot_stop_at_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(warc, "_bounded_brotli", lambda: False)
    path = encoded_warc(tmp_path / "br.warc", b"\x1b\x00", "Content-Encoding: br\r\n")
    pages = list(read_warc(path))
    assert [(p.article_id, p.error) for p in pages] == [
        ("example.com/bomb", warc.NO_BROTLI),
        ("example.com/good", None),
    ]


def test_a_brotli_bomb_stops_at_the_cap(tmp_path: Path) -> None:
    brotli = pytest.importorskip("brotli", reason="brotli is no dependency of qrelsmith")
    if not warc._bounded_brotli():
        pytest.skip("brotli older than 1.2 cannot stop at an output size")
    body = brotli.compress(b"".join(bomb_body(96 << 20)))
    path = encoded_warc(tmp_path / "br.warc", body, "Content-Encoding: br\r\n")
    pages, peak = traced(lambda: list(read_warc(path, limit=1 << 20)))
    assert [p.error is not None and "inflates to more than" in p.error for p in pages] == [
        True,
        False,
    ]
    assert peak < 3 << 20
    small = encoded_warc(tmp_path / "small.warc", brotli.compress(PAGE), "Content-Encoding: br\r\n")
    assert next(iter(read_warc(small))).data == PAGE


def test_a_jsonl_gz_line_over_the_cap_is_skipped_and_the_next_read(tmp_path: Path) -> None:
    path = tmp_path / "crawl.jsonl.gz"
    html = "<html><body><h2>Bomb</h2><p>" + "a" * (8 << 20) + "</p>"
    fits = json.dumps({"url": "https://example.com/fits", "html": "x" * 100})
    lines = [
        json.dumps({"url": "https://example.com/bomb", "html": html}),
        json.dumps({"url": "https://example.com/good", "html": GOOD.decode()}),
        fits,
    ]
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    limit = max(len(lines[1]), len(fits)) + 1  # the line break fits too
    pages, peak = traced(lambda: list(read_jsonl_pages(path, limit=limit)))
    assert [(p.path, p.error) for p in pages] == [
        (
            "crawl.jsonl.gz:1",
            f"the line holds more than {limit:,} bytes, over the page cap of {limit:,} bytes "
            "([build] max_page_bytes)",
        ),
        ("example.com/good", None),
        ("example.com/fits", None),
    ]
    assert peak < 4 << 20


def test_iter_pages_passes_the_cap_to_crawl_readers(tmp_path: Path) -> None:
    path = tmp_path / "crawl.jsonl"
    path.write_text(json.dumps({"url": "https://example.com/a", "html": "x" * 50}) + "\n")
    assert [p.error is None for p in iter_pages([path], limit=1000)] == [True]
    assert [p.error is None for p in iter_pages([path], limit=10)] == [False]


@pytest.mark.parametrize("value", ["0", "1073741825"])
def test_the_cap_is_bounded_in_the_config(
    tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "site.toml"
    config.write_text(f"[build]\nmax_page_bytes = {value}\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_bytes(GOOD)
    assert main(["build", str(site), "--out", str(tmp_path / "out"), "-c", str(config)]) == 2
    assert "config" in capsys.readouterr().err and not (tmp_path / "out").exists()


def test_a_build_of_a_bomb_stays_small_in_memory(tmp_path: Path) -> None:
    """The whole command on a 256 MiB bomb (1 GB in issue 27 took 5.9 GB and 41 s): the peak
    resident memory of the build, in a process of its own, stays under 300 MB."""
    path = write_bomb_warc(tmp_path / "bomb.warc.gz", 256 << 20)
    out = tmp_path / "out"
    measure = (
        "import resource, subprocess, sys; "
        "code = subprocess.call(sys.argv[1:]); "
        "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    command = [sys.executable, "-m", "qrelsmith", "build", str(path), "--out", str(out), "-q"]
    done = subprocess.run(
        [sys.executable, "-c", measure, *command, "-j", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    code, peak_kib = map(int, done.stdout.split())
    assert code == 3  # written, the bomb skipped
    assert peak_kib < 300_000
    report = json.loads((out / "report.json").read_text())
    assert [s["path"] for s in report["skipped"]] == ["example.com/bomb"]
    assert report["counts"]["articles"] == 1
