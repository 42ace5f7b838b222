"""What every command shares: the options defined once, how a flag reaches the options model,
and where output goes.

The one rule for output: what a command computes for the user (a run, a table, problems,
suspects, precision) goes to stdout; what it says about its work (summaries, "wrote ...",
warnings, errors) goes to stderr, one line each. A flag overrides the field of the same name
of the options model (``override``), so a config file and the command line meet in one place.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar, get_args

from pydantic import BaseModel

from ..config import Config, load_config, with_flags
from ..errors import UsageError
from ..errors import warn as warn  # the CLI's modules take it from here

OptionsT = TypeVar("OptionsT", bound=BaseModel)

FORMATTER = argparse.RawDescriptionHelpFormatter


def add_config(parser: argparse.ArgumentParser, tables: str = "") -> None:
    """``--config/-c TOML``: the options file (``tables`` names the tables that apply)."""
    which = f"; {tables} applies" if tables else ""
    parser.add_argument(
        "--config", "-c", metavar="TOML", help=f"TOML options file (docs/configuration.md){which}"
    )


def add_quiet(parser: argparse.ArgumentParser, what: str) -> None:
    """``--quiet/-q``."""
    parser.add_argument("--quiet", "-q", action="store_true", help=what)


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def choices(model: type[BaseModel], field: str) -> tuple[str, ...]:
    """The values a ``Literal`` field of an options model takes: a flag's choices."""
    return tuple(get_args(model.model_fields[field].annotation))


def default(model: type[BaseModel], field: str) -> Any:
    """The documented default of an options field, for a flag's help."""
    return model.model_fields[field].get_default(call_default_factory=True)


def config_of(args: argparse.Namespace) -> Config:
    """The options of the ``--config`` file the command was given (the defaults without)."""
    return load_config(getattr(args, "config", None))


def override(options: OptionsT, args: argparse.Namespace, names: tuple[str, ...]) -> OptionsT:
    """``options`` with the flags among ``names`` that were given on the command line."""
    given = {name: value for name in names if (value := getattr(args, name, None)) is not None}
    return with_flags(options, given)


def refuse_input_as_output(
    out: str | Path,
    inputs: Iterable[str | Path],
    message: Callable[[str | Path], str],
    *,
    holding: bool = False,
) -> None:
    """The one guard of every command that writes: a UsageError, ``message(that input)``, when
    ``out`` names one of ``inputs`` (the same path, through links) or, with ``holding`` (for a
    command that replaces ``out`` whole), a folder that holds one."""
    where = Path(os.path.realpath(out))
    for source in inputs:
        real = Path(os.path.realpath(source))
        if real == where or (holding and where in real.parents):
            raise UsageError(message(source))


def say(message: str) -> None:
    """A line about the work done, for people: stderr."""
    print(message, file=sys.stderr)


def error_line(exc: Exception) -> str:
    """The one stderr line for an error that ends a command: ours in our words, the system's
    (a full disk, a folder we may not write) in its own, with the file it names."""
    if isinstance(exc, OSError):
        where = f": {exc.filename}" if exc.filename else ""
        return f"error: {exc.strerror or exc}{where}"
    return f"error: {exc}"
