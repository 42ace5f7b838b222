"""``qrelsmith export KIND`` for the tools users run: each output is read back as its tool reads
it — with the real library where it installs on CPU from PyPI (ir_datasets; pyarrow for
AutoRAG's Parquet), else against the library's documented record (Ragas, DeepEval, LlamaIndex:
see docs/exports.md), and Pyserini indexes the collection when a JDK 21
and pyserini are there."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from qrelsmith.cli import main
from qrelsmith.export import EXPORT_KINDS

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "site"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("kinds") / "out"
    assert main(["build", str(SAMPLE), "--out", str(folder), "-q", "-j", "1"]) == 0
    return folder


def exported(out: Path, kind: str) -> Path:
    target = out.parent / f"out-{kind}"
    if not target.exists():
        assert main(["export", kind, str(out), "--out", str(target)]) == 0
    return target


def golden(out: Path) -> list[dict[str, Any]]:
    lines = (out / "golden.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def corpus(out: Path) -> dict[str, dict[str, Any]]:
    lines = (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    return {r["id"]: r for r in map(json.loads, lines)}


def contents(record: dict[str, Any]) -> str:
    return f"{record['heading']}\n{record['text']}"


def test_every_kind_is_a_subcommand_with_help(capsys: pytest.CaptureFixture[str]) -> None:
    for kind in EXPORT_KINDS:
        with pytest.raises(SystemExit) as exit_code:
            main(["export", kind, "--help"])
        assert exit_code.value.code == 0
        assert f"qrelsmith export {kind}" in capsys.readouterr().out


# ---------------------------------------------------------------------------------- pyserini


def test_pyserini_collection_has_id_and_contents_with_the_heading(out: Path) -> None:
    folder = exported(out, "pyserini")
    lines = (folder / "corpus" / "docs.jsonl").read_text(encoding="utf-8").splitlines()
    sections = corpus(out)
    documents = [json.loads(line) for line in lines]
    assert [d["id"] for d in documents] == list(sections)
    assert all(set(d) == {"id", "contents"} for d in documents)
    assert all(d["contents"] == contents(sections[d["id"]]) for d in documents)
    # topics and qrels are the build's own, which trec_eval and Anserini's TSV reader take
    assert (folder / "topics.tsv").read_bytes() == (out / "queries.tsv").read_bytes()
    assert (folder / "qrels.trec").read_bytes() == (out / "qrels.trec").read_bytes()


def _java_major() -> int:
    java = shutil.which("java")
    if not java:
        return 0
    shown = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    found = re.search(r'version "(\d+)', shown)
    return int(found.group(1)) if found else 0


@pytest.mark.skipif(
    importlib.util.find_spec("pyserini") is None or _java_major() < 21,
    reason="Pyserini 2.x needs pyserini and a JDK 21 (docs/exports.md)",
)
def test_pyserini_indexes_every_document(out: Path, tmp_path: Path) -> None:
    folder = exported(out, "pyserini")
    index = tmp_path / "index"
    command = [
        "python", "-m", "pyserini.index.lucene", "--collection", "JsonCollection",
        "--input", str(folder / "corpus"), "--index", str(index),
        "--generator", "DefaultLuceneDocumentGenerator", "--threads", "1", "--storeRaw",
    ]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True)
    from pyserini.search.lucene import LuceneSearcher

    assert LuceneSearcher(str(index)).num_docs == len(corpus(out))


# ------------------------------------------------------------------- the documented records


class RagasSample(BaseModel):
    """Ragas 0.4's SingleTurnSample, as its documentation lists the fields."""

    model_config = ConfigDict(extra="forbid")
    user_input: str | None = None
    retrieved_contexts: list[str] | None = None
    reference_contexts: list[str] | None = None
    retrieved_context_ids: list[str] | None = None
    reference_context_ids: list[str] | None = None
    response: str | None = None
    multi_responses: list[str] | None = None
    reference: str | None = None
    rubrics: dict[str, str] | None = None


class DeepEvalGolden(BaseModel):
    """DeepEval's Golden, as its documentation lists the fields."""

    model_config = ConfigDict(extra="forbid")
    input: str
    actual_output: str | None = None
    expected_output: str | None = None
    context: list[str] | None = None
    retrieval_context: list[str] | None = None
    additional_metadata: dict[str, Any] | None = None
    comments: str | None = None
    source_file: str | None = None


class EmbeddingQAFinetuneDataset(BaseModel):
    """LlamaIndex's EmbeddingQAFinetuneDataset (``from_json`` is ``cls(**json.load(f))``)."""

    model_config = ConfigDict(extra="forbid")
    queries: dict[str, str]
    corpus: dict[str, str]
    relevant_docs: dict[str, list[str]]
    mode: str = "text"


def test_ragas_samples_carry_the_answer_and_the_named_sections(out: Path) -> None:
    lines = (exported(out, "ragas") / "ragas.jsonl").read_text(encoding="utf-8").splitlines()
    samples = [RagasSample.model_validate_json(line) for line in lines]
    sections = corpus(out)
    for sample, query in zip(samples, golden(out), strict=True):
        assert (sample.user_input, sample.reference) == (query["query"], query["answer"])
        assert sample.reference_context_ids == list(query["relevant"])  # grade 2 only
        assert sample.reference_contexts == [contents(sections[i]) for i in query["relevant"]]


def test_deepeval_goldens_read_by_their_keys(out: Path) -> None:
    data = json.loads((exported(out, "deepeval") / "goldens.json").read_text(encoding="utf-8"))
    goldens = [DeepEvalGolden.model_validate(item) for item in data]
    sections = corpus(out)
    for item, query in zip(goldens, golden(out), strict=True):
        assert (item.input, item.expected_output) == (query["query"], query["answer"])
        assert item.context == [contents(sections[i]) for i in query["relevant"]]
        assert item.source_file == query["origin"]["path"]
        assert item.additional_metadata == {
            "qid": query["qid"],
            "context_ids": list(query["relevant"]),
        }


def test_llamaindex_dataset_keeps_the_grade_two_sections(out: Path) -> None:
    text = (exported(out, "llamaindex") / "llamaindex.json").read_text(encoding="utf-8")
    dataset = EmbeddingQAFinetuneDataset(**json.loads(text))
    named = {}
    for line in (out / "qrels.trec").read_text(encoding="utf-8").splitlines():
        qid, _, doc, grade = line.split(" ")
        if grade == "2":
            named.setdefault(qid, []).append(doc)
    named = {qid: sorted(docs) for qid, docs in named.items()}
    assert {q: sorted(docs) for q, docs in dataset.relevant_docs.items()} == named
    assert list(dataset.queries) == [q["qid"] for q in golden(out)]
    assert dataset.corpus == {i: contents(r) for i, r in corpus(out).items()}


def test_autorag_tables_have_its_columns_and_resolve(out: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    folder = exported(out, "autorag")
    qa = pq.read_table(folder / "qa.parquet").to_pylist()
    docs = pq.read_table(folder / "corpus.parquet").to_pylist()
    assert list(qa[0]) == ["qid", "query", "retrieval_gt", "generation_gt"]
    assert list(docs[0]) == ["doc_id", "contents", "metadata"]
    ids = [d["doc_id"] for d in docs]
    assert len(set(ids)) == len(ids) == len(corpus(out))
    queries = golden(out)
    assert [row["qid"] for row in qa] == [q["qid"] for q in queries]
    for row, query in zip(qa, queries, strict=True):
        # every named section must be retrieved: one inner list each ("A／B" -> [[a], [b]])
        assert row["retrieval_gt"] == [[i] for i in query["relevant"]]
        assert row["generation_gt"] == [query["answer"]]
        assert all(i in set(ids) for group in row["retrieval_gt"] for i in group)
    assert docs[0]["metadata"]["path"] == corpus(out)[ids[0]]["path"]


# -------------------------------------------------------------------- ir_datasets, for real


def test_ir_datasets_loads_docs_queries_and_graded_qrels(out: Path) -> None:
    pytest.importorskip("ir_datasets")
    folder = exported(out, "ir_datasets")
    spec = importlib.util.spec_from_file_location("qrelsmith_dataset", folder / "dataset.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    dataset = module.load()
    sections = corpus(out)
    docs = {doc.doc_id: doc.text for doc in dataset.docs_iter()}
    assert docs == {i: " ".join(contents(r).split("\n")) for i, r in sections.items()}
    assert [q.query_id for q in dataset.queries_iter()] == [q["qid"] for q in golden(out)]
    qrels = [(q.query_id, q.doc_id, q.relevance) for q in dataset.qrels_iter()]
    lines = (out / "qrels.trec").read_text(encoding="utf-8").splitlines()
    assert qrels == [(a, c, int(d)) for a, _, c, d in (line.split(" ") for line in lines)]
    assert {grade for *_, grade in qrels} == {1, 2}  # both grades survive


# ---------------------------------------------------------------------------- the swap


def test_an_export_is_swapped_in_whole_and_keeps_foreign_entries(out: Path, tmp_path: Path) -> None:
    target = tmp_path / "ds"
    target.mkdir()
    (target / ".git").mkdir()
    (target / "llamaindex.json").write_text("stale\n", encoding="utf-8")
    (target / "notes.txt").write_text("mine\n", encoding="utf-8")
    assert main(["export", "llamaindex", str(out), "--out", str(target)]) == 0
    assert sorted(p.name for p in target.iterdir()) == [".git", "llamaindex.json", "notes.txt"]
    assert (target / "llamaindex.json").read_text(encoding="utf-8").startswith("{")


#: The options each kind needs besides DIR and --out.
KIND_ARGS = {"hf": ["--license", "mit", "--language", "en"]}


@pytest.mark.parametrize("kind", sorted(EXPORT_KINDS))
def test_every_kind_is_written_aside_and_swapped_in_whole(
    out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    # Issue 27: of these tests only hf's failed when an export was written in place instead
    # of staged. A second export that fails before its swap must leave every file of the
    # first as it was, the same file (inode) with the same bytes, and nothing beside it.
    from qrelsmith.errors import DataError
    from qrelsmith.store.files import StagedFolder

    target = tmp_path / "ds"
    command = ["export", kind, str(out), "--out", str(target), *KIND_ARGS.get(kind, [])]
    assert main(command) == 0

    def files() -> dict[str, tuple[int, bytes]]:
        found = sorted(p for p in target.rglob("*") if p.is_file())
        return {str(p.relative_to(target)): (p.stat().st_ino, p.read_bytes()) for p in found}

    before = files()
    assert before

    def fails(self: StagedFolder, keep: object = None) -> None:
        raise DataError("the swap failed")

    monkeypatch.setattr(StagedFolder, "commit", fails)
    assert main([*command, "--ascii-ids"]) == 1
    assert files() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds"]
