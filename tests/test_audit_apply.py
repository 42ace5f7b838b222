"""``audit apply``: precision, the corrected version folder, and verdict files that do not fit."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest

from audit_helpers import fresh_build, run
from qrelsmith.audit.sheet import COLUMNS, read_csv


def filled(
    build: Path, target: Path, changes: dict[str, dict[str, str]], default: str = "correct"
) -> Path:
    """audit.csv with every verdict ``default`` except ``changes`` (qid -> cells)."""
    with open(build / "audit" / "audit.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        row["verdict"] = default
        row.update(changes.get(row["qid"], {}))
    with open(target, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    return target


def golden(folder: Path) -> dict[str, dict]:
    lines = (folder / "golden.jsonl").read_text(encoding="utf-8").splitlines()
    return {record["qid"]: record for record in map(json.loads, lines)}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_apply_writes_a_corrected_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    before = snapshot(build)
    verdicts = filled(
        build,
        tmp_path / "v.csv",
        {
            "ja/modal.html#q0": {"verdict": "wrong", "correct_sections": "モーダルウィンドウとは"},
            "en/http-request.html#q2": {"verdict": "unsure", "note": "?"},
            "en/xss.html#q1": {"verdict": "wrong", "correct_sections": "none"},
            "ja/rdp-port.html#q0": {"verdict": "partly", "correct_sections": "#0 | 2"},
        },
    )
    capsys.readouterr()
    assert run("apply", str(build), str(verdicts)) == 0
    out = capsys.readouterr().out
    assert "8 decided, 1 unsure, 0 open" in out
    assert "2 replaced, 1 removed, 1 flagged" in out
    for name, data in before.items():
        assert (build / name).read_bytes() == data  # the build is untouched
    version = build / "versions" / "v1"
    corrected = golden(version)
    assert corrected["ja/modal.html#q0"]["relevant"] == {"ja/modal.html#0": 2}
    assert corrected["ja/modal.html#q0"]["same_article"] == 2
    assert corrected["ja/rdp-port.html#q0"]["relevant"] == {
        "ja/rdp-port.html#0": 2,
        "ja/rdp-port.html#2": 2,
    }
    assert "en/xss.html#q1" not in corrected
    assert corrected["en/http-request.html#q2"]["flags"] == ["unsure"]
    qrels = (version / "qrels.trec").read_text().splitlines()
    assert "ja/modal.html#q0 0 ja/modal.html#0 2" in qrels
    assert "ja/modal.html#q0 0 ja/modal.html#1 1" in qrels
    assert (version / "beir" / "qrels" / "test.tsv").is_file()
    assert (version / "corpus.jsonl").read_bytes() == (build / "corpus.jsonl").read_bytes()
    changelog = [
        json.loads(line) for line in (version / "changelog.jsonl").read_text().splitlines()
    ]
    assert {(c["qid"], c["action"]) for c in changelog} == {
        ("ja/modal.html#q0", "replaced"),
        ("ja/rdp-port.html#q0", "replaced"),
        ("en/xss.html#q1", "removed"),
        ("en/http-request.html#q2", "flagged"),
    }
    assert run("apply", str(build), str(verdicts)) == 0
    assert (build / "versions" / "v2").is_dir()


def test_precision_per_rule_and_weighted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    verdicts = filled(
        build,
        tmp_path / "v.csv",
        {
            "ja/modal.html#q0": {"verdict": "wrong", "correct_sections": "#0"},
        },
    )
    capsys.readouterr()
    assert run("apply", str(build), str(verdicts), "--dry-run") == 0
    out = capsys.readouterr().out
    # A census (every weight 1): overall 8/9 and fuzzy 2/3, as plain Wilson intervals.
    assert "overall              0.889  [0.565, 0.980]" in out
    assert "fuzzy                0.667  [0.208, 0.939]  n=3" in out
    assert not (build / "versions").exists()


BAD_CELLS = [
    ({"en/xss.html#q0": {"qid": "en/xss.html#q9"}}, "unknown qid"),
    ({"en/xss.html#q0": {"verdict": "ok"}}, "bad verdict 'ok'"),
    (
        {"ja/modal.html#q0": {"verdict": "wrong", "correct_sections": "まとめ"}},
        "'まとめ' is not a section",
    ),
    (
        {"ja/modal.html#q0": {"verdict": "wrong", "correct_sections": "ja/rdp-port.html#0"}},
        "is not a section",
    ),
    ({"ja/modal.html#q0": {"verdict": "wrong", "correct_sections": "#7"}}, "is not a section"),
    ({"ja/modal.html#q0": {"verdict": "wrong"}}, "needs correct_sections"),
    (
        {"ja/modal.html#q0": {"verdict": "correct", "correct_sections": "#0"}},
        "differ from the label",
    ),
]


@pytest.mark.parametrize(("changes", "message"), BAD_CELLS)
def test_bad_verdict_file_names_the_row_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], changes: dict, message: str
) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    before = snapshot(build)
    verdicts = filled(build, tmp_path / "v.csv", changes)
    capsys.readouterr()
    assert run("apply", str(build), str(verdicts)) == 1
    out = capsys.readouterr().out
    assert out.startswith("error: v.csv: row ") and message in out
    assert snapshot(build) == before


def test_error_names_the_row_not_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 29: "line 15" named the 4th row, whose cells above hold line breaks; a reviewer
    # sees rows (the first under the header is row 1).
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    path = tmp_path / "v.csv"
    path.write_text(
        'qid,verdict,note\nen/xss.html#q0,correct,"two\nlines"\nen/xss.html#q1,maybe,\n',
        encoding="utf-8",
    )
    capsys.readouterr()
    assert run("apply", str(build), str(path)) == 1
    assert capsys.readouterr().out.strip() == (
        "error: v.csv: row 2: bad verdict 'maybe' (use correct, wrong, partly, unsure)"
    )


def test_sample_refuses_to_overwrite_verdicts(tmp_path: Path) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    filled(build, build / "audit" / "audit.csv", {})
    assert run("sample", str(build)) == 2
    assert run("sample", str(build), "--force") == 0


def test_a_sheet_that_was_applied_does_not_block_a_new_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    sheet = filled(build, build / "audit" / "audit.csv", {})
    capsys.readouterr()
    assert run("sample", str(build)) == 2
    assert "audit.csv holds 9 verdicts no 'audit apply' has read" in capsys.readouterr().out
    assert run("apply", str(build), str(sheet), "--dry-run") == 0  # a dry run applies nothing
    assert run("sample", str(build)) == 2
    assert run("apply", str(build), str(sheet)) == 0
    review = json.loads((build / "versions" / "v1" / "review.json").read_text())
    assert review["verdict_sha256"] == [hashlib.sha256(sheet.read_bytes()).hexdigest()]
    # the reviewer changes the applied sheet: that change is unsaved work again
    filled(build, sheet, {"ja/modal.html#q0": {"verdict": "unsure"}})
    assert run("sample", str(build)) == 2
    assert run("apply", str(build), str(sheet)) == 0
    assert run("sample", str(build)) == 0  # applied as it is now: redrawn
    assert not any(row.verdict for row in read_csv(sheet))


def test_changed_build_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    verdicts = filled(build, tmp_path / "v.csv", {})
    with open(build / "golden.jsonl", "a", encoding="utf-8") as handle:
        handle.write("\n")
    assert run("apply", str(build), str(verdicts)) == 1
    assert "build changed" in capsys.readouterr().out
