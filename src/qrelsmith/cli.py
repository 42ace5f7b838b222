"""Command line: ``qrelsmith build | audit | baseline | eval | check | validate | align | diff
| export``.

Data goes to stdout or files, logs and progress to stderr. Exit codes: 0 ok; 1 a data error
(a line starting ``error:``); 2 a usage error; ``build`` also 3 (pages skipped) and 4 (pages
lost to an internal error).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__
from .errors import QrelsmithError

EPILOG = """exit codes: 0 ok, 1 data error, 2 usage error; build also 3 (written, some pages
skipped) and 4 (written, some pages lost to a bug in qrelsmith); validate 1 (problems found);
diff, as diff(1), 1 (the builds differ) and 2 (trouble).
See 'qrelsmith COMMAND --help' for examples."""


def build_parser() -> argparse.ArgumentParser:
    """The full parser; every subcommand registers itself from its stage's module."""
    from .audit.commands import register as register_audit
    from .build_cli import register as register_build
    from .diff_cli import register as register_diff
    from .evaluate.commands import register as register_evaluate
    from .export_cli import register as register_export

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
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a full disk, a folder we may not write: the system's own words
        where = f": {exc.filename}" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
