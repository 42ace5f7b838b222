"""matching through ``match_reference``: anchor, exact, contains, fuzzy; splits, H3 references,
guards, rejects. A table's order: test_matching_order.py; rule content: test_matching_content.py;
each rule alone: test_matching_rules.py; the index: test_matching_index.py."""

from __future__ import annotations

import pytest

from matching_helpers import page, section_of
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
    assert 0.55 <= match.confidence <= 0.8


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
    strict = BuildOptions(fuzzy_threshold=0.99)
    assert (
        match_reference("Cc と Bcc の違いと使い分け", article, options=strict).reason == "unmatched"
    )


def test_word_aware_similarity_finds_shortened_cjk_references() -> None:
    article = page(
        "404 Not Found が出る原因", "500 Internal Server Error の原因", "リダイレクトの設定"
    )
    match = match_reference("404の原因", article)
    assert match.rule == "fuzzy"
    assert section_of(article, "404の原因") == "404 Not Found が出る原因"


def test_latin_containment_keeps_word_boundaries() -> None:
    article = page(
        "There and back", "Setup", "basic_string_view::max_size", "basic_string_view::size"
    )
    assert match_reference("here", article).section_ids == []
    assert section_of(article, "size") == "basic_string_view::size"
    assert match_reference("size", article).rule == "contains"


def test_light_stems_join_word_forms() -> None:
    article = page("Filtros de acción", "Filtros de resultados", "Registro de un nombre")
    assert section_of(article, "filtros de acciones") == "Filtros de acción"


def test_rare_words_outweigh_words_every_heading_shares() -> None:
    article = page(
        "CMFCRibbonButton::GetImageIndex", "CMFCRibbonButton::SetImageIndex",
        "CMFCRibbonButton::IsDefaultCommand", "CMFCRibbonButton::RemoveSubItem",
    )  # fmt: skip
    assert section_of(article, "CRibbonButton::RemoveSubItem") == "CMFCRibbonButton::RemoveSubItem"
    assert section_of(article, "CRibbonButton::GetImageIndex") == "CMFCRibbonButton::GetImageIndex"


def test_identifier_split_by_machine_translation() -> None:
    article = page("Sid:: Admins", "Sid::D ialup", "Sid::P roxy", "Sid:: Network")
    assert section_of(article, "Sids::Dialup") == "Sid::D ialup"
    assert section_of(article, "Sids::Proxy") == "Sid::P roxy"


def test_vague_link_text_is_never_matched() -> None:
    article = page("こちらの設定", "Learn more about caching", "Aquí y allá")
    for vague in ("こちら", "here", "Learn more", "aquí", "여기", "詳細", "this section"):
        match = match_reference(vague, article)
        assert (match.section_ids, match.reason) == ([], "vague"), vague


def test_fragments_match_only_exactly() -> None:
    article = page("PowerShell を使用する", "パラメーターの一覧")
    assert match_reference("を使用", article).section_ids == []
    assert match_reference("、パラメーター", article).section_ids == []


def test_headings_that_differ_in_a_number_are_different() -> None:
    article = page("Migrate from v4tov4", "Migrate from v4tov6", "Exited (0)", "Exited (1)")
    assert section_of(article, "Migrate v4tov6") == "Migrate from v4tov6"
    assert match_reference("container Exited (2)", article).section_ids == []


def test_exact_after_dropping_brackets_or_step_prefix() -> None:
    article = page("HTTPS 化（Let's Encrypt）", "Step 2: Configure the proxy", "ログの見方")
    https = match_reference("HTTPS 化", article)
    assert (https.rule, https.confidence) == ("exact", 0.97)
    step = match_reference("Configure the proxy", article)
    assert (step.rule, section_of(article, "Configure the proxy")) == (
        "exact",
        "Step 2: Configure the proxy",
    )
    assert match_reference("ログの見方", article).confidence == 0.99


def test_h2_exact_beats_h3_exact_elsewhere() -> None:
    article = page("Caching", "Setup", "- Caching")
    assert section_of(article, "Caching") == "Caching"


def test_repeated_heading_takes_the_first_and_says_so() -> None:
    article = page("Cookies", "Sesiones", "Cookies", "Sesiones")  # versioned page, twice over
    match = match_reference("Cookies", article)
    assert (match.section_ids, match.flags) == ([article.sections[0].id], ["duplicate-heading"])


def test_same_h3_under_two_h2s_is_ambiguous_alone() -> None:
    article = page("Install", "- Check", "Configure", "- Check")
    match = match_reference("Check", article)
    assert (match.reason, match.candidates) == ("ambiguous", ["Check"])


def test_partial_multi_section_reference_keeps_what_resolved() -> None:
    article = page("ログの見方", "ログの設定")
    match = match_reference("ログの見方／ログの保存期間", article)
    assert (match.section_ids, match.rule, match.flags) == (
        [article.sections[0].id],
        "exact",
        ["partial-reference"],
    )
    # a part that is ambiguous (not dangling) still rejects the row
    assert match_reference("ログ／エラーの対処", article).section_ids == []


def test_confidence_scale_orders_the_rules() -> None:
    article = page("RDPのポート番号3389と確かめ方", "Cc と Bcc の使い分けと違い", "Docker の基本")
    exact = match_reference("Docker の基本", article).confidence
    contains = match_reference("ポート番号3389", article).confidence
    fuzzy = match_reference("Cc と Bcc の違いと使い分け", article).confidence
    assert 1.0 > exact > contains > 0.8 >= fuzzy > 0.5


def test_numbers_are_compared_as_runs_of_digits() -> None:
    article = page("Sid::P reW2KAccess", "Sid:: Admins", "Sid:: Network", "Migrate v4tov6")
    assert section_of(article, "Sids::PreW2KAccess") == "Sid::P reW2KAccess"
    assert match_reference("Migrate v4tov4", article).section_ids == []


def test_a_destructor_is_not_its_class() -> None:
    article = page("CAtlArray::CAtlArray", "CAtlArray:: ~ CAtlArray", "CAtlArray::Add")
    assert section_of(article, "CAtlArray") == "CAtlArray::CAtlArray"
    assert section_of(article, "~ CAtlArray") == "CAtlArray:: ~ CAtlArray"


# --------------------------------------------------------------------------- precision rules


def test_a_heading_that_is_literally_vague_text_matches_it_exactly() -> None:
    article = page("概要", "詳細", "詳細な設定")
    match = match_reference("詳細", article)
    assert (match.rule, section_of(article, "詳細")) == ("exact", "詳細")
    assert match_reference("here", article).reason == "vague"  # no equal heading: still vague


def test_a_weak_separator_splits_only_into_exact_parts() -> None:
    article = page("Instalar el cliente", "Configurar el servidor", "Streaming bidireccional")
    client, server = article.sections[0].id, article.sections[1].id
    # a list written with commas names one thing unless every part is a heading
    assert match_reference("cliente, servidor", article).section_ids == []
    assert match_reference("cliente、servidor", article).section_ids == []
    both = match_reference("Instalar el cliente, Configurar el servidor", article)
    assert (both.section_ids, both.rule) == ([client, server], "exact")
    # strong separators keep naming several sections
    assert match_reference("cliente／servidor", article).section_ids == [client, server]
    assert match_reference("cliente / servidor", article).section_ids == [client, server]


def test_a_bracketed_remark_is_set_aside_when_the_whole_reference_matches_nothing() -> None:
    article = page("Web サーバー (IIS)", "FTP または FTPS サーバー", "Azure App Service")
    assert section_of(article, "IIS (IIS、FTP などを選択します)") == "Web サーバー (IIS)"
    # the remark is kept when the reference matches as written
    assert section_of(article, "Azure App Service (既定)") == "Azure App Service"


def test_the_margin_holds_against_a_rival_under_the_threshold() -> None:
    article = page(
        "Configurar el proxy inverso",
        "Instalar nginx y el proxy",
        "Registros",
        "Copias de seguridad",
    )
    # 0.57 and 0.49: only the first passes the threshold, but they are a near-tie
    match = match_reference("nginx como proxy inverso", article)
    assert (match.section_ids, match.reason) == ([], "ambiguous")
    assert match.candidates == ["Configurar el proxy inverso", "Instalar nginx y el proxy"]


def test_an_identifier_shared_with_another_heading_decides_nothing() -> None:
    article = page(
        "set v4tov4", "v4tov4 のポート プロキシ規則を追加します。", "Tema1", "Tema2", "Tema3"
    )
    # "add" is in no heading: all "add v4tov4" shares with "set v4tov4" is the identifier
    match = match_reference("add v4tov4", article)
    assert (match.section_ids, match.reason) == ([], "ambiguous")
    assert section_of(article, "set v4tov4 now") == "set v4tov4"  # a shared word decides
