"""matching.py: anchor, exact, contains, fuzzy; splits, H3 references, near-ties, rejects."""

from __future__ import annotations

import pytest

from qrelsmith import match_reference, parse_article
from qrelsmith.config import BuildOptions
from qrelsmith.models import Article

PAGE = """<article>
<h2 id="port">RDPのポート番号3389（TCPとUDP）と ss での確かめ方</h2><p>a</p>
<h3>ファイアウォールで開ける</h3><p>b</p>
<h2>TCP/UDP の違い</h2><p>c</p>
<h2>CcとBccの使い分けと違い</h2><p>d <span id="inner">x</span></p>
<h2>Docker ボリュームの作成</h2><p>e</p>
<h2>Docker ボリュームの削除</h2><p>f</p>
<h2>Git Rebase の基本</h2><p>g</p>
<h2>よくある質問</h2><p>h</p>
</article>"""


@pytest.fixture(scope="module")
def article() -> Article:
    return parse_article(PAGE, "p.html")


def ids(article: Article, *headings: str) -> list[str]:
    by_heading = {s.heading: s.id for s in article.sections}
    return [by_heading[h] for h in headings]


def test_contains(article: Article) -> None:
    match = match_reference("ポート番号3389", article)
    assert (match.rule, match.section_ids) == (
        "contains",
        ids(article, article.sections[0].heading),
    )


def test_exact_ignores_width_case_and_spaces(article: Article) -> None:
    assert match_reference("ｇｉｔ ｒｅｂａｓｅの基本", article).rule == "exact"
    assert match_reference("「TCP/UDPの違い」", article).rule == "exact"


def test_heading_with_slash_is_not_split(article: Article) -> None:
    match = match_reference("TCP/UDP の違い", article)
    assert match.section_ids == ids(article, "TCP/UDP の違い")


def test_two_sections_joined(article: Article) -> None:
    match = match_reference("ポート番号3389／TCP/UDP の違い", article)
    assert match.section_ids == [article.sections[0].id, *ids(article, "TCP/UDP の違い")]
    assert match.rule == "contains"
    english = match_reference("Git Rebase の基本 / TCP/UDP の違い", article)
    assert english.section_ids == ids(article, "Git Rebase の基本", "TCP/UDP の違い")
    assert english.rule == "exact"


def test_h3_reference_maps_to_its_h2(article: Article) -> None:
    match = match_reference("ファイアウォールで開ける", article)
    assert match.section_ids == [article.sections[0].id]


def test_fuzzy_reworded(article: Article) -> None:
    match = match_reference("Cc と Bcc の違いと使い分け", article)
    assert match.rule == "fuzzy"
    assert match.section_ids == ids(article, "CcとBccの使い分けと違い")
    assert 60 <= match.score < 100


def test_near_tie_is_ambiguous(article: Article) -> None:
    match = match_reference("Docker ボリューム", article)
    assert match.section_ids == []
    assert match.reason == "ambiguous"
    assert match.candidates == ["Docker ボリュームの作成", "Docker ボリュームの削除"]


def test_dangling_and_empty(article: Article) -> None:
    assert match_reference("Kubernetes のインストール手順", article).reason == "unmatched"
    assert match_reference("  ", article).reason == "empty"


def test_reference_to_excluded_section_is_not_sent_elsewhere(article: Article) -> None:
    match = match_reference("よくある質問", article)
    assert match.section_ids == [] and match.reason == "unmatched"
    assert match.candidates == ["excluded:よくある質問"]


def test_anchor_to_heading_or_inside_section(article: Article) -> None:
    assert match_reference("x", article, ["port"]).section_ids == [article.sections[0].id]
    inner = match_reference("anything", article, ["inner"])
    assert (inner.rule, inner.section_ids) == ("anchor", ids(article, "CcとBccの使い分けと違い"))
    broken = match_reference("TCP/UDP の違い", article, ["nowhere"])
    assert broken.rule == "exact"


def test_threshold_is_an_option(article: Article) -> None:
    strict = BuildOptions(fuzzy_threshold=99)
    assert (
        match_reference("Cc と Bcc の違いと使い分け", article, options=strict).reason == "unmatched"
    )
