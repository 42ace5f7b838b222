"""Inputs -> pages: folders, WARC (plain, gzipped, truncated) and JSONL crawls; URL ids."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from qrelsmith import build
from qrelsmith.ingest import (
    READERS,
    iter_pages,
    read_jsonl_pages,
    read_warc,
    reader_for,
    safe_id,
    spaceless_id,
    url_id,
)
from qrelsmith.ingest.folder import list_pages, site_kind

WARC = Path(__file__).parent / "fixtures" / "warc"

PAGES = {  # article id -> (url, HTTP charset) of every HTML page in crawl.warc(.gz)
    "example.com/guides/rdp": ("https://example.com/guides/rdp#top", "utf-8"),
    "example.com/ja/port": ("https://example.com/ja/port", "Shift_JIS"),
    "example.com/guides/ssh?lang=en": ("https://Example.com:443/guides/ssh?lang=en", None),
    "example.com/notes/resource": ("https://example.com/notes/resource", None),
    "example.com/last": ("https://example.com/last", "utf-8"),
}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.com/blog/rdp", "example.com/blog/rdp"),
        ("http://example.com/blog/rdp#section-2", "example.com/blog/rdp"),
        ("https://Example.COM:443/a?b=1&c=2#x", "example.com/a?b=1&c=2"),
        ("http://example.com:8080/a", "example.com:8080/a"),
        ("https://user:pw@example.com/", "example.com/"),
        ("https://example.com", "example.com/"),
        ("https://example.com/a b/c%20d", "example.com/a%20b/c%2520d"),
        ("https://example.com:99999/x", "example.com:99999/x"),  # bad port: text kept
    ],
)
def test_url_id_drops_scheme_and_fragment(url: str, expected: str) -> None:
    assert url_id(url) == expected


@pytest.mark.parametrize(
    ("text", "article_id", "given_id"),
    [
        ("a b", "a%20b", "a%20b"),
        ("50%", "50%25", "50%"),  # an article id's '%' is encoded: "a b" and "a%20b" stay two
        ("tab\there", "tab%09here", "tab%09here"),
        ("全角\u3000空白", "全角%E3%80%80空白", "全角%E3%80%80空白"),  # UTF-8 bytes, upper case
        ("plain/é?q=1#x", "plain/é?q=1#x", "plain/é?q=1#x"),
    ],
)
def test_one_escaper_for_article_ids_and_given_ids(
    text: str, article_id: str, given_id: str
) -> None:
    assert safe_id(text) == article_id
    assert spaceless_id(text) == given_id


def test_a_folder_is_html_or_markdown_by_the_majority_html_on_a_tie(tmp_path: Path) -> None:
    assert [site_kind(1, 1), site_kind(2, 1), site_kind(1, 2), site_kind(0, 0)] == [
        "HTML",
        "HTML",
        "Markdown",
        "HTML",
    ]
    for name in ("index.html", "README.md", "guide.md"):
        (tmp_path / name).write_text("<p>x</p>", encoding="utf-8")
    listing = list_pages(tmp_path)
    assert [relative for relative, _ in listing] == ["README.md", "guide.md"]
    assert (listing.passed_over, listing.passed_over_kind) == (1, "HTML")


def test_several_inputs_prefix_a_folder_ids_and_name_each_page_source(tmp_path: Path) -> None:
    docs, blog = tmp_path / "docs", tmp_path / "blog"
    (docs / "sub dir").mkdir(parents=True)
    blog.mkdir()
    (docs / "sub dir" / "a.html").write_text("<p>a</p>", encoding="utf-8")
    (blog / "index.html").write_text("<p>b</p>", encoding="utf-8")
    (tmp_path / "one.html").write_text("<p>c</p>", encoding="utf-8")
    pages = list(iter_pages([docs, blog, tmp_path / "one.html"]))
    assert [(p.article_id, p.path, p.source) for p in pages] == [
        ("docs/sub%20dir/a.html", "docs/sub dir/a.html", "docs"),
        ("blog/index.html", "blog/index.html", "blog"),
        ("one.html", "one.html", "one.html"),
    ]
    alone = list(iter_pages([docs]))
    assert [(p.article_id, p.path, p.source) for p in alone] == [
        ("sub%20dir/a.html", "sub dir/a.html", "")
    ]


@pytest.mark.parametrize("name", ["crawl.warc.gz", "crawl.warc"])
def test_warc_yields_html_responses_with_url_and_http_charset(name: str) -> None:
    pages = list(read_warc(WARC / name))
    found = [(p.article_id, p.url, p.http_charset) for p in pages]
    # the same page twice (https, then http): both read; the build keeps one
    assert (
        found.count(("example.com/guides/rdp", "http://example.com/guides/rdp#again", "utf-8")) == 1
    )
    assert {
        p.article_id: (p.url, p.http_charset) for p in pages if "#again" not in (p.url or "")
    } == PAGES
    assert all(p.error is None and p.path == p.article_id for p in pages)
    ssh = next(p for p in pages if p.article_id.startswith("example.com/guides/ssh"))
    assert ssh.data.startswith(b"<!doctype html>")  # chunked + gzip content-encoding undone


def test_http_charset_decodes_a_page_that_declares_none(tmp_path: Path) -> None:
    result = build([WARC / "crawl.warc.gz"])
    japanese = next(q for q in result.queries if q.qid.startswith("example.com/ja/port"))
    assert japanese.query == "RDPのポート番号は？"
    assert japanese.origin.url == "https://example.com/ja/port"
    assert [s.path for s in result.report.skipped] == ["example.com/guides/rdp"]  # the duplicate


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("truncated.warc.gz", "truncated WARC record: the file ends inside the record"),
        ("truncated.warc", "truncated WARC record: 1056 of 2386 bytes missing"),
    ],
)
def test_truncated_warc_reports_the_cut_record_and_keeps_the_rest(name: str, reason: str) -> None:
    pages = list(read_warc(WARC / name))
    assert [p.article_id for p in pages if p.error is None] == [
        "example.com/guides/rdp",
        "example.com/ja/port",
        "example.com/guides/ssh?lang=en",
        "example.com/guides/rdp",
        "example.com/notes/resource",
    ]
    last = pages[-1]
    assert last.article_id == "example.com/last" and last.error is not None
    assert last.error.startswith(reason)
    result = build([WARC / name])
    assert result.report.counts.articles == 4
    assert ("example.com/last", True) in [
        (s.path, s.reason.startswith(reason)) for s in result.report.skipped
    ]


def test_garbage_warc_is_one_error_page(tmp_path: Path) -> None:
    junk = tmp_path / "junk.warc.gz"
    junk.write_bytes(b"\x1f\x8b" + bytes(range(256)) * 4)
    pages = list(read_warc(junk))
    assert len(pages) == 1 and pages[0].error
    (tmp_path / "empty.warc").write_bytes(b"")
    assert list(read_warc(tmp_path / "empty.warc")) == []


def write_jsonl(path: Path, lines: list[str], compress: bool = False) -> Path:
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    path.write_bytes(gzip.compress(data) if compress else data)
    return path


GOOD = '<html><head><meta charset="iso-8859-1"></head><body><h1>Ça</h1><h2>Über</h2><p>Grüße</p></body></html>'


@pytest.mark.parametrize("compress", [False, True])
def test_jsonl_pages_and_bad_lines(tmp_path: Path, compress: bool) -> None:
    lines = [
        json.dumps({"url": "https://example.com/a#x", "html": GOOD}),
        "",
        "{not json",
        json.dumps(["a", "list"]),
        json.dumps({"html": GOOD}),
        json.dumps({"url": "https://example.com/b", "html": None}),
        json.dumps({"url": "https://example.com/c", "html": "\ud800 lone surrogate <p>x</p>"}),
    ]
    path = write_jsonl(
        tmp_path / ("crawl.jsonl.gz" if compress else "crawl.jsonl"), lines, compress
    )
    assert reader_for(path) is READERS["jsonl"]
    pages = list(read_jsonl_pages(path))
    name = path.name
    assert [(p.article_id, p.error) for p in pages] == [
        ("example.com/a", None),
        (
            f"{name}:3",
            "not valid JSON: JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        ),
        (f"{name}:4", "expected a JSON object"),
        (f"{name}:5", 'no "url" string'),
        ("example.com/b", 'no "html" string'),
        ("example.com/c", None),
    ]
    # The html string is already text: its stale <meta charset> must not decode it again.
    result = build([path])
    assert result.corpus[0].heading == "Über" and result.corpus[0].text == "Grüße"
    assert result.corpus[0].title == "Ça"


def test_truncated_jsonl_gz_keeps_the_lines_before_the_cut(tmp_path: Path) -> None:
    lines = [json.dumps({"url": f"https://example.com/{n}", "html": GOOD * 20}) for n in range(50)]
    whole = gzip.compress("".join(line + "\n" for line in lines).encode())
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(whole[: len(whole) // 2])
    pages = list(iter_pages([path]))
    assert pages[-1].error and pages[-1].error.startswith("corrupt file: EOFError")
    assert [p.article_id for p in pages[:-1]] == [f"example.com/{n}" for n in range(len(pages) - 1)]


def test_reader_for_picks_by_suffix(tmp_path: Path) -> None:
    for name, kind in [
        ("a.warc", "warc"),
        ("a.WARC.GZ", "warc"),
        ("a.jsonl", "jsonl"),
        ("a.jsonl.gz", "jsonl"),
        ("a.html", "html"),
        ("a.htm", "html"),
        ("a.txt", "html"),
    ]:
        path = tmp_path / name
        path.write_bytes(b"")
        assert reader_for(path) is READERS[kind], name
    assert reader_for(tmp_path) is READERS["folder"]


def _record_offsets(path: Path) -> list[int]:
    from warcio.archiveiterator import ArchiveIterator

    with open(path, "rb") as handle:
        records = ArchiveIterator(handle)
        return [records.offset for _ in records]


def _plain_words(reason: str) -> bool:
    # no exception class, no raw bytes of the damaged data
    return (
        "Error" not in reason
        and "Failed" not in reason
        and reason.isprintable()
        and "\ufffd" not in reason
    )


@pytest.mark.parametrize("name", ["crawl.warc.gz", "crawl.warc"])
def test_a_damaged_record_costs_only_its_bytes(tmp_path: Path, name: str) -> None:
    whole = (WARC / name).read_bytes()
    offsets = _record_offsets(WARC / name)
    start, end = offsets[3], offsets[4]  # the request record before the Japanese page
    damaged = bytearray(whole)
    at = start + 12 if name.endswith(".gz") else start  # inside the deflate data; the WARC/1.0 line
    damaged[at : at + 48] = b"\x00" * 48
    path = tmp_path / name
    path.write_bytes(bytes(damaged))
    pages = list(read_warc(path))
    errors = [p for p in pages if p.error]
    assert [p.article_id for p in pages if not p.error] == [
        p.article_id for p in read_warc(WARC / name)
    ]
    assert len(errors) == 1
    assert errors[0].error is not None and errors[0].error.startswith(
        f"bytes {start}–{end - 1} of {name} could not be read: "
    )
    assert _plain_words(errors[0].error), errors[0].error


@pytest.mark.parametrize("compress", [False, True])
def test_a_record_without_target_uri_is_reported_in_plain_words(
    tmp_path: Path, compress: bool
) -> None:
    import io

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=compress)
    for url in ("", "https://example.com/after"):
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.0")
        body = io.BytesIO(b"<html><body><h2>Title</h2><p>text</p></body></html>")
        record = writer.create_warc_record(url, "response", payload=body, http_headers=http)
        if not url:
            record.rec_headers.remove_header("WARC-Target-URI")
        writer.write_record(record)
    path = tmp_path / ("x.warc.gz" if compress else "x.warc")
    path.write_bytes(buffer.getvalue())
    pages = list(read_warc(path))
    assert [p.article_id for p in pages if not p.error] == ["example.com/after"]
    [error] = [p.error for p in pages if p.error]
    assert error is not None and "no WARC-Target-URI" in error and _plain_words(error), error


def _crawl_of(count: int, compress: bool) -> tuple[bytes, list[tuple[int, int]]]:
    """A WARC of ``count`` request/response pairs and the (start, end) of every response
    record (one gzip member each when compressed)."""
    import io

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=compress)
    spans = []
    for number in range(count):
        url = f"https://example.com/page/{number}"
        request = StatusAndHeaders(f"GET {url} HTTP/1.1", [], is_http_request=True)
        writer.write_record(writer.create_warc_record(url, "request", http_headers=request))
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        body = f"<html><body><h2>Page {number}</h2><p>{'text ' * 40}</p></body></html>"
        start = buffer.tell()
        writer.write_record(
            writer.create_warc_record(
                url, "response", payload=io.BytesIO(body.encode()), http_headers=http
            )
        )
        spans.append((start, buffer.tell()))
    return buffer.getvalue(), spans


def _reported_range(error: str) -> tuple[int, int]:
    import re

    found = re.match(r"bytes (\d+)–(\d+) of ", error)
    assert found, error
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize("compress", [True, False])
@pytest.mark.parametrize("every", [1, 2, 3, 5, 7])
def test_every_record_is_built_or_reported_however_many_members_are_damaged(
    tmp_path: Path, compress: bool, every: int
) -> None:
    # Issue 16: two damaged gzip members made warcio stop, and records after them were lost
    # without a word; reported ranges named bytes past the end of the file.
    whole, spans = _crawl_of(50, compress)
    damaged = bytearray(whole)
    hit = spans[every - 1 :: every]
    for start, _ in hit:
        # inside the deflate data of a member; the WARC/1.0 line of a plain record
        at = start + 20 if compress else start
        damaged[at : at + 8] = b"\x00" * 8
    path = tmp_path / ("crawl.warc.gz" if compress else "crawl.warc")
    path.write_bytes(bytes(damaged))
    pages = list(read_warc(path))
    built = [p.article_id for p in pages if p.error is None]
    errors = [p.error for p in pages if p.error is not None]
    assert len(built) + len(errors) == 50
    wanted = [f"example.com/page/{n}" for n in range(50) if (n + 1) % every]
    assert built == wanted
    ranges = [_reported_range(error) for error in errors]
    if compress:  # a damaged member is named whole: its first and last byte
        assert ranges == [(start, end - 1) for start, end in hit]
    else:  # up to the next record's start (the request before the next response)
        for (first, last), (start, _) in zip(ranges, hit, strict=True):
            assert first == start and damaged[last + 1 : last + 8] in (b"WARC/1.", b"")
    assert all(last < len(damaged) for _, last in ranges)


@pytest.mark.parametrize("compress", [True, False])
def test_a_damaged_member_and_a_cut_last_record_are_both_reported(
    tmp_path: Path, compress: bool
) -> None:
    whole, spans = _crawl_of(10, compress)
    damaged = bytearray(whole[: spans[-1][0] + (spans[-1][1] - spans[-1][0]) // 2])
    at = spans[3][0] + (20 if compress else 0)
    damaged[at : at + 8] = b"\x00" * 8
    path = tmp_path / ("crawl.warc.gz" if compress else "crawl.warc")
    path.write_bytes(bytes(damaged))
    pages = list(read_warc(path))
    assert [p.article_id for p in pages if p.error is None] == [
        f"example.com/page/{n}" for n in (0, 1, 2, 4, 5, 6, 7, 8)
    ]
    errors = [(p.article_id, p.error) for p in pages if p.error]
    assert len(errors) == 2
    assert _reported_range(errors[0][1] or "")[0] == spans[3][0]
    assert errors[1][0] == "example.com/page/9"
    assert (errors[1][1] or "").startswith("truncated WARC record: ")


@pytest.mark.parametrize("compress", [True, False])
def test_warc_pages_whose_target_is_no_web_url_are_reported(tmp_path: Path, compress: bool) -> None:
    # Issue 16: file:, relative and javascript: targets were passed over without a word.
    import io

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=compress)
    targets = [
        "file:///etc/page.html",
        "guides/relative.html",
        "javascript:void(0)",
        "https://e.com/ok",
    ]
    for url in targets:
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        body = io.BytesIO(b"<html><body><h2>Title</h2><p>text</p></body></html>")
        writer.write_record(
            writer.create_warc_record(url, "response", payload=body, http_headers=http)
        )
    path = tmp_path / ("x.warc.gz" if compress else "x.warc")
    path.write_bytes(buffer.getvalue())
    pages = list(read_warc(path))
    assert [p.article_id for p in pages if p.error is None] == ["e.com/ok"]
    assert [p.error for p in pages if p.error] == [
        "the target URI is a file: URI, not a web page: 'file:///etc/page.html'",
        "the target URI is relative, not a URL: 'guides/relative.html'",
        "the target URI is a javascript: URI, not a web page: 'javascript:void(0)'",
    ]


PAGE = b"<html><body><h2>Heading</h2><p>text</p></body></html>"


def _unreadable(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make ``folder`` fail to list as a folder without read permission does (the tests run
    as root, whom chmod does not stop)."""
    import os

    real = os.scandir

    def scandir(path: object = ".") -> object:
        if not isinstance(path, int) and os.fspath(path) == os.fspath(folder):  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", os.fspath(folder))  # type: ignore[arg-type]
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)


def test_an_unreadable_sub_folder_is_reported_and_the_build_exits_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 16: the walk ignored errors: exit 0, "skipped pages: 0".
    from qrelsmith.cli import main

    site = tmp_path / "site"
    (site / "locked").mkdir(parents=True)
    (site / "locked" / "page.html").write_bytes(PAGE)
    (site / "a.html").write_bytes(PAGE)
    (site / "z.html").write_bytes(PAGE)
    _unreadable(monkeypatch, site / "locked")
    pages = list(iter_pages([site]))
    assert [(p.article_id, p.error) for p in pages] == [
        ("a.html", None),
        ("locked/", "unreadable folder: Permission denied"),
        ("z.html", None),
    ]
    out = tmp_path / "out"
    for workers in ("1", "2"):
        assert main(["build", str(site), "--out", str(out), "-q", "-j", workers]) == 3
        report = json.loads((out / "report.json").read_text())
        assert report["skipped"] == [
            {"path": "locked/", "reason": "unreadable folder: Permission denied"}
        ]


def test_symlinked_sub_folders_are_followed_and_a_loop_is_reported(tmp_path: Path) -> None:
    # Issue 16: a symlinked sub-folder was neither read nor reported.
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "common.html").write_bytes(PAGE)
    site = tmp_path / "site"
    (site / "guides").mkdir(parents=True)
    (site / "guides" / "a.html").write_bytes(PAGE)
    (site / "guides" / "shared").symlink_to(shared, target_is_directory=True)
    (site / "guides" / "again").symlink_to(site, target_is_directory=True)  # a loop
    pages = [(p.article_id, p.error) for p in iter_pages([site])]
    assert pages == [
        ("guides/a.html", None),
        ("guides/again/", "a symbolic link to a folder it is inside (a loop): not followed"),
        ("guides/shared/common.html", None),
    ]


def test_a_file_name_that_is_not_utf8_costs_nothing(tmp_path: Path) -> None:
    # Issue 16: one such name crashed the whole build (a traceback in report.py, exit 1).
    import os

    from qrelsmith.cli import main

    site = tmp_path / "site"
    site.mkdir()
    (site / "good.html").write_bytes(PAGE)
    with open(os.path.join(os.fsencode(site), b"bad\xff\xfe.html"), "wb") as handle:
        handle.write(PAGE)
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q", "-j", "1"]) == 1  # no query in PAGE
    corpus = [json.loads(line) for line in (out / "corpus.jsonl").read_text().splitlines()]
    assert [(r["id"], r["path"]) for r in corpus] == [
        ("bad%25FF%25FE.html#0", "bad%FF%FE.html"),
        ("good.html#0", "good.html"),
    ]


@pytest.mark.parametrize("several", [False, True])
def test_two_names_that_read_alike_are_told_apart_in_the_skip(
    tmp_path: Path, several: bool
) -> None:
    # Issue 27, item 13: bad\xff.html and bad%FF.html share one id, and the skip entry named
    # the dropped file "bad%FF.html", as the kept one is named.
    import os

    from qrelsmith.cli import main

    site = tmp_path / "site"
    site.mkdir()
    (site / "bad%FF.html").write_bytes(PAGE)
    with open(os.path.join(os.fsencode(site), b"bad\xff.html"), "wb") as handle:
        handle.write(PAGE)
    other = tmp_path / "other"  # with a second input, paths start with the folder's name
    other.mkdir()
    (other / "x.html").write_bytes(PAGE)
    out = tmp_path / "out"
    inputs = [str(site), str(other)] if several else [str(site)]
    assert main(["build", *inputs, "--out", str(out), "-q", "-j", "1"]) == 3
    report = json.loads((out / "report.json").read_text())
    prefix = "site/" if several else ""
    assert report["skipped"] == [
        {
            "path": f"{prefix}bad\\xff.html",
            "reason": f"duplicate article id (same as {prefix}bad%FF.html)",
        }
    ]


def test_a_gzip_record_without_target_uri_names_its_own_member(tmp_path: Path) -> None:
    import io
    import random

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=True)
    starts = []
    for url in ("https://example.com/before", "", "https://example.com/after"):
        starts.append(buffer.tell())
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.0")
        text = b"<html><body><h2>Title</h2><p>text</p></body></html>"
        if not url:  # a member larger than one read, so it is still being read when reported
            text += random.Random(0).randbytes(300_000)
        body = io.BytesIO(text)
        record = writer.create_warc_record(url, "response", payload=body, http_headers=http)
        if not url:
            record.rec_headers.remove_header("WARC-Target-URI")
        writer.write_record(record)
    path = tmp_path / "x.warc.gz"
    path.write_bytes(buffer.getvalue())
    pages = list(read_warc(path))
    assert [p.article_id for p in pages if not p.error] == [
        "example.com/before",
        "example.com/after",
    ]
    [error] = [p.error for p in pages if p.error]
    assert error == (
        f"bytes {starts[1]}–{starts[2] - 1} of x.warc.gz could not be read: "
        "a WARC record with no WARC-Target-URI header"
    )
