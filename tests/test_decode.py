"""decode.py: BOM, declared charset, HTTP charset, detection, and what is refused."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from qrelsmith.errors import DataError
from qrelsmith.page.decode import declared_encoding, decode, sniff, sniff_page

JA = "<html><head>{meta}</head><body><p>日本語のページです。ポート番号とファイアウォールの設定。</p></body></html>"


@pytest.mark.parametrize(
    ("meta", "encoding", "expected"),
    [
        ('<meta charset="Shift_JIS">', "shift_jis", "cp932"),
        (
            '<meta http-equiv="Content-Type" content="text/html; charset=EUC-JP">',
            "euc_jp",
            "euc_jp",
        ),
        ('<meta charset="utf-8">', "utf-8", "utf-8"),
    ],
)
def test_declared_encodings_are_used(meta: str, encoding: str, expected: str) -> None:
    data = JA.format(meta=meta).encode(encoding)
    text, used = decode(data)
    assert used == expected
    assert "ポート番号" in text


def test_bom_wins_over_a_wrong_declaration() -> None:
    data = codecs.BOM_UTF8 + JA.format(meta='<meta charset="iso-8859-1">').encode("utf-8")
    text, used = decode(data)
    assert used == "utf-8"
    assert text.startswith("<html>")


def test_wrong_declaration_falls_back_to_what_decodes() -> None:
    data = JA.format(meta='<meta charset="utf-8">').encode("shift_jis")
    text, _ = decode(data)
    assert "ポート番号" in text


def test_undeclared_shift_jis_is_detected() -> None:
    data = (JA.format(meta="") * 5).encode("shift_jis")
    text, used = decode(data)
    assert "ファイアウォール" in text, used


def test_http_charset_used_when_page_declares_none() -> None:
    data = JA.format(meta="").encode("euc_jp")
    assert sniff(data, http_charset="EUC-JP")[0] == "euc_jp"


def test_binary_is_refused() -> None:
    with pytest.raises(DataError, match="binary"):
        sniff(bytes(range(256)) * 4)


def test_meta_prescan_only_reads_the_head() -> None:
    assert declared_encoding(b"<meta charset='koi8-r'>") == "koi8-r"
    assert declared_encoding(b"x" * 5000 + b"<meta charset='koi8-r'>") is None
    assert declared_encoding(b"<meta charset='no-such-thing'>") is None


ENGLISH = (
    "<html><head>{meta}<title>Notes</title></head><body><h2>Ports</h2><p>"
    + "Some plain English text about ports and firewalls. " * 20
    + "</p></body></html>"
)


@pytest.mark.parametrize("meta", ['<meta charset="utf-8">', ""])
def test_a_utf8_page_with_one_bad_byte_is_read_with_one_replacement(meta: str) -> None:
    page = (meta + "<p>" + "日本語のページです。ポート番号。" * 20 + "</p>").encode("utf-8")
    page = page.replace("ポート".encode(), b"\xff", 1)
    text, used = decode(page)
    assert used == "utf-8" and text.count("\ufffd") == 1
    assert sniff_page(page) == ("utf-8", 0, 1)
    ascii_page = (
        ENGLISH.format(meta='<meta charset="utf-8">').encode().replace(b"ports", b"port\x92s", 1)
    )
    assert sniff_page(ascii_page) == ("utf-8", 0, 1)


def test_a_page_with_many_bad_bytes_is_not_read_as_its_declaration() -> None:
    page = ('<meta charset="utf-8"><p>' + "日本語のページです。ポート番号。" * 20).encode(
        "shift_jis"
    )
    encoding, _, replaced = sniff_page(page)
    assert (encoding, replaced) == ("cp932", 0)


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        (ENGLISH.format(meta="").replace("ports", "p\u00e9rts", 1), "cp1252"),  # a stray byte
        (ENGLISH.format(meta="").replace("ports", "port\u2019s", 1), "cp1252"),
        (
            "<p>"
            + "Le caf\u00e9 est d\u00e9j\u00e0 pr\u00eat, \u00e7a co\u00fbte 2\u20ac \u2013 \u00ab voil\u00e0 \u00bb. "
            * 10,
            "cp1252",
        ),
        (
            "<p>"
            + "Gr\u00fc\u00dfe aus M\u00fcnchen, sch\u00f6ne \u201eStra\u00dfe\u201c f\u00fcr \u00c4rzte. "
            * 10,
            "cp1252",
        ),
        ("<p>" + "Привет, как дела? Это русский текст. " * 10, "cp1251"),
    ],
)
def test_detection_keeps_western_pages_in_cp1252(text: str, encoding: str) -> None:
    # charset-normalizer reads these as cp775, cp1250 or cp1257; browsers read an undeclared
    # Western page as windows-1252, and so do we unless detection finds a non-Latin script.
    data = text.encode(encoding)
    decoded, used = decode(data)
    assert used == encoding and decoded == text


def test_replacements_are_counted_in_the_report(tmp_path: Path) -> None:
    from qrelsmith import build

    site = tmp_path / "site"
    site.mkdir()
    page = ENGLISH.format(meta='<meta charset="utf-8">').encode().replace(b"ports", b"port\x92s", 1)
    (site / "a.html").write_bytes(page)
    report = build([site]).report
    assert report.counts.articles == 1 and report.counts.skipped == 0
    assert report.counts.replaced_characters == 1
    assert [(r.path, r.characters) for r in report.replaced] == [("a.html", 1)]


def test_one_stray_nul_in_a_short_page_is_tolerated() -> None:
    # Issue 16: a page under 1 KB holding one NUL was skipped as binary.
    from qrelsmith import parse_article
    from qrelsmith.errors import DataError

    page = b"<html><body><h2>Title</h2><p>one\x00stray</p></body></html>"
    assert len(page) < 1000
    assert [s.heading for s in parse_article(page, "p.html").sections] == ["Title"]
    with pytest.raises(DataError, match="binary data"):
        parse_article(page.replace(b"one", b"\x00\x00"), "p.html")
