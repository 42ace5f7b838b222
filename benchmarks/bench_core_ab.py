"""The per-page core of two qrelsmith source trees, A/B in turns on the same pages.

    python benchmarks/bench_core_ab.py /tmp/labels/doc-corpus OLD_SRC NEW_SRC [--rounds 8]
    python benchmarks/bench_core_ab.py CORPUS SRC SRC --sources-b table,faq   # a source's cost
    python benchmarks/bench_core_ab.py CORPUS OLD NEW --sources-a table,faq --sources-b table,faq

Each source tree gets one long-lived worker process (``PYTHONPATH=<src>``) that reads the
pages once and then, on each signal, runs ``render_page`` (everything a build's worker does
for a page: decode, parse, sections, tables, matching, output lines) over the next ``--turn``
pages and reports its CPU time. The two workers take turns on the same pages, the first
alternating from turn to turn, and only one runs at a time: on a shared VM whose speed
drifts by 20-40% within minutes, turns of a tenth of a second see the same machine, where
two separate runs (or two whole rounds) do not. A round is one pass over the pages; the last
column is its ratio (B / A), the summary gives their median and range.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

#: The worker: a line on stdin runs one round, a line on stdout reports its CPU seconds.
WORKER = r"""
import json, sys, time
from pathlib import Path
from qrelsmith.config import Config
from qrelsmith.ingest import Page
try:
    from qrelsmith.run.page_results import render_page
except ImportError:  # a tree from before the modules moved into packages by stage
    from qrelsmith.page_results import render_page

files = json.loads(sys.argv[1])
pages = [Page(str(n), name, Path(name).read_bytes()) for n, name in enumerate(files)]
sources = sys.argv[2].split(",") if len(sys.argv) > 2 else None
config = Config.model_validate({"build": {"sources": sources}}) if sources else Config()
for page in pages[:50]:  # warm caches (compiled stylesheets, selectors) before any round
    render_page(page, config)
print("ready", flush=True)
for line in sys.stdin:  # "first last": the pages of one turn
    first, last = map(int, line.split())
    started = time.process_time()
    for page in pages[first:last]:
        render_page(page, config)
    print(f"{time.process_time() - started:.6f}", flush=True)
"""


def html_files(corpus: Path, limit: int | None) -> list[str]:
    """The corpus's HTML files, in path order (the first ``limit``)."""
    files = sorted(
        str(path)
        for path in corpus.rglob("*")
        if path.suffix in (".html", ".htm") and path.is_file()
    )
    return files[:limit] if limit else files


def start(src: str, files: list[str], sources: str | None = None) -> subprocess.Popen[str]:
    """A worker over ``files`` with the package from ``src`` (reading the query ``sources``,
    comma-separated; the default when None), ready for its first round."""
    environment = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, json.dumps(files), *([sources] if sources else [])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=environment,
    )
    assert worker.stdout is not None
    if worker.stdout.readline().strip() != "ready":
        raise SystemExit(f"error: the worker for {src} did not start")
    return worker


def one_turn(worker: subprocess.Popen[str], first: int, last: int) -> float:
    """Run pages ``first:last`` in ``worker``; its CPU seconds."""
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(f"{first} {last}\n")
    worker.stdin.flush()
    return float(worker.stdout.readline())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("a", help="source folder A (PYTHONPATH), e.g. an older release's src")
    parser.add_argument("b", help="source folder B")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--limit", type=int, default=None, help="the first N pages only")
    parser.add_argument(
        "--turn", type=int, default=50, help="pages per turn (default 50, ~0.1 s each)"
    )
    parser.add_argument(
        "--sources-a",
        default=None,
        metavar="KINDS",
        help="A's query sources (default: the default, table), e.g. table,faq to compare two "
        "trees' FAQ source",
    )
    parser.add_argument(
        "--sources-b",
        default=None,
        metavar="KINDS",
        help="B's query sources, comma-separated ([build] sources; e.g. table,faq for the "
        "FAQ source's cost with A = B)",
    )
    args = parser.parse_args(argv)
    files = html_files(args.corpus, args.limit)
    workers = {
        "A": start(args.a, files, args.sources_a),
        "B": start(args.b, files, args.sources_b),
    }
    ratios: list[float] = []
    totals = {"A": 0.0, "B": 0.0}
    sources_a = f" (sources {args.sources_a})" if args.sources_a else ""
    sources = f" (sources {args.sources_b})" if args.sources_b else ""
    print(f"{len(files)} pages; A = {args.a}{sources_a}; B = {args.b}{sources}")
    print("round      A s      B s    B / A")
    try:
        for number in range(args.rounds):
            seconds = {"A": 0.0, "B": 0.0}
            for turn, first in enumerate(range(0, len(files), args.turn)):
                order = ("A", "B") if (number + turn) % 2 == 0 else ("B", "A")
                for name in order:
                    seconds[name] += one_turn(workers[name], first, first + args.turn)
            for name in seconds:
                totals[name] += seconds[name]
            ratios.append(seconds["B"] / seconds["A"])
            print(f"{number + 1:5d} {seconds['A']:8.3f} {seconds['B']:8.3f} {ratios[-1]:8.3f}")
    finally:
        for worker in workers.values():
            assert worker.stdin is not None
            worker.stdin.close()
            worker.wait()
    print(
        f"B / A: median {statistics.median(ratios):.3f}, range {min(ratios):.3f}-"
        f"{max(ratios):.3f}, of the sums {totals['B'] / totals['A']:.3f} "
        f"({args.rounds} rounds)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
