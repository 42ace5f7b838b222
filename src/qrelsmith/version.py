"""The version of qrelsmith (its own module, so no stage imports the package back)."""

__version__ = "0.1.0"
