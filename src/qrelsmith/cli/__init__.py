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


def build_parser() -> argparse.ArgumentParser:
    """The full parser; every subcommand registers itself from its stage's module."""
    from .audit import register as register_audit
    from .build import register as register_build
    from .diff import register as register_diff
    from .evaluate import register as register_evaluate
    from .export import register as register_export

    parser = argparse.ArgumentParser(
        prog="qrelsmith",
        description="Turn author-written quick-reference tables into graded retrieval qrels.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"qrelsmith {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    register_build(subparsers)
    register_audit(subparsers)
    register_evaluate(subparsers)
    register_diff(subparsers)
    register_export(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code (argparse's usage errors exit 2 on their own)."""
    parser = build_parser()
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
