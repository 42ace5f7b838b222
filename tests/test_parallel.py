"""Parallel, streaming builds: same bytes for any worker count, input order and spill size."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from qrelsmith import build
from qrelsmith.cli import main
from qrelsmith.run import parallel
from qrelsmith.run.build import build_to
from qrelsmith.run.parallel import SortedRuns, map_unordered
from qrelsmith.run.progress import Progress
from qrelsmith.store.formats import write_build

PAGE = """<html><head><meta charset="utf-8"><title>{n}</title></head><body><article>
<h1>Article {n}</h1>
<table><tr><th>Question</th><th>Answer</th><th>Details</th></tr>
<tr><td>What is thing {n}?</td><td>A thing</td><td>About thing {n}</td></tr>
<tr><td>Where is {n}?</td><td>Here</td><td>Finding {n}</td></tr></table>
<h2>About thing {n}</h2><p>Thing {n} is a thing.\tWith a tab.</p>
<h2>Finding {n}</h2><p>Look here.</p></article></body></html>"""


def crawl_lines(count: int, seed: int | None = None) -> list[str]:
    """``count`` pages, a duplicate URL and an empty page (shuffled by ``seed``), then a broken
    line: it is named by its line number, so it stays last."""
    lines = [
        json.dumps({"url": f"https://example.com/p/{n}", "html": PAGE.format(n=n)})
        for n in range(count)
    ]
    lines.append(json.dumps({"url": "https://example.com/p/3#dup", "html": PAGE.format(n="other")}))
    lines.append(json.dumps({"url": "https://example.com/empty", "html": ""}))
    if seed is not None:
        random.Random(seed).shuffle(lines)
    return [*lines, "{broken"]


def write_crawl(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_workers_order_and_spills_give_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_crawl(tmp_path / "a" / "crawl.jsonl", crawl_lines(60))
    write_crawl(tmp_path / "b" / "crawl.jsonl", crawl_lines(60, seed=7))
    outputs = {}
    for label, source, workers in [
        ("w1", "a", 1),
        ("w2", "a", 2),
        ("w2-shuffled", "b", 2),
        ("w3-shuffled", "b", 3),
    ]:
        build_to(tmp_path / label, [tmp_path / source / "crawl.jsonl"], workers=workers)
        outputs[label] = tree(tmp_path / label)
    spilled = []
    monkeypatch.setattr(parallel, "RUN_BYTES", 2000)  # many run files, merged back
    monkeypatch.setattr(
        parallel,
        "_read_run",
        lambda path, read=parallel._read_run: spilled.append(path) or read(path),
    )
    build_to(tmp_path / "spilled", [tmp_path / "b" / "crawl.jsonl"], workers=2)
    outputs["spilled"] = tree(tmp_path / "spilled")
    first = outputs["w1"]
    assert set(first) == {
        "corpus.jsonl",
        "golden.jsonl",
        "qrels.trec",
        "queries.tsv",
        "report.json",
        "beir/corpus.jsonl",
        "beir/queries.jsonl",
        "beir/qrels/test.tsv",
    }
    for label, files in outputs.items():
        assert files == first, label
    assert len(spilled) > 10
    report = json.loads(first["report.json"])
    assert report["counts"]["articles"] == 60 and report["counts"]["queries"] == 120
    assert [s["reason"] for s in report["skipped"]] == [
        "not valid JSON: JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "empty page",
        "duplicate article id (same as example.com/p/3)",
    ]


def test_streaming_build_writes_what_the_in_memory_writers_write(tmp_path: Path) -> None:
    crawl = write_crawl(tmp_path / "crawl.jsonl", crawl_lines(25, seed=1))
    result = build([crawl])
    whole = tmp_path / "whole"
    whole.mkdir()
    write_build(whole, result.corpus, result.queries, result.report)
    report = build_to(tmp_path / "streamed", [crawl], workers=2)
    assert report == result.report
    assert tree(tmp_path / "streamed") == tree(whole)


def test_a_folder_streams_in_order_and_writes_what_the_sorted_path_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A folder's pages come in id order: results go straight to the outputs (map_ordered), no
    # run file is written. The same pages through the sorting path give the same bytes, and
    # so do 1 and 2 workers. "a b.html" sorts before "a!b.html", its id "a%20b.html" after:
    # such a folder takes the sorting path.
    import importlib

    module = importlib.import_module("qrelsmith.run.build")
    site = tmp_path / "site"
    for n in range(40):
        (site / f"d{n % 3}").mkdir(parents=True, exist_ok=True)
        (site / f"d{n % 3}" / f"p{n:02d}.html").write_text(PAGE.format(n=n), encoding="utf-8")
    (site / "empty.html").write_text("", encoding="utf-8")
    assert module.in_id_order([site])
    spilled: list[str] = []
    monkeypatch.setattr(parallel, "RUN_BYTES", 2000)
    monkeypatch.setattr(
        parallel,
        "_read_run",
        lambda path, read=parallel._read_run: spilled.append(path) or read(path),
    )
    for workers in (1, 2):
        build_to(tmp_path / f"ordered{workers}", [site], workers=workers)
    assert spilled == []
    monkeypatch.setattr(module, "in_id_order", lambda *args: False)
    build_to(tmp_path / "sorted", [site], workers=2)
    assert spilled
    assert tree(tmp_path / "ordered1") == tree(tmp_path / "ordered2") == tree(tmp_path / "sorted")
    odd = tmp_path / "odd"
    odd.mkdir()
    for name in ("a b.html", "a!b.html"):
        (odd / name).write_text(PAGE.format(n=name), encoding="utf-8")
    assert not module.in_id_order([odd])
    build_to(tmp_path / "odd-sorted", [odd], workers=1)
    # Had the order check been wrong (a file added mid-build), the streaming path notices the
    # first result out of order, drops what it wrote and starts again on the sorting path.
    monkeypatch.setattr(module, "in_id_order", lambda *args: True)
    build_to(tmp_path / "odd-streamed", [odd], workers=1)
    assert tree(tmp_path / "odd-streamed") == tree(tmp_path / "odd-sorted")
    corpus = (tmp_path / "odd-sorted" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["article_id"] for line in corpus][::2] == ["a!b.html", "a%20b.html"]


def test_map_ordered_gives_input_order_whoever_finishes_first() -> None:
    assert list(parallel.map_ordered(_square_or_die, range(12), 2, on_crash=lambda i: -i)) == [
        n * n for n in range(12)
    ]
    with_crash = list(parallel.map_ordered(_square_or_die, range(20), 2, on_crash=lambda i: -i))
    assert with_crash == [n * n if n != 13 else -13 for n in range(20)]


def test_one_worker_starts_no_pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a pool was started for --workers 1")

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", refuse)
    crawl = write_crawl(tmp_path / "crawl.jsonl", crawl_lines(5))
    assert main(["build", str(crawl), "--out", str(tmp_path / "out"), "-q", "--workers", "1"]) == 3


@pytest.mark.parametrize("value", ["0", "-2", "many"])
def test_bad_worker_counts_are_usage_errors(
    tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["build", str(tmp_path), "--out", str(tmp_path / "out"), "--workers", value])
    assert exit_info.value.code == 2
    assert "--workers" in capsys.readouterr().err


def _square_or_die(value: int) -> int:
    if value == 13:
        import os

        os._exit(1)  # what a segfault in C code looks like to the pool
    return value * value


def test_a_worker_that_dies_costs_only_its_item() -> None:
    results = sorted(map_unordered(_square_or_die, range(40), 2, on_crash=lambda item: -item))
    assert results == sorted([n * n for n in range(40) if n != 13] + [-13])


def test_sorted_runs_merge_in_key_order(tmp_path: Path) -> None:
    items = list(range(1000))
    random.Random(3).shuffle(items)
    with SortedRuns(key=lambda n: n, size=lambda n: 100, budget=3000, folder=str(tmp_path)) as runs:
        for item in items:
            runs.add(item)
        assert len(runs.runs) == 33
        assert list(runs.merged()) == list(range(1000))
    assert not list(tmp_path.iterdir()), "run files left behind"


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_on_a_terminal_only() -> None:
    terminal = FakeTerminal()
    progress = Progress(total=200, stream=terminal)
    progress._drawn = -1e9  # draw on the first page
    progress.advance()
    assert terminal.getvalue().startswith("\r1/200 pages (0%), ")
    assert "/s, ETA " in terminal.getvalue()
    progress.close()
    assert terminal.getvalue().endswith("\r")
    quiet = io.StringIO()  # not a terminal: nothing
    silent = Progress(total=200, stream=quiet)
    for _ in range(5):
        silent.advance()
    silent.close()
    assert quiet.getvalue() == ""
    unknown = Progress(total=None, stream=FakeTerminal())
    unknown.done = 12
    assert unknown.line().startswith("12 pages, ") and "ETA" not in unknown.line()


def test_progress_of_a_crawl_file_goes_by_the_bytes_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A WARC's page count is unknown until it is read: the share of its bytes read gives the ETA.
    lines = Progress(total=None, stream=FakeTerminal())
    lines.total_bytes, lines.bytes_done, lines.done = 2_000_000, 500_000, 40
    assert lines.line(now=lines.started + 10).startswith(
        "40 pages (25% of 2.0 MB read), 4/s, ETA 0:30"
    )
    seen: list[int] = []
    warc = Path(__file__).parent / "fixtures" / "warc" / "crawl.warc.gz"
    terminal = FakeTerminal()
    progress = Progress(None, stream=terminal)
    monkeypatch.setattr(Progress, "advance", lambda self, count=1: seen.append(self.bytes_done))
    build_to(tmp_path / "out", [warc, warc.with_suffix("")], workers=1, progress=progress)
    size = warc.stat().st_size + warc.with_suffix("").stat().st_size
    assert progress.total_bytes == size
    assert seen == sorted(seen) and 0 < seen[0] < size and seen[-1] == size


def test_cli_shows_progress_on_a_terminal_unless_quiet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    site = tmp_path / "site"
    site.mkdir()
    for n in range(3):
        (site / f"{n}.html").write_text(PAGE.format(n=n), encoding="utf-8")
    monkeypatch.setattr("qrelsmith.run.progress.REDRAW_SECONDS", 0.0)
    for quiet in (False, True):
        terminal = FakeTerminal()
        monkeypatch.setattr(sys, "stderr", terminal)
        args = ["build", str(site), "--out", str(tmp_path / "out"), "--workers", "1"]
        assert main(args + (["-q"] if quiet else [])) == 0
        shown = terminal.getvalue()
        if quiet:
            assert shown == ""
        else:
            assert "\r3/3 pages (100%)" in shown and "built " in shown


def _children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        if int(ppid) == pid and state != "Z":
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
def test_workers_die_with_a_killed_build_and_the_next_build_runs(
    tmp_path: Path, signal_name: str
) -> None:
    # Issue 16: kill -9 of a -j2 build left both workers alive, stuck on a pipe and holding
    # the lock: every later build failed ("another build is writing").
    import os
    import signal
    import subprocess
    import sys
    import time

    site = tmp_path / "site"
    site.mkdir()
    slow = "<html><body><h2>Long</h2><p>" + "word <b>bold</b> " * 300_000 + "</p></body></html>"
    for n in range(12):
        (site / f"slow{n:02d}.html").write_text(slow)
    (site / "page.html").write_text(PAGE.format(n=1))
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    command = [sys.executable, "-m", "qrelsmith", "build", str(site), "--out", str(out), "-q"]
    build = subprocess.Popen([*command, "-j", "2"], env=env, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
        workers = _children(build.pid)
    assert len(workers) >= 2, "the build started no workers"
    time.sleep(0.3)  # the workers are at work on the slow pages
    build.send_signal(getattr(signal, signal_name))
    build.wait(30)
    deadline = time.monotonic() + 10
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = [pid for pid in workers if _alive(pid)]
    for pid in survivors:  # a failing run leaves no orphans behind
        os.kill(pid, signal.SIGKILL)
    assert not survivors, "workers outlived their build"
    done = subprocess.run([*command, "-j", "1"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "report.json").read_text())["counts"]["articles"] == 13


def _numbers() -> list[int]:
    return [1, 2, 3]


def _fails() -> list[int]:
    raise RuntimeError("boom")


@pytest.mark.skipif(not parallel.ForkedPart.available(), reason="no fork here")
def test_a_forked_part_gives_its_items_in_order_and_says_when_it_failed() -> None:
    part = parallel.ForkedPart(lambda: iter([*_numbers(), {"a": [4]}]))
    try:
        assert list(part.items()) == [1, 2, 3, {"a": [4]}]
    finally:
        part.close()
    failed = parallel.ForkedPart(_fails)
    try:
        with pytest.raises(RuntimeError, match="worker process failed"):
            list(failed.items())
    finally:
        failed.close()


def test_parts_give_their_items_in_part_order_from_their_processes() -> None:
    import os

    parent = os.getpid()
    made = list(parallel.in_parts([lambda n=n: [(n, os.getpid())] * 2 for n in range(3)]))
    assert [n for n, _ in made] == [0, 0, 1, 1, 2, 2]
    assert made[0][1] == parent  # the first part here, the others in forked copies
    assert {pid for _, pid in made[2:]} & {parent} == set()
    assert list(parallel.in_parts([lambda: [7]])) == [7]


def test_cuts_make_consecutive_parts_of_about_the_same_weight() -> None:
    assert parallel.cuts([5, 5, 5, 5, 5, 5], 2) == [0, 3, 6]
    assert parallel.cuts([10, 1, 1, 1, 1, 1], 2) == [0, 1, 6]
    assert parallel.cuts([1, 1, 1, 1, 1, 1, 1, 1, 1], 3) == [0, 3, 6, 9]
    assert parallel.cuts([4], 2) == [0, 1]
    assert parallel.cuts([0, 0], 2) == [0, 1, 2]
    assert parallel.cuts([3, 3], 1) == [0, 2]
    assert parallel.cuts([], 2) == [0]
