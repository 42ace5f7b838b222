"""The page cap's cost: `qrelsmith build` of a large .warc.gz by this tree and by an older one
(the main before the cap, 16f9b76), taking turns in one sitting.

The cap (``[build] max_page_bytes``, issue 27) reads a WARC's gzip members and its records'
bodies through our own bounded readers instead of warcio's: this measures what that costs on a
real crawl. Each round builds the crawl once with each tree (in that order, then the other way
round in the next round, so neither always runs on a warmer cache), each in a child process
whose CPU time (user + system, workers included), wall time and peak RSS are taken; the ratio
new / old is taken within each round and its median reported, as the speed of a shared machine
drifts by 20-40% within minutes.

    bash ../shared/bench/make-doc-corpus.sh /tmp/doc-corpus       # ~1,900 real pages, 76 MB
    git archive 16f9b76 src | tar -x -C /tmp/old                  # the main before the cap
    python benchmarks/bench_page_cap.py /tmp/doc-corpus --old /tmp/old/src --copies 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_build import html_files, make_warc, tree_digest

HERE = Path(__file__).resolve().parent
#: Runs the command after it, then prints its exit code, CPU s (the child and its workers),
#: wall s and peak RSS in KiB (of the largest single process).
MEASURE = """import resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.call(sys.argv[1:])
wall = time.perf_counter() - start
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, used.ru_utime + used.ru_stime, wall, used.ru_maxrss)"""


def timed_build(source: Path, crawl: Path, out: Path, workers: int) -> dict[str, float]:
    """One build of ``crawl`` by the qrelsmith of ``source`` (a src folder), in a child."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    command = [sys.executable, "-m", "qrelsmith", "build", str(crawl), "--out", str(out), "-q"]
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *command, "--workers", str(workers)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    code, cpu, wall, rss = done.stdout.split()
    if int(code) not in (0, 3):  # 3: built, some pages skipped
        raise SystemExit(f"build by {source} exited {code}: {done.stderr}")
    return {"cpu": float(cpu), "wall": float(wall), "rss_mb": int(rss) / 1024}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="folder of HTML pages (make-doc-corpus.sh)")
    parser.add_argument("--old", type=Path, required=True, help="the older tree's src folder")
    parser.add_argument("--new", type=Path, default=HERE.parent / "src", help="this tree's src")
    parser.add_argument("--copies", type=int, default=3, help="the corpus this many times over")
    parser.add_argument("--rounds", type=int, default=3, help="builds by each tree")
    parser.add_argument("--workers", type=int, default=1, help="build worker processes")
    args = parser.parse_args()

    files = html_files(args.corpus, None)
    with tempfile.TemporaryDirectory(prefix="bench-cap-") as tmp:
        work = Path(tmp)
        crawl = work / "crawl.warc.gz"
        pages = len(files) * args.copies
        size = make_warc(files, args.corpus, pages, crawl, compress=True)
        print(f"{pages:,} pages, {size / 1e6:.1f} MB .warc.gz from {args.corpus}", flush=True)
        trees = {"old": args.old, "new": args.new}
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
        digests: dict[str, str] = {}
        for round_number in range(args.rounds):
            order = list(trees) if round_number % 2 == 0 else list(reversed(trees))
            for name in order:
                out = work / f"out-{name}"
                runs[name].append(timed_build(trees[name], crawl, out, args.workers))
                digests[name] = tree_digest(out / "corpus.jsonl")
                print(f"round {round_number + 1} {name}: {json.dumps(runs[name][-1])}", flush=True)
        print(f"\n{pages:,} pages, --workers {args.workers}, {args.rounds} rounds (best of each)")
        print("| tree | CPU s | wall s | pages/s (wall) | peak RSS MB |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for name, measured in runs.items():
            best = min(measured, key=lambda run: run["wall"])
            cpu = min(run["cpu"] for run in measured)
            print(
                f"| {name} ({trees[name]}) | {cpu:.2f} | {best['wall']:.2f} | "
                f"{pages / best['wall']:.0f} | {max(r['rss_mb'] for r in measured):.0f} |"
            )
        for what in ("cpu", "wall"):
            ratios = [n[what] / o[what] for n, o in zip(runs["new"], runs["old"], strict=True)]
            print(
                f"new / old {what}: median {statistics.median(ratios):.3f} "
                f"(rounds: {', '.join(f'{r:.3f}' for r in ratios)})"
            )
        same = digests["new"] == digests["old"]
        print(f"corpus.jsonl: {'the same bytes' if same else 'differs'} from both trees")
    return 0


if __name__ == "__main__":
    sys.exit(main())
