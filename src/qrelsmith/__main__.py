"""``python -m qrelsmith``."""

from .cli import entry

entry()
