"""Every audit command has help with an example; default sample written for ``build``."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from audit_helpers import fresh_build, run
from qrelsmith.audit import write_default_sample
from qrelsmith.cli.audit import register
from qrelsmith.config import AuditOptions, Config


@pytest.mark.parametrize("command", ["sample", "apply", "agree"])
def test_help_has_an_example(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="qrelsmith")
    register(parser.add_subparsers(dest="command"))
    with pytest.raises(SystemExit):
        parser.parse_args(["audit", command, "--help"])
    out = capsys.readouterr().out
    assert f"example:\n  qrelsmith audit {command} " in out


def test_write_default_sample(tmp_path: Path) -> None:
    build = fresh_build(tmp_path)
    sample = write_default_sample(build, Config(audit=AuditOptions(size=5, seed=1)))
    assert sample is not None and len(sample.rows) == 5
    assert {p.name for p in (build / "audit").iterdir()} == {
        "audit.csv",
        "audit.html",
        "sample.json",
    }
    assert write_default_sample(build, Config(audit=AuditOptions(size=0))) is None


def test_one_verdict_file_given_twice_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 16: `audit agree x.csv x.csv` reported the duplicate at its own line.
    from test_audit_apply import filled

    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    sheet = filled(build, tmp_path / "x.csv", {})
    capsys.readouterr()
    assert run("agree", str(build), str(sheet), str(sheet)) == 2
    assert (
        capsys.readouterr().out
        == f"error: {sheet} is given twice: each verdict file is read once\n"
    )
