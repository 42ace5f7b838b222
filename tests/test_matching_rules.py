"""matching/rules.py: each rule alone, on an index of headings and one ``Form``."""

from __future__ import annotations

from pathlib import Path

from matching_helpers import index_of, page, section_of
from qrelsmith import match_reference, match_table, parse_article
from qrelsmith.config import BuildOptions
from qrelsmith.labelling.matching import Form, HeadingIndex, SectionHeadings, Target
from qrelsmith.labelling.matching.rules import (
    EXCLUDED_MARK,
    RULES,
    accept,
    by_anchor,
    combine,
    contains,
    decide_exact,
    exact,
    exact_stripped,
    fuzzy_rule,
    heading_inside,
    match_part,
    reference_inside,
    same_numbers,
    split_reference,
    too_short,
    vague,
)
from qrelsmith.models import Article, Match
from qrelsmith.patterns import MATCH_CONFIDENCE

OPTIONS = BuildOptions()


def test_exact_takes_an_equal_heading_and_passes_on_anything_else() -> None:
    index = index_of("Install", "Git Rebase の基本")
    decided = exact(index, Form("ｇｉｔ ｒｅｂａｓｅの基本"), OPTIONS)
    assert decided is not None
    assert (decided.match.rule, decided.match.section_ids, decided.match.confidence) == (
        "exact",
        ["p#1"],
        0.99,
    )
    assert exact(index, Form("Git Rebase"), OPTIONS) is None


def test_vague_rejects_link_text_and_passes_on_a_name() -> None:
    index = index_of("Install")
    for text in ("here", "こちら", "Learn more.", "詳細"):
        decided = vague(index, Form(text), OPTIONS)
        assert decided is not None and decided.match.reason == "vague", text
    assert vague(index, Form("Install nginx"), OPTIONS) is None


def test_exact_stripped_sets_brackets_and_a_step_prefix_aside() -> None:
    index = index_of("HTTPS 化（Let's Encrypt）", "Step 2: Configure the proxy")
    https = exact_stripped(index, Form("HTTPS 化"), OPTIONS)
    step = exact_stripped(index, Form("Configure the proxy"), OPTIONS)
    assert https is not None and (https.match.section_ids, https.match.confidence) == (
        ["p#0"],
        0.97,
    )
    assert step is not None and step.match.section_ids == ["p#1"]
    assert exact_stripped(index, Form("Configure nginx"), OPTIONS) is None


def test_too_short_stops_fragments_and_one_letter() -> None:
    index = index_of("PowerShell を使用する")
    for text in ("を使用", "a"):
        decided = too_short(index, Form(text), OPTIONS)
        assert decided is not None and decided.match.reason == "unmatched", text
    assert too_short(index, Form("PowerShell"), OPTIONS) is None


def test_contains_keeps_word_boundaries_and_numbers() -> None:
    index = index_of("basic_string_view::max_size", "basic_string_view::size", "Exited (1)")
    decided = contains(index, Form("size"), OPTIONS)
    assert decided is not None
    assert (decided.match.rule, decided.match.section_ids) == ("contains", ["p#1"])
    assert 0.8 <= decided.match.confidence <= 0.95
    assert contains(index, Form("Exited (2) now"), OPTIONS) is None
    assert contains(index, Form("Exited"), OPTIONS) is not None


def test_fuzzy_keeps_weak_candidates_under_the_threshold() -> None:
    index = index_of(
        "Instalación", "Configurar el proxy inverso", "Registros", "Resumen del despliegue"
    )
    decided = fuzzy_rule(index, Form("poner un proxy delante"), OPTIONS)
    assert decided.match.reason == "unmatched"
    assert [t.target_id for _, t in decided.weak] == ["p#1"]
    assert decided.ranked[0][1].target_id == "p#1"  # what "clearly ahead" is measured against
    reworded = fuzzy_rule(index, Form("configurar el proxy inverso ahora mismo"), OPTIONS)
    assert (reworded.match.rule, reworded.match.section_ids) == ("fuzzy", ["p#1"])


def test_fuzzy_winner_sharing_only_an_identifier_is_a_tie() -> None:
    index = index_of(
        "set v4tov4", "v4tov4 のポート プロキシ規則を追加します。", "Tema1", "Tema2", "Tema3"
    )
    decided = fuzzy_rule(index, Form("add v4tov4"), OPTIONS)
    assert decided.match.reason == "ambiguous"
    assert [t.target_id for t in decided.tied] == ["p#0", "p#1"]


def test_anchor_rule_follows_links_and_gives_up_on_a_broken_one() -> None:
    index = index_of("Install", "Check")
    index.anchors.update({"install": "p#0", "inner": "p#1"})
    assert by_anchor(index, ["inner", "install", "inner"]) == ["p#1", "p#0"]
    assert by_anchor(index, ["install", "nowhere"]) == []


def test_comparisons() -> None:
    assert reference_inside(Form("put_Font"), Form("CStockPropImpl::p ut_Font"))
    assert not reference_inside(Form("size"), Form("basic_string_view::max_size"))
    assert not same_numbers(Form("v4tov4"), Form("v4tov6"))
    assert same_numbers(Form("Exited (0)"), Form("Exited"))
    assert heading_inside(Form("Configurar el proxy inverso ahora"), Form("Configurar el proxy"))
    assert not heading_inside(Form("Configurar el proxy inverso ahora mismo"), Form("proxy"))


def test_decide_exact_lets_an_h2_beat_an_h3_elsewhere() -> None:
    index = index_of("Setup", "- Caching", "Caching")
    decided = decide_exact(index, index.by_key["caching"], "exact", 0.99)
    assert decided.match.section_ids == ["p#1"]
    nested = index_of("Install", "- Check", "Configure", "- Check")
    assert decide_exact(nested, nested.by_key["check"], "exact", 0.99).match.reason == "ambiguous"


def test_accept_never_sends_a_reference_to_an_excluded_section() -> None:
    faq = Target("p#3", "FAQ", "faq", excluded=True)
    assert accept(faq, "exact", 0.99, []) == Match(
        reason="unmatched", candidates=[f"{EXCLUDED_MARK}FAQ"]
    )


def test_combine_takes_the_weakest_rule_and_confidence() -> None:
    parts = [
        Match(section_ids=["p#0"], rule="exact", confidence=0.99),
        Match(section_ids=["p#1", "p#0"], rule="fuzzy", confidence=0.7, flags=["x"]),
    ]
    assert combine(parts, flags=["partial-reference"]) == Match(
        section_ids=["p#0", "p#1"], rule="fuzzy", confidence=0.7, flags=["partial-reference", "x"]
    )


def test_split_reference_drops_empty_parts() -> None:
    assert split_reference("A／B／ ", ["／"]) == ["A", "B"]
    assert split_reference("TCP/UDP", []) == ["TCP/UDP"]


def test_the_rules_run_in_order_and_exact_comes_before_vague() -> None:
    assert [rule.__name__ for rule in RULES] == [
        "exact", "vague", "exact_stripped", "too_short", "contains",
    ]  # fmt: skip
    index = index_of("概要", "詳細")
    assert match_part(index, "詳細", OPTIONS).match.rule == "exact"
    assert match_part(index, "here", OPTIONS).match.reason == "vague"
    assert match_part(index, "Gaiyou desu", OPTIONS, fuzzy=False).match.reason == "unmatched"


# --------------------------------------------------------------------------- issue 28's pages

LABELS = Path(__file__).parent / "fixtures" / "labels"


def _fixture_table(name: str) -> tuple[Article, list[list[str]]]:
    """A fixture page and, per row of its table, the headings match_table gives."""
    article = parse_article((LABELS / f"{name}.html").read_bytes(), path=f"{name}.html")
    assert article.table is not None
    headings = {s.id: s.heading for s in article.sections}
    rows = [(r.reference, (), (r.query, r.answer)) for r in article.table.rows]
    return article, [[headings[i] for i in m.section_ids] for m in match_table(rows, article)]


def test_a_reference_that_shares_only_the_page_s_topic_names_another_item() -> None:
    # "エラー" is in every section of a page of Excel errors: "#VALUE! エラー" is not "#N/A"
    article, found = _fixture_table("excel-errors")
    assert found == [["#N/A エラーの意味"], [], ["#REF! を直す"], ["IFERROR で囲む"]]
    assert match_reference("#VALUE! エラー", article).reason == "unmatched"
    # "rate" and "limit" are the page's topic: "WebSocket" is not "headers"
    article, found = _fixture_table("api-rate-limits")
    assert found[2] == []
    assert match_reference("rate limit headers list", article).section_ids == [
        article.sections[2].id
    ]


def test_names_item_needs_a_telling_unit_in_common() -> None:
    index = HeadingIndex(
        [SectionHeadings(f"p#{n}", (h,)) for n, h in enumerate(("#N/A エラーの意味", "IFERROR"))],
        texts=["エラー", "エラー", "エラー", "エラー", "エラー"],
    )
    assert not index.names_item(Form("#VALUE! エラー"), 0)
    assert index.names_item(Form("#N/A のエラー"), 0)  # the symbol-bearing word in common
    assert index.names_item(Form("エラーの意味"), 0)  # nothing specific of its own
    # with too few sections there is no topic: the shared word is telling
    few = HeadingIndex([SectionHeadings("p#0", ("#N/A エラーの意味",))], texts=["エラー"])
    assert few.names_item(Form("#VALUE! エラー"), 0)


def test_marked_units_are_identifiers_numbers_and_symbol_bearing_words() -> None:
    assert Form("#VALUE! エラー").marked == {"value"}
    assert Form("Handling 429 responses").marked == {"429"}
    assert Form("WebSocket rate limiting").marked == {"websocket"}
    assert Form("rate-limit headers").marked == frozenset()


def test_a_sibling_step_is_decided_by_the_phrase_they_differ_in() -> None:
    article, found = _fixture_table("b2c-user-flows")
    # the reference names the standard flow; the heading of the custom one shares more words,
    # and the standard flow's heading holds "標準": the phrase points away, nothing is taken
    assert found[1] == []
    custom = "Azure AD B2C を構成して、カスタマイズしたフローを使う"
    assert match_reference(custom, article).section_ids == [article.sections[2].id]


def test_a_short_heading_inside_a_longer_reference_yields_to_the_heading_of_its_rest() -> None:
    article, found = _fixture_table("app-logging")
    assert found == [["Install"], ["Configure logging"], [], ["Troubleshooting"]]
    match = match_reference("Configure logging for Docker", article)
    assert match.reason == "ambiguous"
    assert match.candidates == ["Configure logging", "Docker logging drivers"]


def test_what_a_reference_adds_points_away_only_to_a_heading_that_resembles_it() -> None:
    index = index_of("Configure logging", "Log rotation", "Install", "Levels of support")
    # "levels" is in a far heading ("Levels of support", 0.36): the winner stands
    assert fuzzy_rule(index, Form("Configure logging levels"), OPTIONS).match.section_ids == ["p#0"]
    # "rotation" is in one that resembles the reference too (0.45): nothing is taken
    rotation = fuzzy_rule(index, Form("Configure logging rotation"), OPTIONS)
    assert rotation.match.reason == "ambiguous" and not rotation.tied


def test_an_identifier_in_common_names_the_item_even_when_the_page_is_about_it() -> None:
    headings = ("WebSocket headers", "Polling")
    index = HeadingIndex(
        [SectionHeadings(f"p#{n}", (h,)) for n, h in enumerate(headings)],
        texts=["WebSocket"] * 5,
    )
    assert index.names_item(Form("WebSocket limits"), 0)


def test_bigrams_are_no_rare_words() -> None:
    # "형을" (a noun and its particle) is no item of its own: the reference names the heading
    headings = ("알림 템플릿 유형", "알림 시작", "알림 번역")
    index = HeadingIndex(
        [SectionHeadings(f"p#{n}", (h,)) for n, h in enumerate(headings)],
        texts=["알림 유형"] * 5,
    )
    assert index.names_item(Form("알림 유형을"), 0)


def test_topic_units_are_found_at_a_word_s_start_in_half_the_sections() -> None:
    def index(*texts: str) -> HeadingIndex:
        return HeadingIndex([SectionHeadings("p#0", ("Rate limit headers",))], texts=texts)

    # the stem "limit" in "limits" and "Limiting": three sections of five
    limits = index("Rate limits apply.", "Past the limits: 429.", "Limiting.", "Tokens.", "x")
    assert limits.topic("limit")
    assert not limits.topic("rate")  # one section of five
    # inside a word it is not found: "Unlimited" twice, "limits" twice
    inside = index("Rate limits.", "The limits.", "Unlimited plans.", "Unlimited.", "x")
    assert not inside.topic("limit")


def test_a_reference_s_rest_that_is_the_page_s_topic_points_nowhere() -> None:
    headings = ("Install", "Configure logging", "Log levels", "Docker logging drivers", "Help")
    sections = [SectionHeadings(f"p#{n}", (h,)) for n, h in enumerate(headings)]
    reference = Form("Configure logging for Docker")
    # on a page about Docker, "Docker" in the reference names no heading in particular
    about_docker = HeadingIndex(sections, texts=["Docker"] * 5)
    assert fuzzy_rule(about_docker, reference, OPTIONS).match.section_ids == ["p#1"]
    elsewhere = HeadingIndex(sections, texts=["Docker", "", "", "", ""])
    assert fuzzy_rule(elsewhere, reference, OPTIONS).match.reason == "ambiguous"


# --------------------------------------------------------------------------- by_phrase

PHRASE_FIXTURES = Path(__file__).parent / "fixtures" / "labels"


def fixture_page(name: str) -> Article:
    return parse_article((PHRASE_FIXTURES / name).read_bytes(), path=name)


def test_siblings_in_a_near_tie_are_decided_by_the_phrase_they_differ_in() -> None:
    # "Docker Compose" is the page's topic: of the two near-tied siblings only
    # "サービスをテストする" shares a telling unit of its own with the reference ("テスト")
    article = fixture_page("compose-steps.html")
    match = match_reference("Docker Compose のサービスをテストします", article)
    assert (match.rule, match.section_ids) == ("fuzzy", [article.sections[2].id])
    # each sibling holds a phrase of the reference ("更新", "テスト"): not at all
    both = match_reference("Docker Compose のサービスを更新してテストします", article)
    assert (both.section_ids, both.reason) == ([], "ambiguous")


def test_a_generic_or_topic_word_decides_no_sibling() -> None:
    # "Update a service" and "Test a service using Compose" tie on "a service"; a telling
    # word is neither generic ("using") nor the page's topic ("Compose": every section says
    # "Docker Compose"), so "Using a service" stays open, and "Update a service using
    # Compose" is decided by "update" alone
    article = fixture_page("service-steps.html")
    generic = match_reference("Using a service", article)
    assert (generic.section_ids, generic.reason) == ([], "ambiguous")
    assert generic.candidates == ["Test a service using Compose", "Update a service"]
    update = match_reference("Update a service using Compose", article)
    assert (update.rule, update.section_ids) == ("fuzzy", [article.sections[1].id])
    # in a table the order leaves the generic row open too (a tie stays one)
    assert article.table is not None
    rows = [(row.reference, (), (row.query,)) for row in article.table.rows]
    assert [m.section_ids for m in match_table(rows, article)][1:3] == [
        [article.sections[1].id],
        [],
    ]


def test_the_phrase_the_reference_adds_names_the_sibling_it_means() -> None:
    # what the reference adds to the most similar heading ("コントロール") names two
    # siblings that resemble it too, but only that heading shares a phrase of its own with
    # the reference ("VSTO アドイン"): the phrase decides
    article = fixture_page("listobject-resize.html")
    reference = "VSTO アドイン プロジェクトで、実行時に ListObject コントロールのサイズを変更する"
    match = match_reference(reference, article)
    assert (match.rule, match.section_ids) == ("fuzzy", [article.sections[2].id])
    assert match.confidence is not None and match.confidence <= 0.79
    # a reference that names phrases of both siblings ("VSTO アドイン", "デザイン時") stays open
    mixed = "VSTO アドインで、デザイン時に ListObject コントロールのサイズを変更する"
    assert match_reference(mixed, article).reason == "ambiguous"


# --------------------------------------------------------------------------- the item named


def table_sections(article: Article) -> list[list[str]]:
    assert article.table is not None
    rows = [(row.reference, (), (row.query,)) for row in article.table.rows]
    return [m.section_ids for m in match_table(rows, article)]


def test_a_cjk_reference_naming_another_action_stays_open() -> None:
    # "削除" (delete) and "삭제" name an action the page has no heading for; the sibling
    # heading shares the object ("サービス", "서비스") and names another action ("更新",
    # "갱신") in the same place: no match, alone or in the table
    ja = fixture_page("compose-cleanup.html")
    ko = fixture_page("compose-steps-ko.html")
    for article, reference in (
        (ja, "Docker Compose のサービスを削除します"),
        (ja, "サービスを削除"),
        (ko, "Docker Compose 서비스를 삭제합니다"),
        (ko, "Docker Compose 서비스 삭제하기"),
    ):
        match = match_reference(reference, article)
        assert (match.section_ids, match.reason) == ([], "unmatched"), reference
    assert table_sections(ja) == [[ja.sections[0].id], [], [ja.sections[1].id], [ja.sections[3].id]]
    assert table_sections(ko) == [[ko.sections[0].id], [], [ko.sections[3].id]]


def test_the_same_action_inflected_or_with_other_particles_still_matches() -> None:
    ja = fixture_page("compose-cleanup.html")
    ko = fixture_page("compose-steps-ko.html")
    for article, reference in (
        (ja, "Docker Compose のサービスを更新します"),
        (ja, "サービスを更新します"),
        (ja, "Docker Compose のサービスの更新"),
        (ja, "サービスをテストします"),
        (ko, "Docker Compose 서비스를 갱신합니다"),
        (ko, "서비스의 갱신"),
    ):
        match = match_reference(reference, article)
        assert (match.rule, match.section_ids) == (
            "fuzzy",
            [article.sections[2 if "テスト" in reference else 1].id],
        ), reference


def test_a_kin_word_in_the_same_place_is_no_other_item() -> None:
    index = index_of(
        "インストール", "サーバーを起動する", "세계 변형 행렬", "ログを確認", "更新後の設定を確認"
    )
    # a compound holding the heading's unit ("再起動" / "起動") or a character of its word
    # ("변환" / "변형"): the same item said otherwise; a word the heading holds elsewhere
    # ("更新") is no word of the reference's own
    for reference, position in (
        ("サーバーを再起動する", 1),
        ("세계 변환 행렬", 2),
        ("設定を更新", 4),
    ):
        match = fuzzy_rule(index, Form(reference), OPTIONS).match
        assert match.section_ids == [f"p#{position}"], reference
    # two compounds of their own in the same place name two actions
    assert fuzzy_rule(index, Form("ログを削除"), OPTIONS).match.section_ids == []
    assert fuzzy_rule(index, Form("세계 회전 행렬"), OPTIONS).match.section_ids == []
    assert Form("Docker Compose 서비스를 삭제합니다").content_words[2:] == (
        ("서비스", frozenset({"서비", "비스"})),
        ("삭제", frozenset({"삭제"})),
    )


def test_an_item_reference_is_not_given_the_overview_heading() -> None:
    # "連結用の文字列関数" shares "文字列関数" with the overview "文字列関数の全体像", which
    # mentions every function; the item is "TEXTJOIN と CONCAT": the overview is no match
    article = fixture_page("string-functions-overview.html")
    overview = article.sections[0].id
    assert table_sections(article) == [[article.sections[1].id], [article.sections[3].id], []]
    assert match_reference("連結用の文字列関数", article).section_ids == []
    # a reference that asks for the overview still takes it, in each language's words
    assert match_reference("文字列関数の概要", article).section_ids == [overview]
    index = index_of("Overview of lookup functions", "VLOOKUP", "개요: 조회 함수")
    assert fuzzy_rule(index, Form("lookup functions overview"), OPTIONS).match.section_ids == [
        "p#0"
    ]
    assert fuzzy_rule(index, Form("Horizontal lookup functions"), OPTIONS).match.section_ids == []
    assert fuzzy_rule(index, Form("조회 함수 개요"), OPTIONS).match.section_ids == ["p#2"]


def test_a_repeated_subheading_named_with_its_case_takes_that_case() -> None:
    # every case of the page holds "概要", "考えられる原因" and "対処法": "CONFLICT → 対処法"
    # names the one under "3. CONFLICT"
    article = fixture_page("git-errors-ja.html")
    conflict = article.sections[2].id
    for reference in ("CONFLICT → 対処法", "Conflict 対処法", "概要：CONFLICT"):
        match = match_reference(reference, article)
        assert (match.rule, match.section_ids) in (
            ("contains", [conflict]),
            ("fuzzy", [conflict]),
        ), reference
    decided = match_reference("Conflict 対処法", article)
    assert (decided.rule, decided.flags) == ("contains", ["repeated-subheading"])
    # the rest's exact match is no exact label
    assert decided.confidence == MATCH_CONFIDENCE["contains_max"] < MATCH_CONFIDENCE["exact"]
    # the rest names a section without the sub-heading, or none: the row stays open
    for reference in ("reflog の対処法", "push の対処法", "対処法"):
        assert match_reference(reference, article).section_ids == [], reference
    # in the table, as a build decides it
    assert table_sections(article) == [[s.id] for s in article.sections[:4]]
    # the words that join the two are set aside: "of a 502" names "502 Bad Gateway"
    gateway = page("502 Bad Gateway", "- Likely causes", "- Fix", "503 Service Unavailable",
                   "- Likely causes", "- Fix")  # fmt: skip
    assert section_of(gateway, "Likely causes of a 502") == "502 Bad Gateway"
    assert section_of(gateway, "Fix for the 503") == "503 Service Unavailable"


def test_a_section_number_names_the_heading_that_carries_it() -> None:
    numbered = page(
        "1. 설치", "2. 설정", "- 2.1 환경 변수", "3. 배포", "4. 문제 해결", "- 4.1 로그 확인"
    )
    for reference, heading in (
        ("2장", "2. 설정"),
        ("제3장", "3. 배포"),
        ("§4", "4. 문제 해결"),
        ("2.1절", "2. 설정"),  # a numbered sub-heading maps to its H2
        ("Section 4.1", "4. 문제 해결"),
        ("자세한 내용은 3장", "3. 배포"),
        ("2장 설정", "2. 설정"),  # the rest agrees
    ):
        match = match_reference(reference, numbered)
        assert section_of(numbered, reference) == heading, reference
        assert match.rule in ("number", "exact", "contains", "fuzzy"), reference
    for reference in (
        "2장",
        "자세한 내용은 3장",
        "see §3",
        "3장 참고",
        "2.1절",
        "4.1",
        "2-1",
        "3번",
    ):
        match = match_reference(reference, numbered)
        assert (match.rule, match.confidence) == ("number", MATCH_CONFIDENCE["number"]), reference
    # a chapter named with its marks decides, whatever the words beside it; a Korean count
    # form ("3번", "3장") needs them to point or to name the section
    assert section_of(numbered, "第3章（デプロイの自動化）") == "3. 배포"
    assert section_of(numbered, "Section 3 (deploying)") == "3. 배포"
    assert match_reference("3번 자동화", numbered).section_ids == []
    # a heading numbered "2-2." is 2.2, named as "2-2" or "2.2"
    dashed = page(
        "1. 백업 방식", "2. mysqldump", "- 2-1. 전체 백업", "- 2-2. 테이블만 백업", "3. 복구"
    )
    for reference in ("2-2", "2.2", "§2.2"):
        assert section_of(dashed, reference) == "2. mysqldump", reference
    # the rest names another section: a tie, not a guess; a number no heading carries, two
    # numbers, or a count ("사진 1장": "사진" names nothing of section 1) decide nothing
    tie = match_reference("3장 설정", numbered)
    assert (tie.section_ids, tie.reason, tie.candidates) == (
        [],
        "ambiguous",
        ["2. 설정", "3. 배포"],
    )
    for reference in ("9장", "2장과 3장", "2장, 3장", "사진 1장"):
        assert match_reference(reference, numbered).section_ids == [], reference
    # a repeated sub-heading of the numbered section, joined by a particle, agrees with it
    cases = page("1. 起動しない", "- 概要", "- 対処法", "2. 遅い", "- 概要", "- 対処法")
    assert section_of(cases, "2 章の概要") == "2. 遅い"
    # ... as does its own sub-heading
    own = page("1. 起動しない", "- ログの確認", "2. 遅い", "- 原因")
    assert match_reference("2 章の原因", own).rule == "number"
    # on a page whose headings carry no number the mention is set aside: the rest decides
    plain = page("インストール", "IFERROR でエラーを隠す", "バックアップ")
    assert section_of(plain, "8章 IFERROR") == "IFERROR でエラーを隠す"
    assert match_reference("8章", plain).section_ids == []


def test_a_bracket_names_the_copy_of_a_repeated_heading() -> None:
    # "Configuring the client" is an H2 and, again, an H3 of "Legacy API (v1)"
    article = fixture_page("client-versions.html")
    current, legacy = article.sections[0].id, article.sections[2].id
    assert table_sections(article) == [[current], [article.sections[1].id], [legacy]]
    assert match_reference("Configuring the client（v1）", article).section_ids == [legacy]
    # without a bracket the H2 is taken, as before; a bracket naming neither copy is a tie
    assert match_reference("Configuring the client", article).section_ids == [current]
    tie = match_reference("Configuring the client (beta)", article)
    assert (tie.section_ids, tie.reason) == ([], "ambiguous")


def test_a_step_or_case_number_and_a_leading_number_name_their_heading() -> None:
    steps = page(
        "Prerequisites", "Step 1: Write a rule", "Step 2: Test the rule", "Step 3: Load it"
    )
    assert (match_reference("Step 2", steps).rule, section_of(steps, "Step 2")) == (
        "number",
        "Step 2: Test the rule",
    )
    cases = page(
        "ケース1: ログが肥大化", "- 概要", "- 対処法", "ケース2: inode の枯渇", "- 概要", "- 対処法"
    )
    assert section_of(cases, "2章の対処法") == "ケース2: inode の枯渇"
    # a reference that opens with a heading's number, the rest naming nothing else
    numbered = page(
        "1. 基本形", "2. エラーをラップする", "3. 値と比較する", "4. 独自の例外クラスを定義する"
    )
    assert match_reference("4. カスタム例外", numbered).rule == "number"
    assert section_of(numbered, "4. カスタム例外") == "4. 独自の例外クラスを定義する"
    # a table that numbers its own rows: where the number and the text disagree, a tie
    tie = match_reference("1. 値と比較", numbered)
    assert (tie.section_ids, tie.reason) == ([], "ambiguous")


def test_words_that_call_a_section_a_section_name_nothing() -> None:
    article = page("Instalación", "Cobertura con pytest-cov", "Marcadores")
    assert section_of(article, "sección de cobertura") == "Cobertura con pytest-cov"
    go = page("errors.Is で値と比較する", "errors.As で型を取り出す", "panic と recover")
    assert section_of(go, "errors.As の章") == "errors.As で型を取り出す"
    assert section_of(go, "the panic section") == "panic と recover"
