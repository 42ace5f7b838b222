"""errors.py: the one way a warning reaches stderr."""

from __future__ import annotations

from pathlib import Path

import pytest

from qrelsmith.errors import warn

SOURCE = Path(__file__).resolve().parent.parent / "src" / "qrelsmith"

#: The modules that write lines to stderr themselves: warnings (errors.warn) and the CLI's
#: other lines (cli/options.say).
PRINTERS = {"errors.py", "cli/options.py"}


def test_warn_is_one_stderr_line(capsys: pytest.CaptureFixture[str]) -> None:
    warn("audit sample not redrawn")
    assert capsys.readouterr() == ("", "warning: audit sample not redrawn\n")


def test_no_other_module_prints_to_stderr() -> None:
    found = [
        str(path.relative_to(SOURCE))
        for path in sorted(SOURCE.rglob("*.py"))
        if str(path.relative_to(SOURCE)) not in PRINTERS
        and "file=sys.stderr" in path.read_text(encoding="utf-8")
    ]
    assert not found, "warn through errors.warn (or say in the CLI):\n" + "\n".join(found)
