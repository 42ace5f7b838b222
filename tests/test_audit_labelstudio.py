"""Label Studio: tasks with our label as a prediction, and the JSON export read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit_helpers import fresh_build, run
from qrelsmith.store.files import read_jsonl


def annotation(who: int, verdict: str, sections: list[str] | None = None, note: str = "") -> dict:
    result = [
        {
            "from_name": "verdict",
            "to_name": "text",
            "type": "choices",
            "value": {"choices": [verdict]},
        }
    ]
    if sections is not None:
        result.append(
            {
                "from_name": "sections",
                "to_name": "text",
                "type": "choices",
                "value": {"choices": sections},
            }
        )
    if note:
        result.append(
            {"from_name": "note", "to_name": "text", "type": "textarea", "value": {"text": [note]}}
        )
    return {"id": who * 100, "completed_by": who, "was_cancelled": False, "result": result}


def test_tasks_and_export_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build), "--format", "label-studio") == 0
    tasks = json.loads((build / "audit" / "label-studio.json").read_text(encoding="utf-8"))
    config = (build / "audit" / "label-studio.xml").read_text(encoding="utf-8")
    assert 'name="verdict"' in config and 'value="$sections"' in config
    modal = next(t for t in tasks if t["data"]["qid"] == "ja/modal.html#q0")
    assert modal["predictions"][0]["result"][0]["value"]["choices"] == [
        "#1 ダイアログ・ポップアップとの違い"
    ]
    assert {"value": "#0 モーダルウィンドウとは"} in modal["data"]["sections"]
    # the reviewer's columns are Label Studio's form, never the task's data
    assert not {"verdict", "correct_sections", "note"} & set(modal["data"])
    assert {"query", "answer", "reference"} <= set(modal["data"])

    exported = []
    for number, task in enumerate(tasks, 1):
        task = dict(task, id=number)
        if task["data"]["qid"] == "ja/modal.html#q0":
            task["annotations"] = [
                annotation(1, "wrong", ["#0 モーダルウィンドウとは"], "とは"),
                annotation(2, "wrong", ["#0 モーダルウィンドウとは"]),
            ]
        else:
            task["annotations"] = [annotation(1, "correct"), annotation(2, "correct")]
        exported.append(task)
    path = tmp_path / "project-1.json"
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    assert run("apply", str(build), str(path)) == 0
    out = capsys.readouterr().out
    assert "agreement of 2 reviewers" in out and "disagreements: 0" in out
    assert "1 replaced" in out
    corrected = read_jsonl(build / "versions" / "v1" / "golden.jsonl")
    assert {"ja/modal.html#0": 2} in [query["relevant"] for query in corrected]


def test_bad_section_in_export_names_the_task(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build), "--format", "label-studio") == 0
    tasks = json.loads((build / "audit" / "label-studio.json").read_text(encoding="utf-8"))
    task = dict(next(t for t in tasks if t["data"]["qid"] == "ja/modal.html#q0"), id=7)
    task["annotations"] = [annotation(1, "wrong", ["#9 まとめ"])]
    path = tmp_path / "export.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    capsys.readouterr()
    assert run("apply", str(build), str(path)) == 1
    assert capsys.readouterr().out.startswith(
        "error: export.json: task 7 (ja/modal.html#q0): '#9 まとめ'"
    )
    assert not (build / "versions").exists()


def test_a_cut_export_names_the_line_and_column(tmp_path: Path) -> None:
    from qrelsmith.audit.labelstudio import read_export
    from qrelsmith.errors import DataError

    export = tmp_path / "project-1.json"
    export.write_text('[\n  {"id": 1,\n   "data": {"qid": "x', encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_export(export)
    assert str(caught.value) == (
        "project-1.json: line 3: not valid JSON: Unterminated string starting at column 20"
    )


def test_sample_says_every_file_it_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    audit = build / "audit"
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"wrote {audit}/audit.csv and {audit}/audit.html"
    )
    assert run("sample", str(build), "--format", "label-studio", "--format", "label-studio") == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"wrote {audit}/audit.csv, {audit}/audit.html, {audit}/label-studio.json "
        f"and {audit}/label-studio.xml"
    )
