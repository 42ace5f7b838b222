"""The exports load unchanged in the tools users feed them to: ir_measures, pytrec_eval, BEIR."""

from __future__ import annotations

import json
import os
from pathlib import Path

import ir_measures
import pytest
import pytrec_eval

from qrelsmith.cli import main

SITE = Path(__file__).resolve().parents[1] / "samples" / "site"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("export")
    main(["build", str(SITE), "--out", str(folder), "-q"])
    return folder


def _golden(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "golden.jsonl").read_text().splitlines()]


def test_ir_measures_reads_qrels_unchanged(out: Path) -> None:
    qrels = list(ir_measures.read_trec_qrels(str(out / "qrels.trec")))
    golden = _golden(out)
    assert len(qrels) == sum(len(q["relevant"]) + q["same_article"] for q in golden)
    named = {(q.query_id, q.doc_id) for q in qrels if q.relevance == 2}
    assert named == {(g["qid"], doc) for g in golden for doc in g["relevant"]}
    # A perfect run (the named section first) scores 1 on the strict measures.
    run = [
        ir_measures.ScoredDoc(g["qid"], doc, 10.0 - rank)
        for g in golden
        for rank, doc in enumerate(g["relevant"])
    ]
    scores = ir_measures.calc_aggregate(
        [ir_measures.RR(rel=2) @ 10, ir_measures.Success(rel=2) @ 1], qrels, run
    )
    assert all(value == 1.0 for value in scores.values())


def test_pytrec_eval_reads_qrels(out: Path) -> None:
    qrels: dict[str, dict[str, int]] = {}
    for line in (out / "qrels.trec").read_text().splitlines():
        qid, _, doc, grade = line.split()
        qrels.setdefault(qid, {})[doc] = int(grade)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10"})
    run = {qid: {doc: float(grade) for doc, grade in docs.items()} for qid, docs in qrels.items()}
    assert all(v["ndcg_cut_10"] == pytest.approx(1.0) for v in evaluator.evaluate(run).values())


def test_queries_tsv_is_one_topic_a_line(out: Path) -> None:
    lines = (out / "queries.tsv").read_text().splitlines()
    assert [line.split("\t")[0] for line in lines] == [g["qid"] for g in _golden(out)]
    assert all(line.count("\t") == 1 for line in lines)


def test_beir_generic_data_loader_loads_it(out: Path) -> None:
    if os.environ.get("CI"):
        from beir.datasets.data_loader import GenericDataLoader  # CI installs it: must work
    else:
        GenericDataLoader = pytest.importorskip("beir.datasets.data_loader").GenericDataLoader
    corpus, queries, qrels = GenericDataLoader(data_folder=str(out / "beir")).load(split="test")
    golden = _golden(out)
    assert len(queries) == len(golden) and len(qrels) == len(golden)
    first = golden[0]
    assert {d for d, g in qrels[first["qid"]].items() if g == 2} == set(first["relevant"])
    assert len(corpus) == len((out / "corpus.jsonl").read_text().splitlines())


@pytest.mark.parametrize(
    ("title", "heading", "text", "url"),
    [
        ("Plain", "Setup", "Install it.", None),
        (
            'A ,"heading":"x" title',
            'He said ",\\"heading\\":"',
            'text ,"heading":"y", "text":"z"}',
            'https://e.x/a?b="c"',
        ),
        ("日本語", "設定　（全角）", "改行\n\tタブ\\ と \u2028 と \x7f と 🙂", "https://例え.jp/"),
        ("", "", "", None),
    ],
)
def test_a_beir_document_cut_from_its_corpus_line_is_the_models_own_json(
    title: str, heading: str, text: str, url: str | None
) -> None:
    from qrelsmith.models import BeirDocument, CorpusRecord
    from qrelsmith.store.files import json_line
    from qrelsmith.store.formats.beir import document_line

    record = CorpusRecord(
        id='a",\\"article_id\\":.html#0', article_id="a.html", path="a.html", url=url,
        title=title, heading=heading, text=text,
    )  # fmt: skip
    expected = json_line(BeirDocument(_id=record.id, title=heading, text=text))
    assert document_line(json_line(record)) == expected


def test_sub_headings_stay_out_of_the_beir_document_and_of_a_line_without_them() -> None:
    from qrelsmith.models import CorpusRecord, SubHeading
    from qrelsmith.store.files import json_line
    from qrelsmith.store.formats.beir import document_line

    plain = CorpusRecord(
        id="a.html#0", article_id="a.html", path="a.html", title="T", heading="H",
        text='Intro Sub ,"heading":"y" body',
    )  # fmt: skip
    sub = SubHeading(at=6, level=3, text='Sub ,"heading":"y"')
    placed = plain.model_copy(update={"subheadings": [sub]})
    assert b"subheadings" not in json_line(plain)
    assert json_line(placed).index(b'"subheadings":') < json_line(placed).index(b'"heading":')
    assert document_line(json_line(placed)) == document_line(json_line(plain))
    assert CorpusRecord.model_validate_json(json_line(placed)) == placed
