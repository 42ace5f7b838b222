"""Six runs through `qrelsmith eval` print, to the byte, what they printed before eval was made
faster (issue 25): tests/golden/eval_six/ was written by qrelsmith at 64c0243, before the fast
run reader, the direct ir_measures providers and the scoring in worker processes. The runs are
made here from a seeded generator (``random.Random.random`` keeps its sequence across Python
versions) and have what the fast paths must not get wrong: scores tied (rounded to 2
decimals), lines out of order, a repeated line, a tab-separated file, a run without a trailing
line break, queries left out."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from qrelsmith.cli import evaluate as eval_cli
from qrelsmith.cli import main
from qrelsmith.run import parallel as parallel_module

GOLDEN = Path(__file__).parent / "golden" / "eval_six"
ARTICLES, SECTIONS, QUERIES_PER_ARTICLE, DEPTH = 12, 8, 4, 20

#: (run name, how good it is, how it is written)
RUNS = (
    ("bm25_2", 0.7, "ordered"),
    ("bm25_23", 0.6, "shuffled"),
    ("bm25_2_b03", 0.65, "repeated"),
    ("tfidf_23", 0.5, "tabs"),
    ("tfidf_2", 0.55, "no_final_break"),
    ("bm25_3", 0.3, "missing"),
)

#: The eval calls of the golden files: file stem -> flags after the runs.
CALLS = {
    "default": [],
    "reading": ["--pairs", "all", "--ranks", "--views", "strict,graded,exp", "--micro", "--curve"],
    "json": ["--unjudged", "condensed", "--measures", "RR", "nDCG@5", "AP", "P@5", "R@3"]
    + ["--rel", "1", "--gains", "exp", "--json", "--sizes", "5,20,all", "--need", "0.05"],
}


def write_six(folder: Path) -> list[str]:
    """A build folder ``folder/set`` (qrels.trec: per query its section at grade 2, the
    article's others at 1, a section of the next article at 0) and six runs in
    ``folder/runs``; returns the runs' paths relative to ``folder``."""
    rng = random.Random(25)
    (folder / "set").mkdir()
    (folder / "runs").mkdir()
    docs = [f"a{a}.html#{s}" for a in range(ARTICLES) for s in range(SECTIONS)]
    qrels: dict[str, dict[str, int]] = {}
    for a in range(ARTICLES):
        for q in range(QUERIES_PER_ARTICLE):
            target = int(rng.random() * SECTIONS)
            judged = {f"a{a}.html#{s}": 2 if s == target else 1 for s in range(SECTIONS)}
            judged[f"a{(a + 1) % ARTICLES}.html#{int(rng.random() * SECTIONS)}"] = 0
            qrels[f"a{a}.html#q{q}"] = judged
    (folder / "set" / "qrels.trec").write_text(
        "".join(f"{qid} 0 {d} {g}\n" for qid, judged in qrels.items() for d, g in judged.items()),
        encoding="utf-8",
    )
    paths = []
    for name, skill, form in RUNS:
        lines = []
        for number, (qid, judged) in enumerate(qrels.items()):
            if form == "missing" and number % 7 == 3:
                continue
            scores = {}
            for doc in docs:
                boost = skill * judged.get(doc, 0) if rng.random() < skill else 0.0
                scores[doc] = round(rng.random() + boost, 2)
            ranked = sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)
            lines += [
                f"{qid} Q0 {doc} {rank} {score:.6f} {name}"
                for rank, (doc, score) in enumerate(ranked[:DEPTH], 1)
            ]
        if form == "shuffled":
            rng.shuffle(lines)
        if form == "repeated":
            lines.insert(5, lines[2])
        if form == "tabs":
            lines = [line.replace(" ", "\t") for line in lines]
        text = "\n".join(lines) + ("" if form == "no_final_break" else "\n")
        path = f"runs/{name}.trec"
        (folder / path).write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def six(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    folder = tmp_path_factory.mktemp("six")
    return folder, write_six(folder)


@pytest.mark.parametrize("parallel", [False, True], ids=["one process", "worker processes"])
@pytest.mark.parametrize("call", list(CALLS))
def test_six_runs_print_what_they_printed_before(
    six: tuple[Path, list[str]],
    call: str,
    parallel: bool,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder, paths = six
    monkeypatch.chdir(folder)
    # the runs are small: the worker processes are asked for by the threshold, or refused
    monkeypatch.setattr(eval_cli, "PARALLEL_RUN_BYTES", 0 if parallel else 1 << 40)
    monkeypatch.setattr(parallel_module, "default_workers", lambda: 2)
    parts: list[int] = []
    in_parts = parallel_module.in_parts

    def counted(produce: Any) -> Any:
        parts.append(len(produce))
        return in_parts(produce)

    monkeypatch.setattr(parallel_module, "in_parts", counted)
    assert main(["eval", "set", *paths, *CALLS[call]]) == 0
    assert parts == [2 if parallel else 1]
    captured = capsys.readouterr()
    assert captured.out == (GOLDEN / f"{call}.out").read_text(encoding="utf-8")
    assert captured.err == (GOLDEN / f"{call}.err").read_text(encoding="utf-8")
