"""matching/rules.py: each rule alone, on an index of headings and one ``Form``."""

from __future__ import annotations

from matching_helpers import index_of
from qrelsmith.config import BuildOptions
from qrelsmith.labelling.matching import Form, Target
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
from qrelsmith.models import Match

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
