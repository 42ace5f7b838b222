"""CLI commands of this stage (being written)."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:  # argparse._SubParsersAction
    """Add this stage's subcommands."""
    del subparsers
    _ = argparse
