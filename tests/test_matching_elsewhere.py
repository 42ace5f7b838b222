"""matching/elsewhere.py: rows whose own cells say their answer is in another article or page."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from matching_helpers import page_with
from qrelsmith import match_table, parse_article
from qrelsmith.cli import main
from qrelsmith.labelling.matching.elsewhere import says_elsewhere
from qrelsmith.page.article import article_queries

FIXTURES = Path(__file__).parent / "fixtures" / "labels"


def test_rows_that_say_their_answer_is_in_another_article_are_rejected() -> None:
    page = FIXTURES / "sql-select.html"
    article = parse_article(page.read_bytes(), path="ja/sql-select.html")
    assert [row.offsite for row in article.table.rows] == [False] * 5 + [True]
    queries, rejected = article_queries(article)
    assert [q.reference for q in queries] == [
        "WHERE で絞り込む",
        "ORDER BY で並べ替える",
        "GROUP BY で集計する",
    ]
    # "JOIN の詳細（別記事）", "別記事で解説しています", and "…を参照" linking to another page
    assert [(r.row, r.reason) for r in rejected] == [
        (2, "elsewhere"),
        (4, "elsewhere"),
        (5, "elsewhere"),
    ]


def test_each_language_s_phrases() -> None:
    for cells in (
        ["Joins", "Covered in another article"],
        ["Uniones", "Se explica en otro artículo"],
        ["조인", "다른 문서에서 설명합니다"],
        ["连接", "见另一篇文章"],
        ["結合", "別ページで説明"],
        ["Signing in CI", "Part 2 of this series (coming soon)"],
        ["CI での署名", "次回の記事で解説"],
    ):
        assert says_elsewhere(cells), cells
    # "see …" sends the reader on only with a link to another page
    assert not says_elsewhere(["Installing", "see Installing"])
    assert says_elsewhere(["Installing", "see Installing"], offsite=True)
    assert says_elsewhere(["インストール", "インストール手順を参照"], offsite=True)
    # Latin phrases stand on word boundaries: "ver" is not in "server", "see" not in "seed"
    assert not says_elsewhere(["Configurar el server", "seed the database"], offsite=True)
    assert not says_elsewhere(["Instalación", "apt install nginx"], offsite=True)


def test_an_elsewhere_row_takes_no_part_in_its_table_s_decision() -> None:
    article = page_with(("Instalación", "apt install"), ("Registros", "access.log"))
    rows = [
        ("Instalación", (), ["¿Cómo instalo?"]),
        ("Registros", (), ["Se explica en otro artículo"]),
    ]
    first, second = match_table(rows, article)
    assert first.section_ids == [article.sections[0].id]
    assert (second.section_ids, second.reason) == ([], "elsewhere")
    # the offsite flag is read per row
    see = [("Registros", (), ["ver Registros"])]
    assert match_table(see, article, offsite=[True])[0].reason == "elsewhere"
    assert match_table(see, article, offsite=[False])[0].section_ids == [article.sections[1].id]


def test_a_build_counts_the_rows_that_say_their_answer_is_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site" / "ja"
    site.mkdir(parents=True)
    shutil.copy(FIXTURES / "sql-select.html", site)
    out = tmp_path / "out"
    assert main(["build", str(site.parent), "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    reasons = [row["reason"] for row in report["rejected"]]
    assert reasons == ["elsewhere"] * 3 and report["counts"]["rejected"] == 3
    assert "rejected rows: 3 (3 say their answer is elsewhere)" in capsys.readouterr().err
