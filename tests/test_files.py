"""files.py: outputs get the usual permissions; a build is swapped in whole, under a lock."""

from __future__ import annotations

import os
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
