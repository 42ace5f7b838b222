"""files.py: outputs get the usual permissions; a build is swapped in whole, under a lock."""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from audit_helpers import fresh_build, run
from qrelsmith.cli import main
from test_audit_apply import filled
from test_build import write_site

EVAL = Path(__file__).parent / "fixtures" / "eval"


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def modes(folder: Path) -> dict[str, int]:
    return {
        str(path.relative_to(folder)): stat.S_IMODE(path.stat().st_mode)
        for path in [folder, *folder.rglob("*")]
    }


def assert_usual_modes(folder: Path) -> None:
    for name, mode in modes(folder).items():
        expected = 0o755 if (folder / name).is_dir() else 0o644
        assert mode == expected, f"{name}: {mode:o}, expected {expected:o} (umask 022)"


def test_outputs_get_the_umask_mode(tmp_path: Path, umask_022: None) -> None:
    site = write_site(tmp_path / "site", ["a.html", "b.html"])
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q"]) == 0
    assert (out / "audit" / "audit.csv").is_file()
    assert_usual_modes(out)


def test_versions_and_align_outputs_get_the_umask_mode(tmp_path: Path, umask_022: None) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    assert run("apply", str(build), str(filled(build, tmp_path / "v.csv", {}))) == 0
    assert_usual_modes(build / "versions")
    assert_usual_modes(build / "audit")
    out = tmp_path / "chunks"
    chunks = str(EVAL / "chunks.jsonl")
    assert main(["align", str(EVAL / "build"), "--chunks", chunks, "--out", str(out)]) == 0
    assert_usual_modes(out)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def two_builds(tmp_path: Path) -> tuple[Path, Path, dict[str, bytes]]:
    """A site built once into ``out``, then changed: (site, out, the first build's files)."""
    site = write_site(tmp_path / "site", ["a.html", "b.html"])
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q", "-j", "1"]) == 0
    (out / "my-notes.txt").write_text("kept")  # a file of the user's, not of the build
    write_site(site, ["c.html"])
    return site, out, snapshot(out)


def test_an_interrupt_before_the_swap_leaves_the_whole_last_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The core files are written, the audit sample is not yet: the old audit/ must not end up
    # beside the new core files.
    import qrelsmith.audit.writer

    site, out, before = two_builds(tmp_path)

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(qrelsmith.audit.writer, "write_default_sample", interrupted)
    assert main(["build", str(site), "--out", str(out), "-q", "-j", "1"]) == 130
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out")) == []


def test_a_failed_swap_puts_the_last_build_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno

    from qrelsmith.store import files

    site, out, before = two_builds(tmp_path)
    real = os.rename

    def failing(source: str, target: str) -> None:
        if ".staging-" in os.fspath(source):
            raise OSError(errno.EIO, "Input/output error", os.fspath(target))
        real(source, target)

    monkeypatch.setattr(files.os, "rename", failing)
    assert main(["build", str(site), "--out", str(out), "-q", "-j", "1"]) == 1
    monkeypatch.undo()
    assert "Input/output error" in capsys.readouterr().err
    assert snapshot(out) == before


def test_a_build_is_swapped_in_whole_and_keeps_the_users_files(tmp_path: Path) -> None:
    site, out, before = two_builds(tmp_path)
    inode = (out / "my-notes.txt").stat().st_ino
    assert main(["build", str(site), "--out", str(out), "-q", "-j", "1"]) == 0
    after = snapshot(out)
    assert after["my-notes.txt"] == b"kept" and (out / "my-notes.txt").stat().st_ino == inode
    assert b"c.html#q0" in after["golden.jsonl"] and b"c.html#q0" in after["audit/sample.json"]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out")) == []


def test_a_second_build_into_the_same_folder_fails_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import fcntl

    site, out, before = two_builds(tmp_path)
    with open(tmp_path / ".out.lock", "a+b") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running build holds it
        assert main(["build", str(site), "--out", str(out), "-q", "-j", "1"]) == 1
    err = capsys.readouterr().err
    assert (
        err.startswith("error: another qrelsmith command is writing into") and err.count("\n") == 1
    )
    assert snapshot(out) == before


def test_leftovers_of_a_killed_build_are_cleared_and_a_lost_build_restored(tmp_path: Path) -> None:
    site, out, before = two_builds(tmp_path)
    (tmp_path / ".out.staging-dead").mkdir()
    (tmp_path / ".out.staging-dead" / "corpus.jsonl").write_text("half")
    out.rename(tmp_path / ".out.old-dead")  # killed between the two renames of a swap
    assert main(["validate", str(tmp_path / ".out.old-dead")]) == 0
    assert main(["build", str(site), "--out", str(out), "-q", "-j", "1"]) == 0
    assert (out / "my-notes.txt").read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out")) == []


def test_a_reviewers_verdicts_survive_any_rebuild(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import csv

    site, out, _ = two_builds(tmp_path)
    sheet = out / "audit" / "audit.csv"
    with open(sheet, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows[0]["verdict"] = "correct"
    with open(sheet, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    reviewed = sheet.read_bytes()
    config = tmp_path / "no-sample.toml"
    config.write_text("[audit]\nsize = 0\n")
    for extra in ([], ["-c", str(config)]):
        assert main(["build", str(site), "--out", str(out), "-q", "-j", "1", *extra]) == 0
        assert sheet.read_bytes() == reviewed
        assert "holds verdicts" in capsys.readouterr().err


def test_read_source_reads_a_path_a_stream_or_stdin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from qrelsmith.errors import UsageError
    from qrelsmith.store.files import read_source

    path = tmp_path / "run.trec"
    path.write_bytes("\ufeffq 0 d 1\n".encode())
    assert read_source(path) == ("q 0 d 1\n", str(path))  # the BOM is dropped
    assert read_source(io.StringIO("x")) == ("x", "<stream>")
    monkeypatch.setattr("sys.stdin", io.StringIO("from stdin"))
    assert read_source("-") == ("from stdin", "stdin")
    with pytest.raises(UsageError, match="input path not found"):
        read_source(tmp_path / "missing")


def test_jsonl_lines_and_bad_lines(tmp_path: Path) -> None:
    from qrelsmith.errors import DataError
    from qrelsmith.store.files import first_bad_line, iter_lines, read_jsonl, write_jsonl

    path = tmp_path / "a.jsonl"
    assert write_jsonl(path, [{"k": "日本"}, {"k": 2}]) == 2
    assert path.read_text(encoding="utf-8") == '{"k":"日本"}\n{"k":2}\n'
    assert list(read_jsonl(path)) == [{"k": "日本"}, {"k": 2}]
    assert list(read_jsonl(path, maybe=lambda line: "2" in line)) == [{"k": 2}]
    path.write_text('{"k": 1}\n[1]\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"a.jsonl:2: expected a JSON object"):
        list(read_jsonl(path))
    path.write_text("a b\r\n\nc d e\n", encoding="utf-8")
    assert list(iter_lines(path)) == [(1, "a b"), (2, ""), (3, "c d e")]
    assert first_bad_line(["a b", "", "c d e"], 2) == 3 and first_bad_line(["a b"], 2) == 0


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"qid": "q1", "query": "cut sho', "Unterminated string starting at column 24"),
        ('{"qid": "q1", "query": "cut sho\n', "Invalid control character at column 32"),
        (
            '{"qid": "q1",, "x": 1}\n',
            "Expecting property name enclosed in double quotes at column 14",
        ),
    ],
)
def test_a_bad_json_line_names_where_in_the_line_it_broke(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    from qrelsmith.errors import DataError
    from qrelsmith.store.files import read_jsonl

    path = tmp_path / "golden.jsonl"
    path.write_text('{"qid": "q0"}\n' + line, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        list(read_jsonl(path))
    assert str(caught.value) == f"{path}:2: not valid JSON: {message}"
    # validate shows the same, as one problem
    build = tmp_path / "bad1"
    shutil.copytree(EVAL / "build", build)
    lines = (build / "golden.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (build / "golden.jsonl").write_text(lines[0] + lines[1][:60], encoding="utf-8")
    capsys.readouterr()
    assert main(["validate", str(build)]) == 1
    captured = capsys.readouterr()
    assert (
        f"{build}/golden.jsonl:2: not valid JSON: Unterminated string starting at column"
        in captured.out
    )
    assert captured.err.startswith(f"error: 1 problem in {build}")


def test_a_child_process_that_outlives_a_killed_build_does_not_hold_its_lock(
    tmp_path: Path,
) -> None:
    # Issue 16: workers forked while the build held its lock kept a copy of it: once the
    # build was killed, every later build failed ("another build is writing").
    import os
    import signal
    import subprocess
    import sys
    import time

    from qrelsmith.store.files import StagedFolder

    script = (
        "import os, sys, time\n"
        "from qrelsmith.store.files import StagedFolder\n"
        "staged = StagedFolder(sys.argv[1]).__enter__()\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    os.close(1), os.close(2)\n"
        "    time.sleep(60)\n"
        "    os._exit(0)\n"
        "print(child, flush=True)\n"
        "os._exit(0)  # dies holding the lock, as a killed build does\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "out")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    child = int(done.stdout)
    try:
        assert os.path.exists(f"/proc/{child}") or sys.platform != "linux"
        with StagedFolder(tmp_path / "out") as staged:  # the lock is free
            assert staged.path.is_dir()
            assert (tmp_path / ".out.lock").read_text().split()[1] == "build"
        assert not (tmp_path / ".out.lock").exists()  # removed as the lock was let go
    finally:
        os.kill(child, signal.SIGKILL)
        time.sleep(0.1)


def _held_like_a_build(out: Path) -> object:
    """A build of ``out`` in progress: its lock held, its staging folder holding a copy of
    the outputs (what the build would write again)."""
    from qrelsmith.run.build import OWN_ENTRIES
    from qrelsmith.store.files import StagedFolder

    staged = StagedFolder(out).__enter__()
    for name in OWN_ENTRIES:
        if (out / name).is_dir():
            shutil.copytree(out / name, staged.path / name)
        elif (out / name).exists():
            shutil.copy2(out / name, staged.path / name)
    return staged


@pytest.mark.parametrize(
    "command",
    [
        ("audit", "apply", "{out}", "{verdicts}"),
        ("audit", "sample", "{out}", "--force", "--size", "3"),
        ("diff", "{out}", "{out2}"),
    ],
)
def test_commands_that_write_into_a_build_folder_wait_for_its_build(
    tmp_path: Path, command: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 16: audit apply took no lock; run during a build into the same folder, the
    # version it reported as written was deleted by the build's swap.
    import threading
    import time

    from qrelsmith.run.build import OWN_ENTRIES

    out = fresh_build(tmp_path)
    assert run("sample", str(out)) == 0
    verdicts = filled(out, tmp_path / "verdicts.csv", {})
    out2 = tmp_path / "build2"
    shutil.copytree(out, out2)
    argv = [part.format(out=out, out2=out2, verdicts=verdicts) for part in command]
    if command[0] == "diff":  # diff writes into NEW: the build runs there
        out, out2 = out2, out
    staged = _held_like_a_build(out)
    codes: list[int] = []
    worker = threading.Thread(target=lambda: codes.append(main(argv)))
    worker.start()
    time.sleep(1.0)
    assert worker.is_alive(), "the command did not wait for the build"
    assert "waiting for the other qrelsmith command writing into" in capsys.readouterr().err
    staged.commit(keep=lambda name: name not in OWN_ENTRIES)  # type: ignore[attr-defined]
    staged.__exit__(None, None, None)  # type: ignore[attr-defined]
    worker.join(60)
    assert codes and codes[0] in (0, 1), codes  # diff: 1, the builds differ (a review)
    if command[1] == "apply":
        assert (out / "versions" / "v1" / "golden.jsonl").is_file()
    elif command[1] == "sample":
        assert (out / "audit" / "sample.json").is_file()
    else:
        assert (out / "audit" / "diff.json").is_file()


def test_a_full_disk_mid_file_names_the_file(tmp_path: Path) -> None:
    # Issue 16: a full disk while writing audit.html, parquet or align files said only "No
    # space left on device".
    import errno

    from qrelsmith.errors import DataError
    from qrelsmith.store.files import atomic_open

    target = tmp_path / "audit.html"
    with pytest.raises(DataError) as caught, atomic_open(target):
        raise OSError(errno.ENOSPC, "No space left on device")
    assert str(caught.value) == f"cannot write {target}: No space left on device"
    assert list(tmp_path.iterdir()) == []


def test_two_audit_applies_at_once_write_two_versions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 16: the loser of two `audit apply` at once said "Directory not empty: …tmp".
    import contextlib
    import threading

    from qrelsmith.store import versions

    both_inside = threading.Barrier(2)
    write = versions.write_golden_set

    def meeting(*args: object, **kwargs: object) -> object:
        # Both writers meet here unless one holds the folder: then the other times out.
        with contextlib.suppress(threading.BrokenBarrierError):
            both_inside.wait(timeout=2)
        return write(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(versions, "write_golden_set", meeting)
    out = fresh_build(tmp_path)
    assert run("sample", str(out)) == 0
    verdicts = filled(out, tmp_path / "verdicts.csv", {})
    codes: list[int] = []
    threads = [
        threading.Thread(
            target=lambda: codes.append(main(["audit", "apply", str(out), str(verdicts)]))
        )
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert codes == [0, 0]
    assert sorted(p.name for p in (out / "versions").iterdir()) == ["v1", "v2"]


def test_a_waiter_woken_by_a_finishing_writer_locks_the_file_at_the_path(tmp_path: Path) -> None:
    # The finishing writer removes the lock file while it holds it; a command that was waiting
    # on that file wakes up holding a removed file, which guards nothing: it must take the
    # lock on the file now at the path instead.
    import threading

    from qrelsmith.store.files import _exclusive_lock, release_lock

    path = tmp_path / ".out.lock"
    first = _exclusive_lock(path, tmp_path / "out")
    waiting = threading.Event()
    held: list[object] = []

    def wait_for_it() -> None:
        held.append(_exclusive_lock(path, tmp_path / "out", lambda _: waiting.set(), "audit"))

    waiter = threading.Thread(target=wait_for_it)
    waiter.start()
    assert waiting.wait(10)
    release_lock(first)
    waiter.join(10)
    handle = held[0]
    assert path.exists() and os.fstat(handle.fileno()).st_ino == path.stat().st_ino  # type: ignore[attr-defined]
    release_lock(handle)  # type: ignore[arg-type]
    assert not path.exists()


class _FullDisk:
    """An open file on a full disk: writes are buffered, every flush fails."""

    def __init__(self, handle: object) -> None:
        self.handle = handle

    def write(self, data: bytes) -> int:
        return len(data)

    def flush(self) -> None:
        import errno

        raise OSError(errno.ENOSPC, "No space left on device")

    def close(self) -> None:
        self.handle.close()  # type: ignore[attr-defined]
        self.flush()  # as a buffered file's close flushes what it holds

    def __getattr__(self, name: str) -> object:
        return getattr(self.handle, name)


def test_a_full_disk_at_the_lock_names_the_folder_and_leaves_no_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 27, item 10: align or audit sample on a full disk said only "No space left on
    # device" and left .<name>.lock beside the folder (writing the lock's pid failed).
    from qrelsmith.store import files

    real = open

    def lock_on_full_disk(path: object, mode: str = "r", *args: object) -> object:
        handle = real(path, mode, *args)  # type: ignore[call-overload]
        return _FullDisk(handle) if mode == "a+b" else handle  # the lock's mode

    monkeypatch.setattr(files, "open", lock_on_full_disk, raising=False)
    out = tmp_path / "chunks"
    command = ["align", str(EVAL / "build"), "--chunks", str(EVAL / "chunks.jsonl"), "--out"]
    assert main([*command, str(out)]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"error: cannot write {out}: No space left on device (at {tmp_path / '.chunks.lock'})\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_an_error_inside_the_staging_folder_names_the_users_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 27, item 11: errors named .ragas.staging-xxxx/ragas.jsonl, a path the user never
    # gave and that is gone once the command ends.
    import errno

    from qrelsmith.export import EXPORT_KINDS

    def full(folder: Path, source: object) -> str:
        raise OSError(errno.ENOSPC, "No space left on device", str(folder / "ragas.jsonl"))

    monkeypatch.setitem(EXPORT_KINDS, "ragas", replace_write(EXPORT_KINDS["ragas"], full))
    out = tmp_path / "ds"
    assert main(["export", "ragas", str(EVAL / "build"), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == f"error: cannot write {out / 'ragas.jsonl'}: No space left on device\n"
    assert list(tmp_path.iterdir()) == []


def replace_write(kind: object, write: object) -> object:
    import dataclasses

    return dataclasses.replace(kind, write=write)  # type: ignore[type-var]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_file_that_cannot_be_made_is_named_not_its_temporary_file() -> None:
    # Issue 27, item 11: eval --plot /proc/x.png said "/proc/.x.png.sbo9g8_1.tmp".
    from qrelsmith.errors import DataError
    from qrelsmith.store.files import StagedFolder, write_text

    with pytest.raises(DataError) as caught:
        write_text("/proc/x.png", "")
    assert str(caught.value).startswith("cannot write /proc/x.png: ")
    assert ".tmp" not in str(caught.value)
    with pytest.raises(DataError) as caught, StagedFolder("/proc/ds"):  # its lock: no file
        pass
    assert str(caught.value).startswith("cannot write /proc/ds: ")


def test_a_lock_conflict_names_the_holders_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 27, item 12: the loser of two exports into one folder said "(process N: build)"
    # although the holder was an export.
    from qrelsmith.export import EXPORT_KINDS

    out = tmp_path / "ds"
    kind = EXPORT_KINDS["pyserini"]
    inner: list[int] = []

    def write_while_another_writes(folder: Path, source: object) -> str:
        inner.append(main(["export", "ragas", str(EVAL / "build"), "--out", str(out)]))
        return kind.write(folder, source)  # type: ignore[arg-type]

    monkeypatch.setitem(EXPORT_KINDS, "pyserini", replace_write(kind, write_while_another_writes))
    assert main(["export", "pyserini", str(EVAL / "build"), "--out", str(out)]) == 0
    assert inner == [1]
    err = capsys.readouterr().err
    assert (
        f"error: another qrelsmith command is writing into {out} (it holds "
        f"{tmp_path / '.ds.lock'}, process {os.getpid()}: export pyserini); wait for it to end"
    ) in err
