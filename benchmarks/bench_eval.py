"""Time `qrelsmith eval` on a seed-sized set: 2,000 queries x 100 results, two runs.

Prints, side by side: ir_measures alone (the peer library's floor for the measures), the
seed's bare numpy bootstrap + permutation (the resampling floor), and our full evaluation
(8 measures x 2 runs, query and article bootstraps with 2,000 resamples, paired comparisons
with 10,000 permutation rounds), then what `--sizes 20,50,100,200,all` adds (1,000 subsets
per size, each with its own bootstrap and permutation test). The seed measured 6.9 s for its
bootstrap + permutation set.

    /work/venv/bin/python benchmarks/bench_eval.py [--queries 2000] [--depth 100]

With ``--six DIR RUN ...`` it times instead the study's setting of issue 25: six runs of one
build through the CLI (a fresh process each, imports included; the default measures, both
intervals, the paired tests), each run first, then ``--pairs all`` (15 pairs), the median of
``--repeat`` calls (CPU counts the worker processes too), and the same evaluation in one
process (``evaluate_runs``, runs read beforehand):

    PYTHONPATH=src /work/venv/bin/python benchmarks/make_scale_set.py --out /tmp/six/set \\
        --sections 3198 --queries 1856
    for a in "bm25_2 --ngrams 2-2" "bm25_23 --ngrams 2-3" "bm25_2_b03 --ngrams 2-2 --b 0.3" \\
        "tfidf_23 --method tfidf --ngrams 2-3" "tfidf_2 --method tfidf --ngrams 2-2" \\
        "bm25_3 --ngrams 3-3"; do set -- $a; name=$1; shift
        PYTHONPATH=src python -m qrelsmith baseline /tmp/six/set --out /tmp/six/$name.trec "$@"
    done
    PYTHONPATH=src python benchmarks/bench_eval.py --six /tmp/six/set /tmp/six/*.trec
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import tempfile
import time
from pathlib import Path
from typing import Literal

import ir_measures
import numpy as np

from qrelsmith.cli import main as cli_main
from qrelsmith.config import EvalOptions, EvalRequest
from qrelsmith.evaluate.evaluation import EvalInput, evaluate_runs
from qrelsmith.evaluate.measures import parse_measures, per_query
from qrelsmith.evaluate.runs import Run, write_run
from qrelsmith.patterns import EVAL_MEASURES
from qrelsmith.store.buildfolder import Qrels

QUERIES_PER_ARTICLE = 8  # the seed's median
SECTIONS_PER_ARTICLE = 13  # 3,193 sections / 247 articles


def synthetic(queries: int, depth: int, seed: int) -> tuple[Qrels, Run, Run, dict[str, str]]:
    """Build-shaped qrels (one grade-2 section, the article's others grade 1) and two runs."""
    rng = np.random.default_rng(seed)
    articles = max(1, queries // QUERIES_PER_ARTICLE)
    corpus = [f"a{a}#{s}" for a in range(articles) for s in range(SECTIONS_PER_ARTICLE)]
    qrels: Qrels = {}
    article_of: dict[str, str] = {}
    for q in range(queries):
        article = q % articles
        qid = f"a{article}#q{q // articles}"
        target = int(rng.integers(SECTIONS_PER_ARTICLE))
        qrels[qid] = {
            f"a{article}#{s}": 2 if s == target else 1 for s in range(SECTIONS_PER_ARTICLE)
        }
        article_of[qid] = f"a{article}"

    def run(skill: float) -> Run:
        out: Run = {}
        for qid, judged in qrels.items():
            scores = {d: float(rng.random()) for d in rng.choice(corpus, depth, replace=False)}
            for docid, grade in judged.items():
                if rng.random() < skill * grade / 2:
                    scores[docid] = 1.0 + grade * float(rng.random())
            ranked = sorted(scores.items(), key=lambda item: -item[1])[:depth]
            out[qid] = ranked
        return out

    return qrels, run(0.6), run(0.65), article_of


def six(folder: str, runs: list[str], repeat: int) -> None:
    """The CLI on a build and its runs: CPU and wall seconds, the median of ``repeat`` calls."""
    import statistics
    import subprocess
    import sys

    from qrelsmith.evaluate.runs import read_run
    from qrelsmith.store.buildfolder import load_build
    from qrelsmith.store.layout import QRELS

    for label, extra in (("each run vs the first", []), ("--pairs all", ["--pairs", "all"])):
        walls, cpus = [], []
        for _ in range(repeat):
            before = os.times()
            start = time.perf_counter()
            command = [sys.executable, "-m", "qrelsmith", "eval", folder, *runs, *extra]
            subprocess.run(
                command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            walls.append(time.perf_counter() - start)
            after = os.times()
            cpus.append(
                after.children_user
                - before.children_user
                + after.children_system
                - before.children_system
            )
        print(
            f"CLI, {len(runs)} runs, {label:<22} wall {statistics.median(walls):6.2f} s  "
            f"CPU {statistics.median(cpus):6.2f} s  (median of {repeat})"
        )
    build = load_build(folder, need=(QRELS,))
    loaded = {Path(path).stem: read_run(path) for path in runs}
    start = time.perf_counter()
    evaluate_runs(EvalInput(build.qrels, loaded, build.article_ids()), EvalRequest())
    print(f"one process, runs read, each run vs the first    {time.perf_counter() - start:6.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--six", nargs="+", metavar="DIR RUN", help="a build folder, its runs")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.six:
        six(args.six[0], args.six[1:], args.repeat)
        return
    qrels, run_a, run_b, articles = synthetic(args.queries, args.depth, seed=0)
    options = EvalOptions()
    specs = parse_measures(EVAL_MEASURES, rel=2, gains="linear", grades=[0, 1, 2])
    print(
        f"{len(qrels)} queries x {args.depth} results, 2 runs, {len(specs)} measures, "
        f"{options.bootstrap_samples} resamples, {options.permutation_rounds} rounds"
    )

    start = time.perf_counter()
    measures = [s.measure for s in specs if s.measure is not None]
    scored = {qid: dict(docs) for qid, docs in run_a.items()}
    list(ir_measures.iter_calc(measures, qrels, scored))
    floor_measures = time.perf_counter() - start

    start = time.perf_counter()
    per_query(qrels, run_a, specs)
    ours_measures = time.perf_counter() - start

    # the seed's code: one bootstrap and one paired test (B=2000, R=10000) on a per-query column
    values = np.random.default_rng(0).random(len(qrels))
    other = np.random.default_rng(1).random(len(qrels))
    start = time.perf_counter()
    rng = np.random.default_rng(0)
    n = len(values)
    values[rng.integers(0, n, (2000, n))].mean(axis=1)
    d = other - values
    d[rng.integers(0, n, (2000, n))].mean(axis=1)
    signs = rng.choice([-1, 1], (10000, n))
    (signs * d).mean(axis=1)
    floor_resampling = time.perf_counter() - start

    start = time.perf_counter()
    runs = {"a": run_a, "b": run_b}
    report = evaluate_runs(EvalInput(qrels, runs, articles), EvalRequest(options=options))
    total = time.perf_counter() - start

    # the stability study: 5 sizes x 1,000 subsets x 2 runs, every default measure
    start = time.perf_counter()
    sizes: list[int | Literal["all"]] = [20, 50, 100, 200, "all"]
    studied = evaluate_runs(
        EvalInput(qrels, runs, articles), EvalRequest(options=options, sizes=sizes)
    )
    stability = time.perf_counter() - start - total
    start = time.perf_counter()
    one_each = {qid: qid for qid in qrels}  # one query per article: subsets drawn by query
    by_query = evaluate_runs(
        EvalInput(qrels, runs, one_each), EvalRequest(options=options, sizes=sizes)
    )
    stability_by_query = time.perf_counter() - start - total

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        with open(root / "qrels.trec", "w", encoding="utf-8") as handle:
            for qid, judged in qrels.items():
                handle.writelines(f"{qid} 0 {d} {g}\n" for d, g in judged.items())
        for name, run in (("a", run_a), ("b", run_b)):
            with open(root / f"{name}.trec", "w", encoding="utf-8") as handle:
                write_run(handle, run, name)
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            code = cli_main(["eval", folder, str(root / "a.trec"), str(root / "b.trec")])
        cli_total = time.perf_counter() - start
        assert code == 0

    print(f"{'ir_measures alone, 7 measures, 1 run':<58} {floor_measures:6.2f} s")
    print(f"{'our per-query values (same + CP@5), 1 run':<58} {ours_measures:6.2f} s")
    print(
        f"{'seed numpy floor: 1 bootstrap + 1 paired test, 1 measure':<58} "
        f"{floor_resampling:6.2f} s"
    )
    print(f"{'qrelsmith eval: 2 runs x 8 measures, 2 CIs each, 8 paired':<58} {total:6.2f} s")
    print(f"{'the same through the CLI, reading both run files':<58} {cli_total:6.2f} s")
    print(
        f"{'--sizes 20,50,100,200,all: 1,000 subsets each, its share':<58} {stability:6.2f} s"
        f"  ({len(studied.stability)} rows, drawn by "
        f"{studied.settings['stability']['draw']})"  # type: ignore[index]
    )
    print(
        f"{'the same, one query per article (drawn by query)':<58} {stability_by_query:6.2f} s"
        f"  ({len(by_query.stability)} rows)"
    )
    print(
        f"(seed, for its set of bootstraps and permutation tests: 6.9 s; "
        f"{len(report.summaries)} summaries, {len(report.comparisons)} comparisons)"
    )


if __name__ == "__main__":
    main()
