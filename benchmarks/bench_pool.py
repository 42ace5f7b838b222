"""Pool size at depth 10 for two baselines, and the time to draw a pool and apply its verdicts,
on a generated set (``make_scale_set.py``: Japanese-like text, 13 sections an article).

The generated set has no golden.jsonl (its queries have no answer or reference cell); this
script writes one from queries.tsv and qrels.trec (the grade-2 section as the label) so that
``audit pool`` and ``audit apply`` can read it. Runs are ``qrelsmith baseline`` BM25 and TF-IDF
at k 10. Times are wall-clock medians of ``--repeat`` runs of the whole command in this
process (import costs excluded), the verdict sheet every drawn pair judged (a seeded tenth
relevant).

    PYTHONPATH=src /work/venv/bin/python benchmarks/bench_pool.py [--sections 13000]
        [--queries 3000] [--size 60] [--repeat 3]
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from qrelsmith.audit.pool import pool_candidates
from qrelsmith.cli import main as cli_main
from qrelsmith.evaluate.runs import read_run
from qrelsmith.models import GoldenQuery, Origin
from qrelsmith.store.buildfolder import load_build, read_qrels, read_topics
from qrelsmith.store.files import write_jsonl

HERE = Path(__file__).parent


def write_golden(folder: Path) -> None:
    """golden.jsonl for a generated set: each query labelled with its grade-2 section."""
    qrels = read_qrels(folder / "qrels.trec")
    topics = read_topics(folder / "queries.tsv")
    queries = []
    for qid, text in topics.items():
        grades = qrels[qid]
        named = [doc for doc, grade in grades.items() if grade == 2]
        article = qid.split("#", 1)[0]
        queries.append(
            GoldenQuery(
                qid=qid,
                query=text,
                answer="",
                relevant={doc: 2 for doc in named},
                same_article=len(grades) - len(named),
                table="generated",
                reference=named[0],
                match="exact",
                confidence=1.0,
                origin=Origin(path=article, row=int(qid.rsplit("#q", 1)[1])),
            )
        )
    write_jsonl(folder / "golden.jsonl", queries)


def timed(argv: list[str], repeat: int) -> float:
    """Median wall time of ``qrelsmith argv`` (its output swallowed)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = cli_main(argv)
        times.append(time.perf_counter() - start)
        if code != 0:
            raise SystemExit(f"qrelsmith {' '.join(argv)} exited {code}")
    return statistics.median(times)


def judge(sheet: Path, out: Path, seed: int = 0) -> None:
    """The drawn sheet with every pair judged: a seeded tenth relevant, the rest not."""
    chance = random.Random(seed)
    with open(sheet, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with open(out, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["qid", "docid", "verdict"])
        for row in rows:
            verdict = "relevant" if chance.random() < 0.1 else "not"
            writer.writerow([row["qid"], row["docid"], verdict])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=13_000)
    parser.add_argument("--queries", type=int, default=3_000)
    parser.add_argument("--size", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "set"
        subprocess.run(
            [sys.executable, str(HERE / "make_scale_set.py"), "--out", str(folder),
             "--sections", str(args.sections), "--queries", str(args.queries)],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        write_golden(folder)
        runs = {}
        for method in ("bm25", "tfidf"):
            path = Path(scratch) / f"{method}.trec"
            seconds = timed(
                ["baseline", str(folder), "--method", method, "--k", "10", "--out", str(path)], 1
            )
            runs[method] = path
            print(f"baseline {method:<5} k 10: {seconds:6.2f} s")
        build = load_build(folder)
        loaded = {name: read_run(path) for name, path in runs.items()}
        for name, run in [*loaded.items(), ("both", None)]:
            chosen = list(loaded.values()) if run is None else [run]
            pool = pool_candidates(build.qrels, chosen, 10, build.doc_ids)
            per_query = len(pool) / len(build.qrels)
            print(
                f"pool at depth 10, {name:<5}: {len(pool):>7,} unjudged pairs "
                f"({per_query:.2f} a query of {len(build.qrels):,})"
            )
        draw = [
            "audit", "pool", str(folder), str(runs["bm25"]), str(runs["tfidf"]),
            "--size", str(args.size), "--force",
        ]  # fmt: skip
        seconds = timed(draw, args.repeat)
        print(f"audit pool (draw {args.size}, check's seeds included): {seconds:6.2f} s")
        verdicts = Path(scratch) / "verdicts.csv"
        judge(folder / "audit" / "pool.csv", verdicts)
        apply = ["audit", "apply", str(folder), str(verdicts), "--dry-run"]
        print(f"audit apply --dry-run ({args.size} verdicts): {timed(apply, args.repeat):6.2f} s")
        write = ["audit", "apply", str(folder), str(verdicts)]
        print(f"audit apply (writes versions/vN):  {timed(write, 1):6.2f} s")
        print(
            f"set: {args.sections:,} sections, {args.queries:,} queries "
            f"(make_scale_set.py seed 0); times are medians of {args.repeat}"
        )


if __name__ == "__main__":
    main()
