"""matching/order.py: a table's rows decided together along the page's order (rule order)."""

from __future__ import annotations

from matching_helpers import index_of, page, rows
from qrelsmith import match_table
from qrelsmith.labelling.matching import HeadingIndex
from qrelsmith.labelling.matching.order import brackets, in_order, longest_ordered
from qrelsmith.labelling.matching.rules import Outcome
from qrelsmith.models import Match


def test_order_settles_a_repeated_h3() -> None:
    article = page("Install", "- Check", "Configure", "- Check", "Deploy")
    index = HeadingIndex.from_article(article)
    first, second, third, fourth, fifth = index.match_rows(
        rows("Install", "Check", "Configure", "Check", "Deploy")
    )
    assert first.rule == third.rule == fifth.rule == "exact"
    assert (second.rule, second.section_ids) == ("order", [article.sections[0].id])
    assert (fourth.rule, fourth.section_ids) == ("order", [article.sections[1].id])
    assert second.confidence <= 0.7


def test_order_takes_a_weak_candidate_between_close_neighbours() -> None:
    article = page(
        "Instalación", "Configurar el proxy inverso", "Registros", "Resumen del despliegue"
    )
    index = HeadingIndex.from_article(article)
    alone = index.match("poner un proxy delante", ())
    assert alone.section_ids == []  # below the threshold on its own
    _, middle, _ = index.match_rows(rows("Instalación", "poner un proxy delante", "Registros"))
    assert (middle.rule, middle.section_ids) == ("order", [article.sections[1].id])


def test_order_is_not_used_when_the_table_does_not_follow_the_page() -> None:
    article = page("Install", "- Check", "Configure", "- Check", "Deploy", "Monitor")
    index = HeadingIndex.from_article(article)
    results = index.match_rows(rows("Monitor", "Deploy", "Check", "Configure", "Install"))
    assert results[2].reason == "ambiguous"


def test_order_rejects_a_fuzzy_match_it_contradicts() -> None:
    article = page(
        "Instalar el servidor", "Configurar la caché", "Configurar la caché distribuida",
        "Supervisar el servidor", "Copias de seguridad",
    )  # fmt: skip
    index = HeadingIndex.from_article(article)
    alone = index.match("configurar caché distribuida en Redis", ())
    assert alone.section_ids == [article.sections[2].id]
    results = index.match_rows(
        rows("Instalar el servidor", "configurar caché distribuida en Redis", "Configurar la caché")
    )
    assert results[1].reason in (None, "out-of-order")


def test_contained_rows_fix_the_order_too() -> None:
    # API tables name members by a part of the heading: containment, one heading each
    article = page(
        "Instalación del servidor", "Configurar el proxy inverso", "Registros del servidor",
        "Copias de seguridad",
    )  # fmt: skip
    index = HeadingIndex.from_article(article)
    first, middle, last = index.match_rows(
        rows("Instalación", "poner un proxy delante", "Registros")
    )
    assert first.rule == last.rule == "contains"
    assert (middle.rule, middle.section_ids) == ("order", [article.sections[1].id])


def test_match_table_without_cells_is_the_table_order_of_the_headings() -> None:
    article = page("Install", "- Check", "Configure", "- Check", "Deploy")
    table = [(r, (), ()) for r in ("Install", "Check", "Configure", "Check", "Deploy")]
    expected = HeadingIndex.from_article(article).match_rows([(r, a) for r, a, _ in table])
    assert match_table(table, article) == expected


# --------------------------------------------------------------------------- the alignment alone


def test_longest_ordered_keeps_the_rows_that_follow_the_page() -> None:
    assert longest_ordered([(0, 5), (1, 1), (2, 2), (3, 3)]) == [1, 2, 3]
    assert longest_ordered([(0, 1), (1, 0)]) == [0]  # a tie: the first run wins
    assert longest_ordered([(0, 2), (1, 2)]) == [0, 1]  # the same heading twice goes on
    assert longest_ordered([]) == []


def fixed(index: HeadingIndex, number: int) -> Outcome:
    target = index.targets[number]
    match = Match(section_ids=[target.target_id], rule="exact", confidence=0.99)
    return Outcome(match, target=target)


def test_brackets_are_the_fixed_rows_around_each_other_row() -> None:
    index = index_of("A", "B", "C", "D", "E")
    open_row = Outcome(Match(reason="unmatched"))
    outcomes = [fixed(index, 0), open_row, fixed(index, 3), open_row]
    assert brackets(outcomes) == {1: (0, 3), 3: (3, None)}
    assert brackets([fixed(index, 0), open_row]) == {}  # one fixed row says nothing
    backwards = [fixed(index, 4), fixed(index, 3), open_row, fixed(index, 1), fixed(index, 0)]
    assert brackets(backwards) == {}  # the table does not follow the page


def test_in_order_chooses_among_tied_headings_by_the_bracket() -> None:
    index = index_of("Install", "- Check", "Configure", "- Check", "Deploy")
    tied = Outcome(
        Match(reason="ambiguous", candidates=["Check"]), tied=[index.targets[1], index.targets[3]]
    )
    chosen = in_order(index, tied, (2, 4), margin=0.05)
    assert (chosen.rule, chosen.section_ids, chosen.confidence) == ("order", ["p#1"], 0.7)
    assert in_order(index, tied, (0, None), margin=0.05) == tied.match  # both lie after row 0


def test_in_order_takes_a_weak_candidate_only_between_close_neighbours() -> None:
    index = index_of("A", "B", "C", "D", "E", "F", "G")
    weak = Outcome(Match(reason="unmatched"), weak=[(0.45, index.targets[2])])
    assert in_order(index, weak, (1, 3), margin=0.05) == Match(
        section_ids=["p#2"], rule="order", confidence=0.45
    )
    assert in_order(index, weak, (1, None), margin=0.05).section_ids == []  # one side open
    assert in_order(index, weak, (0, 6), margin=0.05).section_ids == []  # too far apart
    assert in_order(index, weak, (3, 5), margin=0.05).section_ids == []  # not in between
