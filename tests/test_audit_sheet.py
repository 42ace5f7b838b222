"""audit.csv (BOM, formulas neutralised) and audit.html (self-contained, crawled text escaped)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from audit_helpers import fresh_build, run
from qrelsmith.audit.page import script_json
from qrelsmith.audit.sheet import COLUMNS, neutralise, restore


def test_neutralise_round_trip() -> None:
    for cell in ["=SUM(A1)", "+1", "-2", "@x", "\tcmd", "plain", "", "'quoted"]:
        assert restore(neutralise(cell)) == cell
    assert neutralise("=SUM(A1)") == "'=SUM(A1)"
    assert neutralise("モーダル") == "モーダル"


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_formula_start_is_prefixed(start: str) -> None:
    # Issue 27: with tab and CR taken out of the formula starts every test still passed (the
    # round trip holds either way): a cell starting with one is prefixed, each checked here.
    assert neutralise(f"{start}cmd|' /C calc'!A0") == f"'{start}cmd|' /C calc'!A0"
    assert restore(f"'{start}x") == f"{start}x"
    assert neutralise(f"x{start}") == f"x{start}"


def test_csv_opens_as_utf8_with_japanese_and_no_formula(tmp_path: Path) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    raw = (build / "audit" / "audit.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(raw.decode("utf-8-sig").splitlines(keepends=True)))
    assert tuple(rows[0]) == COLUMNS
    cells = [cell for row in rows[1:] for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]
    assert '\'=HYPERLINK("http://evil") can' in cells
    assert any("モーダルウィンドウとは" in cell for cell in cells)
    by_qid = {row[0]: dict(zip(COLUMNS, row, strict=True)) for row in rows[1:]}
    multi = by_qid["en/http-request.html#q0"]
    assert multi["matched_sections"] == "en/http-request.html#0 | en/http-request.html#1"
    assert multi["other_headings"] == "#2 Methods: GET and POST\n#3 Status codes"
    assert multi["verdict"] == multi["correct_sections"] == multi["note"] == ""


def test_page_is_self_contained_and_escapes_crawled_text(tmp_path: Path) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    page = (build / "audit" / "audit.html").read_text(encoding="utf-8")
    assert len(re.findall(r"<script\b", page)) == 2  # the data block and the page's own script
    assert "alert(1)" in page and "<script>alert" not in page and "<img" not in page
    assert not re.search(r"(src|href)=\"(https?:)?//", page)  # nothing loaded from anywhere
    assert "Content-Security-Policy" in page and "'sha256-" in page
    data = re.search(r'<script type="application/json" id="audit-data">(.*?)</script>', page, re.S)
    assert data is not None
    parsed = json.loads(data.group(1))
    assert len(parsed["rows"]) == 9
    assert "<script>alert(1)</script>" in json.dumps(parsed, ensure_ascii=False)


def test_script_json_escapes_what_could_end_the_block() -> None:
    text = script_json({"t": "</script><!-- & \u2028\u2029"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == {"t": "</script><!-- & \u2028\u2029"}


def test_a_cell_longer_than_excel_takes_is_cut_and_flagged(tmp_path: Path) -> None:
    import csv as csv_module

    from qrelsmith.audit.sheet import COLUMNS, EXCEL_CELL_CHARS, read_csv, write_csv

    row = {column: "" for column in COLUMNS}
    row.update(qid="a.html#q0", answer="=x" + "y" * 100_000, query="short")
    path = tmp_path / "audit.csv"
    write_csv(path, [row])
    with open(path, encoding="utf-8-sig", newline="") as handle:
        [written] = list(csv_module.DictReader(handle))
    assert len(written["answer"]) == EXCEL_CELL_CHARS
    assert written["answer"].startswith("'=xyyy") and written["answer"].endswith(
        "[cut: 100,002 characters in all]"
    )
    assert written["query"] == "short"
    assert [r.qid for r in read_csv(path)] == ["a.html#q0"]


def test_a_caption_with_a_colon_leaves_the_reference_whole(tmp_path: Path) -> None:
    """The sheet shows the reference cell as written, whatever the table's caption holds."""
    from qrelsmith.cli import main

    site = tmp_path / "site"
    site.mkdir()
    (site / "ports.html").write_text(
        "<article><h1>Ports</h1><table><caption>Ports: quick view</caption>"
        "<tr><th>Question</th><th>Answer</th><th>Section</th></tr>"
        "<tr><td>Which port does SSH use?</td><td>22</td><td>Port numbers</td></tr></table>"
        "<h2>Port numbers</h2><p>SSH listens on 22.</p><h2>Firewalls</h2><p>Open it.</p>"
        "</article>",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q"]) == 0
    golden = json.loads((out / "golden.jsonl").read_text(encoding="utf-8"))
    assert (golden["table"], golden["reference"]) == ("Ports: quick view", "Port numbers")
    assert golden["source"] == "Ports: quick view:Port numbers"
    with (out / "audit" / "audit.csv").open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["reference"] for row in rows] == ["Port numbers"]


def test_a_golden_set_without_table_and_reference_asks_for_a_rebuild(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A golden.jsonl written before the two fields existed: one line saying so, exit 1."""
    build = fresh_build(tmp_path)
    golden = build / "golden.jsonl"
    lines = []
    for line in golden.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        del record["table"], record["reference"]
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    golden.write_text("".join(lines), encoding="utf-8")
    assert run("sample", str(build)) == 1
    assert capsys.readouterr().out == (
        f"error: {golden}: record 1: no table and reference fields: written by an earlier "
        "qrelsmith, rebuild it\n"
    )


def test_a_utf16_verdict_sheet_is_read(tmp_path: Path) -> None:
    # Issue 16: Excel's "Unicode Text" (UTF-16, tab-separated) got "no column 'qid'".
    from qrelsmith.audit.sheet import read_csv

    path = tmp_path / "verdicts.txt"
    path.write_bytes("qid\tverdict\tnote\nja/a.html#q0\tcorrect\t確認\n".encode("utf-16"))
    [row] = read_csv(path)
    assert (row.qid, row.verdict, row.note) == ("ja/a.html#q0", "correct", "確認")
