"""matching/content_rule.py: rows the headings leave open, settled by their cells' text."""

from __future__ import annotations

import math
from collections.abc import Callable

from matching_helpers import index_of, page_with
from qrelsmith import match_reference, match_table
from qrelsmith.labelling.content import Ranked, SectionText
from qrelsmith.labelling.matching import HeadingIndex
from qrelsmith.labelling.matching.content_rule import by_content, content_confidence
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


def test_content_never_decides_a_row_with_no_heading_candidate() -> None:
    # no heading resembles "Dónde mirar"; the cells name one section's words only, but the
    # text alone chose wrongly outside the dev set (issue 28): the row stays open
    (alone,) = match_table([("Dónde mirar", (), ["access.log y error.log"])], PROXY)
    assert (alone.section_ids, alone.reason) == ([], "unmatched")


def test_content_never_sends_a_reference_to_an_excluded_section_elsewhere() -> None:
    article = page_with(("Instalación", "apt install nginx"), ("FAQ", "access.log"))
    (match,) = match_table([("FAQ", (), ["apt install nginx"])], article)
    assert match.section_ids == [] and match.candidates == ["excluded:FAQ"]


def test_content_between_fixed_neighbours_leaves_a_row_with_no_candidate_open() -> None:
    article = page_with(
        ("Instalación", "apt install nginx"),
        ("Configurar el proxy", "proxy_pass envía las peticiones al servidor"),
        ("Registros", "access.log y error.log"),
        ("Copias de seguridad", "tar de la configuración"),
    )
    # two sections lie between the neighbours: the order leaves no one place (``by_place``)
    table = [
        ("Instalación", (), ["¿Cómo instalo?"]),
        ("Zzz", (), ["proxy_pass de las peticiones"]),
        ("Copias de seguridad", (), ["tar"]),
    ]
    first, middle, last = match_table(table, article)
    assert (first.rule, last.rule) == ("exact", "exact")
    assert middle.section_ids == []


def test_content_breaks_a_tie_only_where_the_answer_is_written() -> None:
    # the cell's word is the deletion section's alone, but one plain word is no answer
    # written there (it could be anywhere): content does not decide
    words_only = ("Docker ボリューム", (), ["prune"])
    assert match_table([words_only], VOLUMES)[0].reason == "ambiguous"


# --------------------------------------------------------------------------- the rule alone


def ranked(*scores: tuple[str, float]) -> Ranked:
    return Ranked(tuple(scores))


def everywhere(section_id: str) -> frozenset[int]:
    return frozenset({0})


def only_in(*sections: str) -> Callable[[str], frozenset[int]]:
    return lambda section_id: frozenset({0}) if section_id in sections else frozenset()


def test_content_confidence_stays_under_every_fuzzy_match() -> None:
    assert content_confidence(1.5) == 0.45  # the least ratio accepted
    assert content_confidence(math.inf) == 0.54  # the runner-up gone
    assert 0.45 < content_confidence(3.0) < 0.54


def test_by_content_breaks_a_tie_only_for_a_tied_section_far_enough_ahead() -> None:
    index = index_of("Docker ボリュームの作成", "Docker ボリュームの削除", "バックアップ")
    tie = Match(
        reason="ambiguous", candidates=["Docker ボリュームの作成", "Docker ボリュームの削除"]
    )
    decided = Outcome(tie, tied=index.targets[:2])
    ahead = ranked(("p#1", 3.0), ("p#0", 1.0))
    taken = by_content(index, decided, tie, None, ahead, only_in("p#1"))
    assert taken is not None and (taken.rule, taken.section_ids) == ("content", ["p#1"])
    close = ranked(("p#1", 3.0), ("p#0", 2.5))
    assert by_content(index, decided, tie, None, close, only_in("p#1")) is None
    elsewhere = ranked(("p#2", 9.0), ("p#1", 1.0))
    assert by_content(index, decided, tie, None, elsewhere, only_in("p#1")) is None
    # the answer must be in the chosen section, and in no rival
    assert by_content(index, decided, tie, None, ahead, everywhere) is None
    assert by_content(index, decided, tie, None, ahead, only_in("p#0")) is None


def test_by_content_leaves_a_row_with_no_candidate_open() -> None:
    index = index_of("A", "B", "C", "D")
    open_row = Match(reason="unmatched")
    decided = Outcome(open_row)
    far = ranked(("p#3", 40.0), ("p#0", 1.0))
    for bracket in (None, (0, 4)):
        assert by_content(index, decided, open_row, bracket, far, everywhere) is None


def test_rows_with_no_heading_candidate_leave_the_section_text_unread() -> None:
    def unread() -> SectionText:
        raise AssertionError("the sections' text was read for a row content cannot decide")

    index = HeadingIndex.from_article(PROXY)
    (match,) = index.match_rows([("Dónde mirar", ())], cells=[["access.log"]], content=unread)
    assert match.reason == "unmatched"
