"""schemas/ is generated from the models: it must not drift, and real outputs must validate."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from qrelsmith.cli import main
from qrelsmith.store.schemas import SCHEMAS, render
from qrelsmith.store.schemas import main as schemas_main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "site"


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_checked_in_schema_matches_the_model(name: str) -> None:
    checked_in = (ROOT / "schemas" / name).read_text(encoding="utf-8")
    assert checked_in == render(SCHEMAS[name]), (
        f"schemas/{name} drifted from the model: run `python -m qrelsmith.store.schemas schemas`"
    )


@pytest.fixture(scope="module")
def sample_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("schema_build")
    assert main(["build", str(SAMPLE), "--out", str(out), "-q"]) == 0
    return out


@pytest.mark.parametrize(
    ("output", "schema"),
    [
        ("corpus.jsonl", "corpus.schema.json"),
        ("golden.jsonl", "golden.schema.json"),
        ("beir/corpus.jsonl", "beir-corpus.schema.json"),
        ("beir/queries.jsonl", "beir-queries.schema.json"),
    ],
)
def test_jsonl_outputs_validate(sample_build: Path, output: str, schema: str) -> None:
    validator = jsonschema.Draft202012Validator(json.loads((ROOT / "schemas" / schema).read_text()))
    lines = (sample_build / output).read_text(encoding="utf-8").splitlines()
    assert lines
    for line in lines:
        validator.validate(json.loads(line))


def test_report_validates(sample_build: Path) -> None:
    schema = json.loads((ROOT / "schemas" / "report.schema.json").read_text())
    jsonschema.validate(json.loads((sample_build / "report.json").read_text()), schema)


def test_schema_rejects_a_drifted_record() -> None:
    schema = json.loads((ROOT / "schemas" / "golden.schema.json").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"qid": "x", "query": "y"}, schema)


# --------------------------------------------------------------------------- evaluate and audit

FIXTURES = ROOT / "tests" / "fixtures"
EVAL_BUILD = FIXTURES / "eval" / "build"


def _validator(schema: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((ROOT / "schemas" / schema).read_text()))


def test_eval_and_check_json_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "bm25.trec"
    config = tmp_path / "fast.toml"
    config.write_text("[eval]\nbootstrap_samples = 100\npermutation_rounds = 100\n")
    assert main(["baseline", str(EVAL_BUILD), "--out", str(run), "--k", "10"]) == 0
    capsys.readouterr()
    other = tmp_path / "same.trec"
    shutil.copyfile(run, other)
    assert (
        main(
            [
                "eval",
                str(EVAL_BUILD),
                str(run),
                str(other),
                "--json",
                "--per-query",
                "--config",
                str(config),
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["comparisons"] and report["per_query"]
    _validator("eval.schema.json").validate(report)

    assert main(["check", str(EVAL_BUILD), "--run", str(run), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines
    for line in lines:
        _validator("check.schema.json").validate(json.loads(line))


def test_validate_json_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "build"
    shutil.copytree(EVAL_BUILD, broken)
    with open(broken / "qrels.trec", "a", encoding="utf-8") as handle:
        handle.write("nowhere#q0 0 nowhere#1 2\n")
    assert main(["validate", str(broken), "--json"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines
    for line in lines:
        _validator("validate.schema.json").validate(json.loads(line))


def test_align_report_validates(tmp_path: Path) -> None:
    out = tmp_path / "aligned"
    chunks = FIXTURES / "eval" / "chunks.jsonl"
    assert main(["align", str(EVAL_BUILD), "--chunks", str(chunks), "--out", str(out)]) == 0
    report = json.loads((out / "align_report.json").read_text(encoding="utf-8"))
    assert report["unmapped"] and report["chunks"]
    _validator("align-report.schema.json").validate(report)


def test_audit_sample_changelog_and_review_validate(tmp_path: Path) -> None:
    build = tmp_path / "build"
    shutil.copytree(FIXTURES / "audit_build", build)
    assert main(["audit", "sample", str(build)]) == 0
    _validator("audit-sample.schema.json").validate(
        json.loads((build / "audit" / "sample.json").read_text(encoding="utf-8"))
    )
    with open(build / "audit" / "audit.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for number, row in enumerate(rows):  # every kind of change: replaced, removed, flagged
        row["verdict"] = ("correct", "wrong", "unsure", "partly")[number % 4]
        if row["verdict"] in ("wrong", "partly"):
            row["correct_sections"] = "none" if number % 8 == 1 else "#0"
    verdicts = tmp_path / "verdicts.csv"
    with open(verdicts, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert main(["audit", "apply", str(build), str(verdicts)]) == 0
    version = build / "versions" / "v1"
    changes = [json.loads(line) for line in (version / "changelog.jsonl").read_text().splitlines()]
    assert {change["action"] for change in changes} == {"replaced", "removed", "flagged"}
    for change in changes:
        _validator("changelog.schema.json").validate(change)
    _validator("review.schema.json").validate(json.loads((version / "review.json").read_text()))


def test_the_schemas_command_takes_help_as_help_not_as_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        schemas_main(["--help"])
    assert exit_info.value.code == 0
    assert "usage: python -m qrelsmith.store.schemas" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []
    assert schemas_main(["out"]) == 0
    assert (tmp_path / "out" / "golden.schema.json").is_file()
