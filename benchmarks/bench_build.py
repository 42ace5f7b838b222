"""Time `qrelsmith build` on a real crawl, side by side with the bare-lxml floor and the peers.

Every contender runs in its own subprocess over the same files; the table gives its CPU time
(user + system of the process and its workers), wall time, pages/s and MB/s (on wall time),
peak RSS (of the largest single process) and its CPU time as a multiple of the floor: bare
`lxml.html` parsing plus a walk of the text. The floor and the builds take turns for
``--repeat`` rounds: the table shows each one's best round, and its multiple of the floor is
the median over the rounds of its time divided by the floor's in the same round (the speed of
a shared machine drifts by 20-40% within minutes; a ratio within one round drifts far less).
The peers are what users would otherwise split HTML by headings with; they are installed only
for the benchmark, in another venv (`--peer-python`), and a missing one is reported as "not
installed". "The floor on 2 processes" shows how far this machine speeds up a parse-bound job
on 2 cores at all.

    bash ../shared/bench/make-doc-corpus.sh /work/doc-corpus     # ~1,900 real pages, 76 MB
    python benchmarks/bench_build.py /work/doc-corpus                       # floor + build
    python benchmarks/bench_build.py /work/doc-corpus --peers \
        --peer-python /work/benchvenv/bin/python                            # + the peers
    python benchmarks/bench_build.py /work/doc-corpus --limit 200           # a quick run
    python benchmarks/bench_build.py /work/doc-corpus --scale 1000,20000    # memory at scale

`--scale N` repeats the corpus's pages under new URLs into an N-page WARC file (in a temporary
folder) and builds it with 1 and 2 workers: peak RSS must stay flat from 1k to 20k pages and
the outputs must be byte-identical.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

#: Exit code of a contender whose library is missing.
NOT_INSTALLED = 3

#: Headings the splitters split at: what our build uses (H2, with H1/H3 around it).
HEADINGS = [("h1", "h1"), ("h2", "h2"), ("h3", "h3")]


# --------------------------------------------------------------------------- contenders
# Each runs inside a child process over the list of files and returns how many pages failed.


def _pages(files: list[str]) -> list[bytes]:
    return [Path(name).read_bytes() for name in files]


def run_floor(files: list[str]) -> int:
    """Bare lxml.html parsing plus a walk of the text: the least any lxml-based build does."""
    import lxml.html

    failed = 0
    for data in _pages(files):
        try:
            document = lxml.html.document_fromstring(data)
        except Exception:
            failed += 1
            continue
        sum(len(text) for text in document.itertext())
    return failed


def run_floor_parallel(files: list[str]) -> int:
    """The floor on 2 processes, half the pages each: how far 2 cores of this machine speed up
    a parse-bound job at all (memory bandwidth and shared caches bound it, not our code)."""
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(2) as pool:
        return sum(pool.map(run_floor, [files[0::2], files[1::2]]))


def run_core(files: list[str]) -> int:
    """The build's per-page core (``render_page``: parse, sections, table, matching, output
    lines) and the floor, page by page in turns in this one process: both see the same machine
    speed, so their ratio holds still where separate runs drift. Prints both sums."""
    import lxml.html

    import qrelsmith.page.article
    from qrelsmith.config import Config
    from qrelsmith.ingest import Page
    from qrelsmith.run.page_results import render_page

    config = Config()
    floor = core = 0.0
    clock = time.process_time
    matching = [0.0, 0]  # seconds in article_queries (heading index + rows), articles matched
    original = qrelsmith.page.article.article_queries

    def timed(article: qrelsmith.page.article.Article, *args: object, **kwargs: object) -> object:
        started = clock()
        try:
            return original(article, *args, **kwargs)  # type: ignore[arg-type]
        finally:
            matching[0] += clock() - started
            matching[1] += article.table is not None

    for module in list(sys.modules.values()):  # wherever the build imported it from
        if (
            module
            and module.__name__.startswith("qrelsmith")
            and getattr(module, "article_queries", None) is original
        ):
            module.article_queries = timed  # type: ignore[attr-defined]
    for number, data in enumerate(_pages(files)):
        page = Page(str(number), str(number), data)
        for turn in (number % 2, 1 - number % 2):  # who goes first alternates
            started = clock()
            if turn:
                document = lxml.html.document_fromstring(data)
                sum(len(text) for text in document.itertext())
                del document
                floor += clock() - started
            else:
                render_page(page, config)
                core += clock() - started
    print(f"{floor:.3f} {core:.3f} {matching[0]:.3f} {matching[1]}")
    return 0


def run_bs4(files: list[str]) -> int:
    """BeautifulSoup over lxml, then its text."""
    from bs4 import BeautifulSoup

    failed = 0
    for data in _pages(files):
        try:
            BeautifulSoup(data, "lxml").get_text(" ")
        except Exception:
            failed += 1
    return failed


def run_langchain(files: list[str]) -> int:
    """LangChain's HTMLHeaderTextSplitter at h1/h2/h3."""
    from langchain_text_splitters import HTMLHeaderTextSplitter

    splitter = HTMLHeaderTextSplitter(HEADINGS)
    failed = 0
    for data in _pages(files):
        try:
            splitter.split_text(data.decode("utf-8", errors="replace"))
        except Exception:
            failed += 1
    return failed


def run_unstructured(files: list[str]) -> int:
    """unstructured's partition_html (elements, titles among them).

    It classifies text with the spaCy model en_core_web_sm, which it downloads on first use;
    where that cannot be fetched, a blank English pipeline with a sentencizer stands in (no
    tagger: less work than the real model, so the time is a lower bound; said in the note).
    """
    import spacy
    from unstructured.nlp import tokenize
    from unstructured.partition.html import partition_html

    try:
        spacy.load("en_core_web_sm")
    except OSError:
        blank = spacy.blank("en")
        blank.add_pipe("sentencizer")
        tokenize._load_spacy_model = lambda: blank
        print(
            "note: blank spaCy model (en_core_web_sm not downloadable): lower bound",
            file=sys.stderr,
        )
    failed = 0
    for data in _pages(files):
        try:
            partition_html(text=data.decode("utf-8", errors="replace"))
        except Exception:
            failed += 1
    return failed


def run_llamaindex(files: list[str]) -> int:
    """LlamaIndex's HTMLNodeParser (split at the heading and paragraph tags it knows)."""
    from llama_index.core import Document
    from llama_index.core.node_parser import HTMLNodeParser

    parser = HTMLNodeParser()
    failed = 0
    for data in _pages(files):
        try:
            parser.get_nodes_from_documents([Document(text=data.decode("utf-8", "replace"))])
        except Exception:
            failed += 1
    return failed


def run_trafilatura(files: list[str]) -> int:
    """trafilatura's main-text extraction (no splitting at all)."""
    import trafilatura

    failed = 0
    for data in _pages(files):
        try:
            trafilatura.extract(data)
        except Exception:
            failed += 1
    return failed


CONTENDERS: dict[str, Callable[[list[str]], int]] = {
    "floor": run_floor,
    "floor2": run_floor_parallel,
    "core": run_core,
    "bs4": run_bs4,
    "langchain": run_langchain,
    "unstructured": run_unstructured,
    "llamaindex": run_llamaindex,
    "trafilatura": run_trafilatura,
}

LABELS = {
    "floor": "bare lxml.html parse + text walk (floor)",
    "floor2": "the floor on 2 processes",
    "bs4": "BeautifulSoup(lxml) + get_text",
    "langchain": "LangChain HTMLHeaderTextSplitter",
    "unstructured": "unstructured partition_html",
    "llamaindex": "LlamaIndex HTMLNodeParser",
    "trafilatura": "trafilatura extract",
}


def child_main(name: str, list_file: str) -> int:
    """Run one contender in this (child) process."""
    files = Path(list_file).read_text(encoding="utf-8").splitlines()
    try:
        failed = CONTENDERS[name](files)
    except ImportError as exc:
        print(f"not installed: {exc}", file=sys.stderr)
        return NOT_INSTALLED
    if failed:
        print(f"{failed} pages failed", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- measuring


class Measured:
    """One row of the table."""

    def __init__(self, label: str, cpu: float, wall: float, rss_mb: float, note: str = ""):
        self.label, self.cpu, self.wall, self.rss_mb, self.note = label, cpu, wall, rss_mb, note
        #: Median of the per-round CPU ratios to the floor, for contenders that took turns
        #: with it; the others are divided by the floor's best.
        self.ratio: float | None = None


def measure(command: list[str], label: str) -> Measured:
    """Run ``command`` to the end; its CPU time and peak RSS come from wait4 (its whole tree)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    stderr = process.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    process.returncode = code
    cpu = usage.ru_utime + usage.ru_stime
    rss_mb = usage.ru_maxrss / 1024
    if code == NOT_INSTALLED and "not installed" in stderr:
        return Measured(label, 0, 0, 0, "not installed")
    notes = [line for line in stderr.splitlines() if line.startswith(("note:", "Traceback"))]
    notes += [line for line in stderr.splitlines() if line.endswith("pages failed")]
    note = "; ".join(notes).removeprefix("note: ")
    if code not in (0, 3):  # 3: a build that skipped pages, or a contender's missing import
        note = f"exit {code}: {note}"
    return Measured(label, cpu, wall, rss_mb, note[:90])


def table(rows: list[Measured], pages: int, megabytes: float, floor_cpu: float) -> str:
    """The side-by-side table."""
    out = io.StringIO()
    head = f"{'contender':44} {'CPU s':>8} {'wall s':>8} {'pages/s':>8} {'MB/s':>7} "
    out.write(head + f"{'RSS MB':>7} {'×floor':>7}  note\n")
    for row in rows:
        if row.note == "not installed":
            out.write(f"{row.label:44} {'—':>8} {'—':>8} {'—':>8} {'—':>7} {'—':>7} {'—':>7}  ")
            out.write("not installed\n")
            continue
        ratio = row.ratio if row.ratio is not None else row.cpu / floor_cpu if floor_cpu else 0.0
        rate = pages / row.wall if row.wall else 0.0
        speed = megabytes / row.wall if row.wall else 0.0
        out.write(
            f"{row.label:44} {row.cpu:8.2f} {row.wall:8.2f} {rate:8.0f} {speed:7.1f} "
            f"{row.rss_mb:7.0f} {ratio:7.2f}  {row.note}\n"
        )
    return out.getvalue()


def html_files(corpus: Path, limit: int | None) -> list[Path]:
    """The corpus's pages in path order (the first ``limit`` of them)."""
    found = sorted(
        p for p in corpus.rglob("*") if p.suffix.lower() in (".html", ".htm") and p.is_file()
    )
    return found[:limit] if limit else found


def linked_folder(files: list[Path], corpus: Path, target: Path) -> Path:
    """A folder of symlinks to ``files`` (same relative paths), for a build over a subset."""
    for path in files:
        link = target / path.relative_to(corpus)
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(path.resolve())
    return target


#: ``qrelsmith build`` alone: its parser without the other subcommands, so the benchmark times
#: the build's imports only.
BUILD_MAIN = """import argparse, sys
from qrelsmith.cli.build import register
parser = argparse.ArgumentParser(prog="qrelsmith")
register(parser.add_subparsers())
args = parser.parse_args()
sys.exit(args.func(args))"""


def build_command(inputs: Path, out: Path, workers: int) -> list[str]:
    """``qrelsmith build`` in a child process, quiet (exit 3, pages skipped, is still a run)."""
    return [sys.executable, "-c", BUILD_MAIN, "build", str(inputs), "--out", str(out), "-q"] + [
        "--workers",
        str(workers),
    ]


def tree_digest(folder: Path) -> str:
    """One hash over every output file's path and bytes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def make_warc(
    files: list[Path], corpus: Path, pages: int, target: Path, *, compress: bool = False
) -> int:
    """A WARC of ``pages`` responses: the corpus's pages again and again, each round under a
    new host (``https://mirror<k>.example.org/<path>``); with ``compress`` a .warc.gz, a gzip
    member per record as crawlers write them. Returns its size."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(target, "wb") as handle:
        writer = WARCWriter(handle, gzip=compress)
        for n in range(pages):
            path = files[n % len(files)]
            url = f"https://mirror{n // len(files)}.example.org/{path.relative_to(corpus)}"
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            with open(path, "rb") as body:
                record = writer.create_warc_record(url, "response", payload=body, http_headers=http)
                writer.write_record(record)
    return target.stat().st_size


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="folder of HTML pages (make-doc-corpus.sh)")
    parser.add_argument("--limit", type=int, help="only the first N pages (a quick run)")
    parser.add_argument("--peers", action="store_true", help="also time the peer libraries")
    parser.add_argument(
        "--peer-python", default=sys.executable, help="the python that has the peers installed"
    )
    parser.add_argument("--workers", default="1,2", help="build worker counts to time")
    parser.add_argument("--scale", help="also build N-page WARC crawls, e.g. 1000,20000")
    parser.add_argument(
        "--repeat", type=int, default=3, help="rounds of floor + builds; each keeps its best"
    )
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--run"]:  # a child: --run NAME FILE_LIST
        return child_main(argv[1], argv[2])
    args = parser.parse_args(argv)

    files = html_files(args.corpus, args.limit)
    if not files:
        parser.error(f"no .html pages under {args.corpus}")
    megabytes = sum(p.stat().st_size for p in files) / 1e6
    print(f"{len(files):,} pages, {megabytes:.1f} MB from {args.corpus}", flush=True)
    me = str(Path(__file__).resolve())
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        work = Path(tmp)
        list_file = work / "files.txt"
        list_file.write_text("\n".join(str(p) for p in files), encoding="utf-8")
        inputs = args.corpus if not args.limit else linked_folder(files, args.corpus, work / "in")

        def contender(name: str, python: str) -> Measured:
            command = [python, me, "--run", name, str(list_file)]
            return measure(command, LABELS[name])

        # The floor and the builds take turns, `--repeat` times, and each keeps its fastest
        # run: on a shared machine the speed drifts by 20-40% within minutes, so one run of
        # each, one after the other, can make a ratio up by that much.
        best: dict[str, Measured] = {}
        rounds: list[dict[str, Measured]] = []
        digests: set[str] = set()
        workers_list = [int(w) for w in args.workers.split(",")]
        for round_ in range(args.repeat):
            runs = {"floor": contender("floor", sys.executable)}
            if max(workers_list) > 1:
                runs["floor2"] = contender("floor2", sys.executable)
            for workers in workers_list:
                out = work / f"out{workers}"
                label = f"qrelsmith build --workers {workers}"
                runs[label] = measure(build_command(inputs, out, workers), label)
                digests.add(tree_digest(out))
                shutil.rmtree(out)
            for key, row in runs.items():
                if key not in best or row.cpu < best[key].cpu:
                    best[key] = row
            rounds.append(runs)
            times = (f"{key.split(' --')[-1]} {row.cpu:.2f} s" for key, row in runs.items())
            print(f"  round {round_ + 1} (CPU): " + ", ".join(times), flush=True)
        for key, row in best.items():  # the ratio of each round, to the floor of that round
            ratios = sorted(r[key].cpu / r["floor"].cpu for r in rounds)
            row.ratio = statistics.median(ratios)
            if len(ratios) > 1 and key != "floor":
                row.note = f"rounds {ratios[0]:.2f}-{ratios[-1]:.2f} {row.note}".strip()
        rows = list(best.values())
        floor = best["floor"]
        if args.peers:
            for name in ("bs4", "langchain", "unstructured", "llamaindex", "trafilatura"):
                rows.append(contender(name, args.peer_python))
                print(f"  {name}: {rows[-1].cpu:.2f} s CPU {rows[-1].note}", flush=True)
        print()
        print(table(rows, len(files), megabytes, floor.cpu))
        if "floor2" in best and 1 in workers_list and 2 in workers_list:
            one, two = "qrelsmith build --workers 1", "qrelsmith build --workers 2"
            floor_up = statistics.median(r["floor"].wall / r["floor2"].wall for r in rounds)
            build_up = statistics.median(r[one].wall / r[two].wall for r in rounds)
            print(
                f"speed-up on 2 processes (wall, median of rounds): floor {floor_up:.2f}x,"
                f" build {build_up:.2f}x"
            )
        core = subprocess.run(
            [sys.executable, me, "--run", "core", str(list_file)],
            capture_output=True,
            text=True,
            check=True,
        )
        floor_s, core_s, match_s, matched = (float(x) for x in core.stdout.split())
        print(
            f"per-page core in turns with the floor, one process: floor {floor_s:.2f} s,"
            f" build core {core_s:.2f} s: {core_s / floor_s:.2f}x; matching (heading index and"
            f" rows of {matched:.0f} articles with a table) {match_s:.3f} s ="
            f" {100 * match_s / core_s:.1f}% of the core"
        )
        same = len(digests) == 1
        print(
            f"outputs identical for workers {args.workers} in {args.repeat} rounds: "
            + ("yes" if same else "NO")
        )
        if args.scale:
            print()
            print(scale_table(files, args.corpus, [int(n) for n in args.scale.split(",")], work))
    return 0


def scale_table(files: list[Path], corpus: Path, sizes: list[int], work: Path) -> str:
    """Build N-page WARC crawls with 1 and 2 workers: time, peak RSS, identical outputs."""
    lines = [
        f"{'crawl':>16} {'workers':>7} {'CPU s':>8} {'wall s':>8} {'pages/s':>8} "
        f"{'peak RSS MB':>11}  identical"
    ]
    for size in sizes:
        warc = work / f"crawl{size}.warc"
        mb = make_warc(files, corpus, size, warc) / 1e6
        digests = []
        for workers in (1, 2):
            out = work / f"scale{size}-{workers}"
            row = measure(build_command(warc, out, workers), "")  # the whole command, sample too
            digests.append(tree_digest(out))
            same = "yes" if len(set(digests)) == 1 else "NO"
            lines.append(
                f"{size:>7,} p {mb:5.0f} MB {workers:>7} {row.cpu:8.2f} {row.wall:8.2f} "
                f"{size / row.wall:8.0f} {row.rss_mb:11.0f}  {same if workers == 2 else ''}"
            )
            if row.note:
                lines.append(f"    {row.note}")
        warc.unlink()
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
