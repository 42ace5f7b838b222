"""The per-page core of several qrelsmith source trees in one process, page by page in turns.

    python benchmarks/bench_core_inproc.py /tmp/labels/doc-corpus old=OLD_SRC new=src \
        [--rounds 3] [--stage sections:marked_text --stage quickref:find_table ...]

Each tree's package is copied under a name of its own (``qrelsmith_old``, ``qrelsmith_new``)
into a temporary folder, so that all of them load side by side. ``render_page`` runs on each
page for every tree in turn (the first rotating from page to page): a page's bytes, the
interpreter and the machine's speed are the same for all of them, which two processes taking
turns (``bench_core_ab.py``) only approach. ``--stage module:function`` also sums the CPU time
spent in that function of each tree (a function that calls another counts both).
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _timed(function: Callable[..., Any], totals: dict[str, float], key: str) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            totals[key] += time.process_time() - started

    return timed


#: Where a flat module of a tree from before the packages by stage lives in a newer tree, so
#: ``--stage sections:marked_text`` names the same function in both.
STAGE_PACKAGES = ("", "page.", "labelling.", "run.", "store.", "export.")


def _import_stage(package: str, module_name: str) -> Any:
    """The tree's module ``module_name``, at the top or in its stage's package; None if absent."""
    for stage in STAGE_PACKAGES:
        try:
            return importlib.import_module(f"{package}.{stage}{module_name}")
        except ImportError:
            continue
    return None


def _load(package: str, stages: list[str], totals: dict[str, float]) -> Any:
    """The tree's ``render_page``, with its ``stages`` timed wherever a module holds them."""
    for spec in stages:
        module_name, function_name = spec.split(":")
        module = _import_stage(package, module_name)
        if module is None:
            continue  # the stage's module is not in this tree
        original = getattr(module, function_name, None)
        if original is None:
            continue
        totals[function_name] = 0.0
        timed = _timed(original, totals, function_name)
        for loaded in list(sys.modules.values()):
            ours = loaded is not None and loaded.__name__.startswith(package)
            if ours and getattr(loaded, function_name, None) is original:
                setattr(loaded, function_name, timed)
    return _import_stage(package, "page_results").render_page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("trees", nargs="+", help="NAME=SRC: a source tree (its src folder)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stage", action="append", default=[], metavar="MODULE:FUNCTION")
    args = parser.parse_args(argv)
    files = sorted(p for p in args.corpus.rglob("*") if p.suffix in (".html", ".htm"))
    datas = [path.read_bytes() for path in files]
    staging = Path(tempfile.mkdtemp(prefix="bench-inproc-"))
    sys.path.insert(0, str(staging))
    names: list[str] = []
    runs: dict[str, tuple[Any, Any, list[Any]]] = {}
    stages: dict[str, dict[str, float]] = {}
    try:
        for spec in args.trees:
            name, _, src = spec.partition("=")
            package = f"qrelsmith_{name}"
            ignore = shutil.ignore_patterns("__pycache__")
            shutil.copytree(Path(src) / "qrelsmith", staging / package, ignore=ignore)
            stages[name] = {}
            render = _load(package, args.stage, stages[name])
            config = importlib.import_module(f"{package}.config").Config()
            page = importlib.import_module(f"{package}.ingest").Page
            pages = [
                page(str(n), str(f), d) for n, (f, d) in enumerate(zip(files, datas, strict=True))
            ]
            for warm in pages[:30]:  # compiled stylesheets and selectors, before any timing
                render(warm, config)
            names.append(name)
            runs[name] = (render, config, pages)
        for totals in stages.values():
            totals.update(dict.fromkeys(totals, 0.0))
        total = dict.fromkeys(names, 0.0)
        for _ in range(args.rounds):
            for number in range(len(files)):
                first = number % len(names)
                for name in names[first:] + names[:first]:
                    render, config, pages = runs[name]
                    started = time.process_time()
                    render(pages[number], config)
                    total[name] += time.process_time() - started
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    base = total[names[0]]
    print(f"{len(files)} pages, {args.rounds} rounds; CPU s per round, / {names[0]}")
    for name in names:
        parts = "  ".join(f"{k} {v / args.rounds:.3f}" for k, v in stages[name].items())
        print(f"{name:8s} {total[name] / args.rounds:7.3f}  {total[name] / base:.3f}  {parts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
