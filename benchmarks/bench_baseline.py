"""`qrelsmith baseline` at scale, against the scikit-learn index it replaced for BM25.

Makes (or reuses) a generated build folder (``make_scale_set.py``), runs the baseline's BM25
through the numpy index with each ``--workers`` count (``-j``; the run files must be the same
bytes) and, with ``--compare``, through scikit-learn's CountVectorizer path
(``RetrievalIndex(..., packed=False)``, what `baseline` did before), each in a fresh process
under ``/usr/bin/time -v``, and prints wall time, CPU time, peak RSS (of the largest process:
the forked searchers share the index's pages) and whether the two run files are
the same bytes (or differ only in which of equally scored documents fill the last places).

    PYTHONPATH=src /work/venv/bin/python benchmarks/bench_baseline.py --sections 10000 \\
        --queries 10000 --compare

Any method or setting is timed with ``--args`` (passed to `baseline`), e.g. LSA-256 and the
dense encoder (docs/retrievers.md; figures in benchmarks/README.md, "Retrievers"):

    ... bench_baseline.py --dir /tmp/scale/set --args "--method lsa --ngrams 2 --dims 256"
    ... bench_baseline.py --sections 10000 --queries 10000 --args "--method dense"
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: The scikit-learn path, as `baseline` ran before: same reading, same writing.
OLD = """
import sys
from qrelsmith.store.buildfolder import load_build
from qrelsmith.config import BaselineOptions
from qrelsmith.evaluate.baseline import RetrievalIndex
from qrelsmith.evaluate.runs import write_run
build = load_build(sys.argv[1], need=("corpus.jsonl",))
index = RetrievalIndex(
    [r.id for r in build.corpus], [f"{r.heading}\\n{r.text}" for r in build.corpus],
    BaselineOptions(), packed=False,
)
with open(sys.argv[2], "w", encoding="utf-8") as handle:
    write_run(handle, index.search(build.topics, 100), "bm25-c2-3")
"""


def timed(argv: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system, its processes) and peak RSS (MB, of the
    largest process) of a command, from /usr/bin/time -v."""
    done = subprocess.run(
        ["/usr/bin/time", "-v", *argv], capture_output=True, text=True, check=True
    )
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", done.stderr)
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    cpu = re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", done.stderr)
    assert wall and peak and cpu, done.stderr
    hours, minutes, seconds = wall.groups()
    elapsed = int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
    return elapsed, sum(map(float, cpu)), int(peak.group(1)) / 1024


def ties_only(first: Path, second: Path) -> bool:
    """The runs hold the same queries with the same score lists (they may differ in which of
    equally scored documents take the last places)."""

    def scores(path: Path) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                qid, _, _, _, score, _ = line.split()
                found.setdefault(qid, []).append(score)
        return found

    return scores(first) == scores(second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=100_000)
    parser.add_argument("--dir", help="a build folder to use instead of generating one")
    parser.add_argument("--compare", action="store_true", help="also run the scikit-learn path")
    parser.add_argument(
        "--workers", default="1,2", help="baseline -j values to time, e.g. 1,2 (default)"
    )
    parser.add_argument("--args", default="", help="more baseline options, e.g. '--method lsa'")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        folder = Path(args.dir) if args.dir else root / "set"
        if not args.dir:
            subprocess.run(
                [sys.executable, str(HERE / "make_scale_set.py"), "--out", str(folder),
                 "--sections", str(args.sections), "--queries", str(args.queries)],
                check=True,
            )  # fmt: skip
        runs: list[Path] = []
        for workers in args.workers.split(","):
            new = root / f"new-j{workers}.trec"
            command = [
                "baseline",
                str(folder),
                "--out",
                str(new),
                "-j",
                workers,
                *args.args.split(),
            ]
            wall, cpu, peak = timed([sys.executable, "-m", "qrelsmith", *command])
            name = f"qrelsmith baseline -j {workers}"
            print(f"{name:<40} {wall:8.1f} s wall {cpu:8.1f} s CPU {peak:8.0f} MB")
            runs.append(new)
        same = all(run.read_bytes() == runs[0].read_bytes() for run in runs)
        print(f"run files of -j {args.workers}: {'same bytes' if same else 'DIFFERENT'}")
        new = runs[0]
        if args.compare:
            old = root / "old.trec"
            wall, cpu, peak = timed([sys.executable, "-c", OLD, str(folder), str(old)])
            name = "scikit-learn CountVectorizer index"
            print(f"{name:<40} {wall:8.1f} s wall {cpu:8.1f} s CPU {peak:8.0f} MB")
            same = new.read_bytes() == old.read_bytes()
            verdict = "same bytes" if same else (
                "same scores; ties at the cut differ" if ties_only(new, old) else "DIFFERENT"
            )  # fmt: skip
            print(f"run files: {verdict}")


if __name__ == "__main__":
    main()
