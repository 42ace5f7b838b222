"""Command line: ``qrelsmith build | audit | baseline | eval | check | validate | align | diff
| export``.

One module per stage's commands (``build.py``, ``audit.py``, ``evaluate.py``, ``diff.py``,
``export.py``), each in one shape: ``register(subparsers)`` adds the module's commands (one
``_register_<command>`` each where it has several), and ``run_<command>(args) -> int`` parses
what argparse cannot, calls the package and prints; the work itself is the package's. What they
share is in ``options.py``: a flag reaches the options model there (``override``), an ``--out``
that is an input is refused there (``refuse_input_as_output``), and output follows one rule
(data to stdout, messages to stderr). Exit codes: ``EXIT_CODES``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..errors import QrelsmithError
from ..version import __version__
from .options import error_line, say

#: Every exit code ``main`` returns; the top-level --help and README.md list the same ones (a
#: test checks it). ``build`` alone uses 3 and 4 (``cli.build.EXIT_SKIPPED``, ``EXIT_INTERNAL``);
#: ``diff`` answers as diff(1) does (``cli.diff``: 0 the same, 1 different, 2 trouble).
EXIT_CODES: tuple[int, ...] = (0, 1, 2, 3, 4, 130)
EXIT_INTERRUPTED = 130

EPILOG = """exit codes: 0 ok, 1 data error, 2 usage error, 130 interrupted; build also 3
(written, some pages skipped) and 4 (written, some pages lost to a bug in qrelsmith); validate
1 (problems found); diff, as diff(1), 1 (the builds differ) and 2 (trouble).
See 'qrelsmith COMMAND --help' for examples."""


#: The module of each command (``cli/<module>.py`` registers it). ``main`` builds the parser
#: of the called command's module alone: each module imports its stage when loaded, and
#: loading them all (build's pipeline, audit's review pages) cost ``eval`` ~0.3 s of its
#: ~2 s (benchmarks/README.md). A test holds this table to what the modules register.
COMMAND_MODULES: dict[str, str] = {
    "build": "build",
    "audit": "audit",
    "baseline": "evaluate",
    "eval": "evaluate",
    "check": "evaluate",
    "validate": "evaluate",
    "align": "evaluate",
    "diff": "diff",
    "export": "export",
}


def build_parser(module: str | None = None) -> argparse.ArgumentParser:
    """The full parser, every subcommand registered by its stage's module; with ``module``
    (a value of COMMAND_MODULES), that module's subcommands only."""
    from importlib import import_module

    parser = argparse.ArgumentParser(
        prog="qrelsmith",
        description="Turn author-written quick-reference tables into graded retrieval qrels.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"qrelsmith {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in dict.fromkeys(COMMAND_MODULES.values()):
        if module is None or name == module:
            import_module(f"{__name__}.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code (argparse's usage errors exit 2 on their own)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(COMMAND_MODULES.get(argv[0]) if argv else None)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except QrelsmithError as exc:
        say(error_line(exc))
        return exc.exit_code
    except KeyboardInterrupt:
        say("error: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a full disk, a folder we may not write: the system's own words
        say(error_line(exc))
        return 1


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
