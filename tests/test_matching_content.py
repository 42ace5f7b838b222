"""matching/content_rule.py: rows the headings leave open, settled by their cells' text."""

from __future__ import annotations

import math

from matching_helpers import index_of, page_with
from qrelsmith import match_reference, match_table
from qrelsmith.labelling.content import Ranked
from qrelsmith.labelling.matching.content_rule import by_content, content_confidence, ratio_among
from qrelsmith.labelling.matching.rules import Outcome
from qrelsmith.models import Match

VOLUMES = page_with(
    ("Docker ボリュームの作成", "名前付きのボリュームは create で作ります。"),
    (
        "Docker ボリュームの削除",
        "使われていないボリュームは docker volume prune でまとめて消せます。",
    ),
    ("バックアップと復元", "一時的なコンテナで中身を tar にまとめます。"),
)


def test_content_breaks_a_near_tie_when_the_cells_clearly_agree() -> None:
    tie = ("Docker ボリューム", (), ["使っていないボリュームを消すには", "docker volume prune"])
    (match,) = match_table([tie], VOLUMES)
    assert (match.rule, match.section_ids) == ("content", [VOLUMES.sections[1].id])
    assert 0.45 <= match.confidence < 0.55  # under every fuzzy match
    # without cells, or with cells that say nothing about either, the tie stands
    assert match_table([(tie[0], (), [])], VOLUMES)[0].reason == "ambiguous"
    vague = (tie[0], (), ["ボリュームの使い方"])
    assert match_table([vague], VOLUMES)[0].reason == "ambiguous"
    # match_reference reads no cells: the headings alone decide
    assert match_reference(tie[0], VOLUMES).reason == "ambiguous"


PROXY = page_with(
    ("Instalación", "apt install nginx"),
    ("Configurar el proxy inverso", "proxy_pass envía las peticiones al servidor de aplicaciones"),
    ("Registros", "access.log y error.log"),
    ("Copias de seguridad", "tar de la configuración"),
)


def test_content_accepts_a_weak_heading_candidate_only_when_it_ranks_it_first() -> None:
    # "poner un proxy delante" is under the threshold, but far ahead of every other heading
    assert match_reference("poner un proxy delante", PROXY).reason == "unmatched"
    agree = ("poner un proxy delante", (), ["¿Cómo reenvío?", "proxy_pass al servidor"])
    (match,) = match_table([agree], PROXY)
    assert (match.rule, match.section_ids) == ("content", [PROXY.sections[1].id])
    # the cells point at another section: the headings' guess and the text disagree
    disagree = ("poner un proxy delante", (), ["¿Dónde?", "access.log y error.log"])
    assert match_table([disagree], PROXY)[0].section_ids == []


def test_content_alone_needs_a_section_far_ahead() -> None:
    # no heading resembles "Dónde mirar", the cells name one section's words only
    (alone,) = match_table([("Dónde mirar", (), ["access.log y error.log"])], PROXY)
    assert (alone.rule, alone.section_ids) == ("content", [PROXY.sections[2].id])
    # cells shared by two sections settle nothing
    spread = ("Dónde mirar", (), ["nginx, la configuración"])
    assert match_table([spread], PROXY)[0].section_ids == []


def test_content_never_sends_a_reference_to_an_excluded_section_elsewhere() -> None:
    article = page_with(("Instalación", "apt install nginx"), ("FAQ", "access.log"))
    (match,) = match_table([("FAQ", (), ["apt install nginx"])], article)
    assert match.section_ids == [] and match.candidates == ["excluded:FAQ"]


def test_content_between_fixed_neighbours_confirms_a_row_with_no_candidate() -> None:
    article = page_with(
        ("Instalación", "apt install nginx"),
        ("Configurar el proxy", "proxy_pass envía las peticiones al servidor"),
        ("Registros", "access.log y error.log"),
        ("Copias de seguridad", "tar de la configuración; proxy_pass se guarda"),
    )
    table = [("Instalación", (), ["¿Cómo instalo?"]), ("Zzz", (), []), ("Registros", (), ["log"])]
    # the cells name #1 first, and #3 (outside the neighbours) second: not 10x ahead alone
    table[1] = ("Zzz", (), ["proxy_pass de las peticiones"])
    first, middle, last = match_table(table, article)
    assert (first.rule, last.rule) == ("exact", "exact")
    assert (middle.rule, middle.section_ids) == ("content", [article.sections[1].id])
    alone = match_table([table[1]], article)[0]
    assert alone.section_ids == []  # without the neighbours, the text alone is not enough
    # content's first section outside the neighbours: the row stays open
    table[1] = ("Zzz", (), ["tar de la configuración, proxy_pass"])
    assert match_table(table, article)[1].section_ids == []


# --------------------------------------------------------------------------- the rule alone


def ranked(*scores: tuple[str, float]) -> Ranked:
    return Ranked(tuple(scores))


def test_content_confidence_stays_under_every_fuzzy_match() -> None:
    assert content_confidence(1.5) == 0.45  # the least ratio accepted
    assert content_confidence(math.inf) == 0.54  # the runner-up gone
    assert 0.45 < content_confidence(3.0) < 0.54


def test_ratio_among_compares_only_the_sections_given() -> None:
    scores = ranked(("a", 6.0), ("b", 3.0), ("c", 2.0))
    assert ratio_among(scores, {"b", "c"}) == 1.5
    assert ratio_among(scores, {"c"}) == math.inf
    assert ratio_among(scores, {"z"}) == 0.0


def test_by_content_breaks_a_tie_only_for_a_tied_section_far_enough_ahead() -> None:
    index = index_of("Docker ボリュームの作成", "Docker ボリュームの削除", "バックアップ")
    tie = Match(
        reason="ambiguous", candidates=["Docker ボリュームの作成", "Docker ボリュームの削除"]
    )
    decided = Outcome(tie, tied=index.targets[:2])
    taken = by_content(index, decided, tie, None, ranked(("p#1", 3.0), ("p#0", 1.0)))
    assert taken is not None and (taken.rule, taken.section_ids) == ("content", ["p#1"])
    assert by_content(index, decided, tie, None, ranked(("p#1", 3.0), ("p#0", 2.5))) is None
    assert by_content(index, decided, tie, None, ranked(("p#2", 9.0), ("p#1", 1.0))) is None


def test_by_content_alone_and_between_neighbours() -> None:
    index = index_of("A", "B", "C", "D")
    open_row = Match(reason="unmatched")
    decided = Outcome(open_row)
    # 4x ahead: not enough alone (10x), enough between the fixed rows 0 and 2
    text = ranked(("p#1", 4.0), ("p#0", 1.0), ("p#3", 1.0))
    assert by_content(index, decided, open_row, None, text) is None
    between = by_content(index, decided, open_row, (0, 2), text)
    assert between is not None and between.section_ids == ["p#1"]
    far = ranked(("p#3", 40.0), ("p#0", 1.0))
    alone = by_content(index, decided, open_row, None, far)
    assert alone is not None and alone.section_ids == ["p#3"]
    assert by_content(index, decided, open_row, None, ranked()) is None
