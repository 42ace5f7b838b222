"""Errors the CLI turns into exit codes: DataError -> 1, UsageError -> 2; and warnings."""

from __future__ import annotations

import sys


class QrelsmithError(Exception):
    """Base class of errors meant for the user: the message is one clear line."""

    exit_code = 1


class DataError(QrelsmithError):
    """The input data is wrong (a bad verdict file, a run that does not parse ...): exit 1."""

    exit_code = 1


class UsageError(QrelsmithError):
    """The call is wrong (missing path, unreadable config, bad option value): exit 2."""

    exit_code = 2


def warn(message: str) -> None:
    """A warning: one stderr line starting ``warning:``, from the CLI and the stages alike."""
    print(f"warning: {message}", file=sys.stderr)
