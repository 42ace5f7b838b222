"""content.py: BM25 of a row's cells over an article's sections, in the matcher's units."""

from __future__ import annotations

import math

from qrelsmith import parse_article
from qrelsmith.labelling.content import Ranked, SectionText


def test_rank_orders_sections_by_shared_rare_units() -> None:
    text = SectionText(
        [
            ("p#0", "docker volume create で作ります。"),
            ("p#1", "docker volume prune でまとめて消せます。消したボリュームは戻せません。"),
            ("p#2", "バックアップは tar にまとめます。"),
        ]
    )
    ranked = text.rank(["使っていないボリュームを消すには", "docker volume prune"])
    assert ranked.top == "p#1"
    assert [sid for sid, _ in ranked.scores] == ["p#1", "p#0", "p#2"]
    assert ranked.ratio() > 2  # "prune" and "消す" are #1's alone; "docker volume" is shared
    assert ranked.score_of("p#2") == 0.0


def test_a_unit_every_section_holds_weighs_little_and_nothing_scores_nothing() -> None:
    text = SectionText([("p#0", "Configurar el servidor"), ("p#1", "Configurar el cliente")])
    assert text.rank(["configurar"]).ratio() == 1.0  # a tie: the earlier section first
    assert text.rank(["configurar"]).top == "p#0"
    nothing = text.rank(["kubernetes"])
    assert (nothing.top, nothing.ratio()) == (None, 0.0)
    assert SectionText([]).rank(["x"]).top is None


def test_ratio_is_infinite_when_only_one_section_scores() -> None:
    assert Ranked((("a", 2.0), ("b", 0.0))).ratio() == math.inf
    assert Ranked((("a", 2.0), ("b", 1.0))).ratio() == 2.0


def test_from_article_reads_the_corpus_sections_only() -> None:
    article = parse_article(
        "<article><h2>Uso</h2><p>prune volumes</p><h2>FAQ</h2><p>prune everything</p></article>",
        "p.html",
    )
    text = SectionText.from_article(article)
    assert text.ids == ["p.html#0"]


def test_a_rare_unit_outweighs_a_repeated_common_one() -> None:
    text = SectionText(
        [("p#0", "configurar configurar configurar"), ("p#1", "nginx"), ("p#2", "configurar")]
    )
    assert text.rank(["configurar nginx"]).top == "p#1"


def test_held_needs_the_answer_s_specifics_in_one_window() -> None:
    text = SectionText(
        [
            ("a", "名前付きのボリュームは docker volume create で作ります。"),
            ("b", "使われていないボリュームは docker volume prune で消せます。"),
            ("c", "ポートは 8080 です。"),
        ]
    )
    cells = ["docker volume prune で消す", "prune"]
    assert text.held("b", cells) == {0}  # every content unit of the answer; one word: never
    assert text.held("a", cells) == frozenset()  # the topic, not the answer's specifics
    assert text.held("c", ["ポート 8080"]) == {0}  # a checkable answer: its values
    assert text.held("a", ["ポート 8080"]) == frozenset()
    assert text.held("z", cells) == frozenset()
