"""schemas/ is generated from the models: it must not drift, and real outputs must validate."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from qrelsmith.cli import main
from qrelsmith.schemas import SCHEMAS, render

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "site"


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_checked_in_schema_matches_the_model(name: str) -> None:
    checked_in = (ROOT / "schemas" / name).read_text(encoding="utf-8")
    assert checked_in == render(SCHEMAS[name]), (
        f"schemas/{name} drifted from the model: run `python -m qrelsmith.schemas schemas`"
    )


@pytest.fixture(scope="module")
def sample_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("schema_build")
    assert main(["build", str(SAMPLE), "--out", str(out), "-q"]) in (0, 3)
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
