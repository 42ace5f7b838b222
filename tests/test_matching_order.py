"""matching/order.py: a table's rows decided together along the page's order (rule order)."""

from __future__ import annotations

from matching_helpers import page, rows
from qrelsmith import match_table
from qrelsmith.matching import HeadingIndex


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
