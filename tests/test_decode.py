"""decode.py: BOM, declared charset, HTTP charset, detection, and what is refused."""

from __future__ import annotations

import codecs

import pytest

from qrelsmith.decode import declared_encoding, decode, sniff
from qrelsmith.errors import DataError

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
