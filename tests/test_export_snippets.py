"""docs/exports.md's loading snippets for Ragas and LlamaIndex, run with the real libraries
against a real export of the sample.

Each such snippet is a ``python`` block whose first line is ``# pip install NAME==VERSION ...``:
those pins are the ``[rag-snippets]`` extra's (checked here), and the snippet is run in a folder
holding ``qrelsmith export`` of the sample's build. Both libraries pull many packages and take
minutes to install, so CI leaves them out and the tests skip without them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from qrelsmith.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXPORTS = ROOT / "docs" / "exports.md"
PIN = re.compile(r"^# pip install ((?:\S+==\S+ ?)+)$")


def pinned_snippets() -> dict[str, tuple[list[str], str]]:
    """The pinned snippets of docs/exports.md by the module they import first: (pins, code)."""
    text = EXPORTS.read_text(encoding="utf-8")
    found = {}
    for code in re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S):
        first = PIN.match(code.splitlines()[0])
        if first:
            module = re.search(r"^from (\S+) import", code, flags=re.M)
            assert module, code
            found[module.group(1)] = (first.group(1).split(), code)
    return found


SNIPPETS = pinned_snippets()


def test_the_snippets_pin_the_rag_snippets_extra() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert set(SNIPPETS) == {"ragas", "llama_index.core.evaluation"}
    pins = sorted(pin for pins, _ in SNIPPETS.values() for pin in pins)
    assert pins == sorted(extras["rag-snippets"])


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the sample's build (``out``) and its ragas and llamaindex exports, as
    docs/exports.md names them."""
    folder = tmp_path_factory.mktemp("snippets")
    out = folder / "out"
    assert main(["build", str(ROOT / "samples" / "site"), "--out", str(out), "-q"]) == 0
    for kind in ("ragas", "llamaindex"):
        assert main(["export", kind, str(out), "--out", str(folder / f"out-{kind}")]) == 0
    return folder


def run_snippet(module: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The snippet's names after running it in ``folder``; skipped without the library."""
    if importlib.util.find_spec(module.split(".")[0]) is None:
        pytest.skip(f"needs {module}: pip install -e '.[rag-snippets]' (docs/exports.md)")
    monkeypatch.chdir(folder)
    monkeypatch.setitem(os.environ, "RAGAS_DO_NOT_TRACK", "true")
    names: dict[str, Any] = {}
    exec(compile(SNIPPETS[module][1], f"docs/exports.md ({module})", "exec"), names)
    return names


def golden(folder: Path) -> list[dict[str, Any]]:
    lines = (folder / "out" / "golden.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_the_ragas_snippet_loads_every_query_with_its_sections(
    exports: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dataset = run_snippet("ragas", exports, monkeypatch)["dataset"]
    queries = golden(exports)
    assert len(dataset) == len(queries)
    assert [sample.user_input for sample in dataset.samples] == [q["query"] for q in queries]
    assert [sample.reference_context_ids for sample in dataset.samples] == [
        list(q["relevant"]) for q in queries
    ]


def test_the_llamaindex_snippet_loads_queries_corpus_and_relevant_sections(
    exports: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dataset = run_snippet("llama_index.core.evaluation", exports, monkeypatch)["dataset"]
    queries = golden(exports)
    sections = (exports / "out" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    assert dataset.queries == {q["qid"]: q["query"] for q in queries}
    assert len(dataset.corpus) == len(sections)
    assert dataset.relevant_docs == {q["qid"]: list(q["relevant"]) for q in queries}
