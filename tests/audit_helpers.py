"""Shared by the audit tests: a copy of the hand-made build, and the CLI through ``register``."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from qrelsmith.cli.audit import register
from qrelsmith.errors import QrelsmithError

FIXTURE = Path(__file__).parent / "fixtures" / "audit_build"


def fresh_build(tmp_path: Path) -> Path:
    """A writable copy of tests/fixtures/audit_build."""
    target = tmp_path / "build"
    shutil.copytree(FIXTURE, target)
    return target


def run(*argv: str) -> int:
    """``qrelsmith audit ...`` through a parser holding only the audit commands (cli.main's way)."""
    parser = argparse.ArgumentParser(prog="qrelsmith")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["audit", *argv])
    try:
        return int(args.func(args))
    except QrelsmithError as exc:
        print(f"error: {exc}")
        return exc.exit_code
