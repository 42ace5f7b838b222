"""The command reference, docs/cli.md, from every command's ``--help``.

``python -m qrelsmith.cli.reference > docs/cli.md`` writes it again; tests/test_cli_docs.py
fails when the file differs from what this prints (a changed flag, a reworded help).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator

from . import build_parser

#: The width the help is wrapped to (argparse reads COLUMNS): fixed so that the reference is
#: the same on every terminal; 100 is the project's line length.
WIDTH = 100

REGENERATE = "python -m qrelsmith.cli.reference > docs/cli.md"

HEADER = f"""# Command reference

Every command's `--help`, as `qrelsmith COMMAND --help` prints it. This page is generated
(`{REGENERATE}`); a test fails when it differs from the help, so edit the help in
`src/qrelsmith/cli/`, not this page. What the commands do, with examples that are run by the
tests, is in the other pages of [docs/](.) and in the [README](../README.md).
"""


def commands(
    parser: argparse.ArgumentParser, name: str = "qrelsmith"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every parser under ``parser``, depth first in the order the help lists them, with its
    command line (``qrelsmith audit sample``)."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from commands(sub, f"{name} {sub_name}")


def reference() -> str:
    """docs/cli.md: the header, then one section per command with its help."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)
    try:
        parts = [HEADER]
        for name, parser in commands(build_parser()):
            parts.append(f"\n## `{name}`\n\n```text\n{parser.format_help().rstrip()}\n```\n")
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return "".join(parts)


def main() -> int:
    sys.stdout.write(reference())
    return 0


if __name__ == "__main__":
    sys.exit(main())
