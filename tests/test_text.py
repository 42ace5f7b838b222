"""text.py: the comparison forms every stage uses."""

from __future__ import annotations

import math

import pytest

from qrelsmith.text import (
    alphanumeric,
    bm25_idf,
    bm25_norm,
    bm25_weight,
    comparable,
    fold_accents,
    fold_case,
    fold_space,
    folded_words,
    heading_key,
    squashed,
    strip_numbering,
    tokens,
)


def test_fold_case_meets_width_and_case() -> None:
    assert fold_case("ＲＤＰ Port") == "rdp port"
    assert fold_case("Straße") == "strasse"  # casefold, not lower: one rule everywhere


def test_the_forms_built_on_it() -> None:
    assert folded_words("  Ａ\u00ad  b\tC ") == "a b c"  # invisible characters dropped too
    assert squashed("RDP の\nポート 番号") == "rdpのポート番号"
    assert comparable("Configuración") == "configuracion"
    assert fold_accents("パ") == "パ"  # kana keep their (han)dakuten
    # check's duplicate queries: spacing, punctuation and underscores do not tell them apart
    assert alphanumeric("RDP の番号？") == alphanumeric("RDPの番号") == "rdpの番号"
    assert alphanumeric("Ｐort_22, ssh!") == "port22ssh"


def test_a_heading_and_its_numbered_form_share_one_key() -> None:
    # check once scored these 85.7 where the matcher said equal: one key for both now
    assert heading_key("3. RDPのポート番号") == heading_key("RDPのポート番号")
    assert heading_key("「ポート番号」（TCP）") == heading_key("ポート番号TCP")
    assert strip_numbering("404 Not Found") == "404 Not Found"  # a bare number is no numbering
    assert strip_numbering("第2章 設定") == "設定"


def test_fold_space_and_tokens() -> None:
    assert fold_space("a\x00b \u200b c") == "a b c"
    assert tokens("max_size は here") == ("max_size", "は", "here")


def test_fold_space_gives_the_rewrite_s_answer_for_every_odd_character() -> None:
    # fold_space returns the split text when no control or format character is left in it,
    # and rewrites only otherwise: the answer of always searching for the odd characters first
    import re

    from qrelsmith.text import _ODD_TABLE

    odd = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\u200c\u200d\u2060\ufeff\u00ad]")

    def rewritten(text: str) -> str:
        if odd.search(text):
            text = text.translate(_ODD_TABLE)
        return " ".join(text.split())

    unusual = [chr(c) for c in range(0x30000) if not chr(c).isprintable() or chr(c).isspace()]
    assert len(unusual) > 10_000
    for character in unusual:
        for text in (character, f"a{character}b", f" x {character}\n{character} y\t"):
            assert fold_space(text) == rewritten(text), hex(ord(character))


def test_bm25_is_lucenes_formula_for_numbers_and_arrays() -> None:
    """idf = ln(1 + (N - df + 0.5) / (df + 0.5)); a term's score idf x tf x (k1 + 1) /
    (tf + k1 x (1 - b + b x length / average)), worked by hand for N = 10, df = 2, tf = 3,
    length 20 of average 10, k1 = 1.2, b = 0.75."""
    import numpy as np

    idf = bm25_idf(10, 2)
    assert idf == pytest.approx(math.log(4.4), abs=1e-15)
    norm = bm25_norm(20, 10.0, 1.2, 0.75)
    assert norm == pytest.approx(1.2 * 1.75, abs=1e-15)
    assert bm25_weight(idf, 3, norm, 1.2) == pytest.approx(math.log(4.4) * 6.6 / 5.1, abs=1e-12)
    many = bm25_weight(bm25_idf(10, np.array([2.0, 9.0]), np.log1p), 3, norm, 1.2)
    assert many[0] == pytest.approx(math.log(4.4) * 6.6 / 5.1, abs=1e-12)
    assert many[1] == pytest.approx(math.log(1 + 1.5 / 9.5) * 6.6 / 5.1, abs=1e-12)
