"""matching/order.py: a table's rows decided together along the page's order (rule order)."""

from __future__ import annotations

from pathlib import Path

from matching_helpers import index_of, page, rows
from qrelsmith import match_table, parse_article
from qrelsmith.labelling.content import SectionText
from qrelsmith.labelling.matching import HeadingIndex
from qrelsmith.labelling.matching.order import (
    brackets,
    in_order,
    longest_ordered,
    sections_between,
)
from qrelsmith.labelling.matching.rules import Outcome
from qrelsmith.models import Article, Match

FIXTURES = Path(__file__).parent / "fixtures" / "labels"


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


def test_in_order_leaves_a_tie_to_the_occurrences() -> None:
    # the bracket alone once chose among tied headings: on the dev set 1 right, 3 wrong
    index = index_of("Install", "- Check", "Configure", "- Check", "Deploy")
    tied = Outcome(
        Match(reason="ambiguous", candidates=["Check"]), tied=[index.targets[1], index.targets[3]]
    )
    assert in_order(index, tied, (2, 4), margin=0.05) == tied.match
    assert in_order(index, tied, (0, None), margin=0.05) == tied.match


def test_in_order_takes_a_weak_candidate_only_between_close_neighbours() -> None:
    index = index_of("A", "B", "C", "D", "E", "F", "G")
    weak = Outcome(Match(reason="unmatched"), weak=[(0.45, index.targets[2])])
    assert in_order(index, weak, (1, 3), margin=0.05) == Match(
        section_ids=["p#2"], rule="order", confidence=0.45
    )
    assert in_order(index, weak, (1, None), margin=0.05).section_ids == []  # one side open
    assert in_order(index, weak, (0, 6), margin=0.05).section_ids == []  # too far apart
    assert in_order(index, weak, (3, 5), margin=0.05).section_ids == []  # not in between


def test_a_heading_repeated_k_times_and_named_k_times_maps_occurrence_by_occurrence() -> None:
    # a troubleshooting page repeats "概要" and "考えられる原因" under each case; its table
    # lists them in page order, with no other row to fix a position
    source = FIXTURES / "sync-troubleshooting.html"
    article = parse_article(source.read_bytes(), path="ja/sync.html")
    assert article.table is not None
    table = [(row.reference, (), ()) for row in article.table.rows]
    matches = match_table(table, article)
    assert [m.section_ids for m in matches] == [
        [article.sections[number // 2].id] for number in range(6)
    ]
    assert {m.rule for m in matches} == {"order"}
    assert all(m.confidence <= 0.7 for m in matches)
    # named fewer times than it repeats: which is meant is unknown, the rows stay open
    assert [m.reason for m in match_table(table[:2] + table[4:], article)] == ["ambiguous"] * 4


def test_a_repeated_h2_named_as_often_as_it_repeats_maps_in_table_order() -> None:
    article = page("Windows", "- Instalar", "macOS", "- Instalar", "Linux", "- Instalar")
    ids = [s.id for s in article.sections]
    three = match_table([("Instalar", (), ())] * 3, article)
    assert [m.section_ids for m in three] == [[i] for i in ids]
    versioned = page("Uso", "Configurar", "Uso", "Configurar")
    first, second = match_table([("Configurar", (), ()), ("Configurar", (), ())], versioned)
    assert (first.section_ids, second.section_ids) == (
        [versioned.sections[1].id],
        [versioned.sections[3].id],
    )
    assert first.flags == second.flags == ["duplicate-heading"]
    # once: the first occurrence, as before
    (once,) = match_table([("Configurar", (), ())], versioned)
    assert (once.rule, once.section_ids) == ("exact", [versioned.sections[1].id])


def test_an_occurrence_outside_its_row_s_neighbours_is_not_taken() -> None:
    # a versioned page repeats its H3s in a later copy; the table names "Instalar" twice
    # between two fixed rows that both lie before the copy: not occurrence by occurrence
    article = page("Inicio", "Uso", "- Instalar", "Fin", "Uso v2", "- Instalar")
    table = [(text, (), ()) for text in ("Inicio", "Instalar", "Instalar", "Fin")]
    matches = match_table(table, article)
    assert [(m.section_ids, m.reason) for m in matches[1:3]] == [([], "ambiguous")] * 2


def test_rows_that_only_resemble_a_repeated_heading_are_not_mapped_by_occurrence() -> None:
    article = page("Windows", "- Configurar el proxy", "Linux", "- Configurar el proxy")
    table = [("configurar proxy", (), ())] * 2
    assert [m.reason for m in match_table(table, article)] == ["ambiguous"] * 2
    named = [("Configurar el proxy", (), ())] * 2
    assert [m.section_ids for m in match_table(named, article)] == [
        [article.sections[0].id],
        [article.sections[1].id],
    ]


def test_sections_between_are_bounded_by_every_lexically_decided_row() -> None:
    index = index_of("A", "B", "C", "D")
    fuzzy = [
        Match(section_ids=["p#0"], rule="fuzzy", confidence=0.6),
        Match(reason="unmatched"),
        Match(section_ids=["p#2"], rule="exact", confidence=0.99),
        Match(reason="ambiguous"),
    ]
    assert sections_between(index, fuzzy) == [None, {"p#0", "p#1", "p#2"}, None, {"p#2", "p#3"}]
    # a table whose decided rows do not follow the page gives no order
    backwards = [fuzzy[2], fuzzy[1], fuzzy[0]]
    assert sections_between(index, backwards) == [None, None, None]


# --------------------------------------------------------------------------- by_place


def fixture_rows(name: str) -> tuple[Article, list[Match]]:
    article = parse_article((FIXTURES / name).read_bytes(), path=name)
    assert article.table is not None
    return article, match_table([(r.reference, (), ()) for r in article.table.rows], article)


def test_rows_between_two_rows_of_one_section_are_in_it() -> None:
    # a reference page's table names the schemes of one section in turn; "mailto:" and
    # "ms-chat:" resemble no heading, but the rows around each lie in "URI schemes"
    article, matches = fixture_rows("uri-schemes.html")
    schemes = article.sections[0].id
    assert [(m.rule, m.section_ids) for m in matches] == [
        ("exact", [schemes]),
        ("order", [schemes]),
        ("exact", [schemes]),
        ("order", [schemes]),
        ("exact", [schemes]),
        ("exact", [article.sections[1].id]),
    ]
    assert all(m.confidence <= 0.7 for m in matches if m.rule == "order")


def test_a_row_between_two_members_takes_the_one_member_between_them() -> None:
    # "CArray::Copy" is translated "CArray::Copiar": one member lies between Add and Find
    article, matches = fixture_rows("member-list.html")
    ids = [s.id for s in article.sections]
    assert (matches[1].rule, matches[1].section_ids) == ("order", [ids[1]])
    # two members (Vaciar, Establecer) lie between GetAt and SetAt: no one place
    assert (matches[4].section_ids, matches[4].reason) == ([], "unmatched")


def test_a_table_that_names_subheadings_is_bounded_by_them() -> None:
    # every section between says "casos de uso": the bounds alone decide here
    says = {h: "Casos de uso." for h in ("Rendimiento", "Streaming", "Escenarios")}
    # the neighbours name H2s: the subheadings between them are not what the row names
    h2s = page(
        "Ventajas", "- Rendimiento", "- Streaming", "Escenarios", "Inconvenientes", says=says
    )
    between_h2s = match_table(
        [(r, (), ()) for r in ("Ventajas", "Casos de uso", "Inconvenientes")], h2s
    )
    assert (between_h2s[1].rule, between_h2s[1].section_ids) == ("order", [h2s.sections[1].id])
    # the neighbours name subheadings: Streaming (Ventajas) and Escenarios lie between
    subheads = page(
        "Ventajas", "- Rendimiento", "- Streaming", "Escenarios", "- Navegadores", says=says
    )
    between_h3s = match_table(
        [(r, (), ()) for r in ("Rendimiento", "Casos de uso", "Navegadores")], subheads
    )
    assert (between_h3s[1].section_ids, between_h3s[1].reason) == ([], "unmatched")
    # bounded by the subheading named, not by its section's last: "Streaming", after
    # "Rendimiento" in its section, may be what the row names as well as "Escenarios"
    after_h3 = match_table(
        [(r, (), ()) for r in ("Rendimiento", "Casos de uso", "Fin")],
        page("Ventajas", "- Rendimiento", "- Streaming", "Escenarios", "Fin", says=says),
    )
    assert after_h3[1].section_ids == []


def test_open_rows_take_the_sections_between_their_neighbours_only_one_each() -> None:
    says = {"Uso": "Zzz, xxx.", "Ajustes": "Yyy, xxx."}
    article = page("Inicio", "Uso", "Ajustes", "Fin", says=says)
    ids = [s.id for s in article.sections]
    # two open rows, two sections between their neighbours: one each, in order
    two = match_table([(r, (), ()) for r in ("Inicio", "Zzz", "Yyy", "Fin")], article)
    assert [(m.rule, m.section_ids) for m in two[1:3]] == [("order", [ids[1]]), ("order", [ids[2]])]
    # three open rows for two sections: one of them names something else
    three = match_table([(r, (), ()) for r in ("Inicio", "Zzz", "Yyy", "Xxx", "Fin")], article)
    assert [m.section_ids for m in three[1:4]] == [[], [], []]
    article = page("Inicio", "Uso", "Fin", says=says)
    # neighbours that are next to each other on the page leave no place between them
    adjacent = match_table([(r, (), ()) for r in ("Inicio", "Zzz", "Uso")], article)
    assert adjacent[1].section_ids == []


# ------------------------------------------------------------- by_place: the text's support


def fixture_table(name: str) -> tuple[Article, list[Match]]:
    """A fixture's table matched as a build does, each row with its query and answer."""
    article = parse_article((FIXTURES / name).read_bytes(), path=name)
    assert article.table is not None
    rows = [(r.reference, (), (r.query, r.answer)) for r in article.table.rows]
    return article, match_table(rows, article)


def test_a_row_naming_a_topic_the_page_does_not_cover_stays_open() -> None:
    # "ウィンドウ関数" lies between two decided rows with one section between them, but the
    # page does not cover window functions: that section ("集計関数を使う") shares one word
    # of six with it ("関数") and does not hold its answer (ROW_NUMBER() OVER ...)
    article, matches = fixture_table("sql-aggregates.html")
    assert [m.rule for m in matches] == ["exact", None, "exact", "exact"]
    assert (matches[1].section_ids, matches[1].reason) == ([], "unmatched")
    # half of the row's words are there ("関数" of "ROW_NUMBER 関数"), but not the item it
    # names, the identifier
    pages = ("WHERE で絞り込む", "集計関数を使う", "GROUP BY でまとめる")
    plain = page(*pages, says={"集計関数を使う": "集計関数は行の値をまとめます。"})
    named = match_table(
        [(r, (), ()) for r in ("WHERE で絞り込む", "ROW_NUMBER 関数", "GROUP BY でまとめる")], plain
    )
    assert (named[1].section_ids, named[1].reason) == ([], "unmatched")
    # where the section writes what the row names, the order places it
    says = {"集計関数を使う": "ウィンドウ関数は行ごとに集計します。"}
    written = page(*pages, says=says)
    placed = match_table(
        [(r, (), ()) for r in ("WHERE で絞り込む", "ウィンドウ関数", "GROUP BY でまとめる")],
        written,
    )
    assert (placed[1].rule, placed[1].section_ids) == ("order", [written.sections[1].id])


def test_an_item_row_is_not_given_the_overview_that_lists_every_item() -> None:
    # "XLOOKUP" lies between "Overview" and its subheading "Choosing a function", and the
    # overview names it, but its answer is written in "Searching in any direction" only
    article, matches = fixture_table("lookup-functions.html")
    overview = article.sections[0].id
    assert [(m.rule, m.section_ids) for m in matches[:3]] == [
        ("exact", [overview]),
        (None, []),
        ("exact", [overview]),
    ]


def test_a_place_another_section_names_better_stays_open() -> None:
    # the overview writes two of the row's three words; "Búsqueda", outside the neighbours,
    # writes all three
    says = {
        "Funciones": "XLOOKUP y los comodines.",
        "Búsqueda": "XLOOKUP acepta comodines y una coincidencia aproximada.",
    }
    article = page("Funciones", "- Versiones", "Búsqueda", says=says)
    table = [(r, (), ()) for r in ("Funciones", "XLOOKUP comodines aproximada", "Versiones")]
    assert match_table(table, article)[1].section_ids == []
    # when the overview writes them all, no section names the row better
    says["Funciones"] = "XLOOKUP, los comodines y la coincidencia aproximada."
    article = page("Funciones", "- Versiones", "Búsqueda", says=says)
    assert match_table(table, article)[1].section_ids == [article.sections[0].id]


def test_a_section_that_lists_the_table_s_items_is_no_rival() -> None:
    # "Miembros" names every member and holds the row's description; "CArray::Copiar"
    # (its heading translated) names "CArray" and "Copy" without that description
    says = {
        "Miembros": "CArray::Add agrega un elemento. CArray::Copy reemplaza los elementos "
        "por los de otra matriz. CArray::Find devuelve un índice.",
        "CArray::Copiar": "Copy copia otra matriz en esta.",
    }
    article = page("Miembros", "CArray::Add", "CArray::Copiar", "CArray::Find", says=says)
    table = [
        ("CArray::Add", (), ()),
        ("CArray::Copy", (), ("Reemplaza los elementos por los de otra matriz.",)),
        ("CArray::Find", (), ()),
    ]
    matches = match_table(table, article)
    assert (matches[1].rule, matches[1].section_ids) == ("order", [article.sections[2].id])


def test_with_no_section_text_the_order_places_nothing() -> None:
    # the text is what supports a place: an index asked with no text leaves the row open
    says = {"Uso": "Zzz."}
    article = page("Inicio", "Uso", "Fin", says=says)
    index = HeadingIndex.from_article(article)
    table = rows("Inicio", "Zzz", "Fin")
    assert index.match_rows(table)[1].section_ids == []
    placed = index.match_rows(table, content=lambda: SectionText.from_article(article))
    assert (placed[1].rule, placed[1].section_ids) == ("order", [article.sections[1].id])
