"""The error rule of a build: which failure of a page is a skipped page, which a bug of ours.

Only bad input is a skipped page (``BAD_INPUT``): any other exception raised while a page is
processed is an internal error, reported apart (``report.json`` "internal_errors", exit 4),
so neither a user nor a fuzz test can mistake a bug for a bad page.
"""

from __future__ import annotations

import traceback
from pathlib import Path

from lxml import etree

from ..errors import DataError
from ..models import InternalError, Skipped
from .timeout import PageTimeout

#: Longest reason kept for a page the core gave up on (a parser's message can be a page long).
REASON_CHARS = 300

#: What a bad page can raise: our own refusals (empty, binary, undecodable, not HTML, nested
#: past the parser), the time limit, and what parsers and the interpreter raise on input
#: they cannot take whole (libxml2/libxslt errors, a recursion or memory limit hit by one
#: page). Anything else raised while a page is processed is a bug of ours.
BAD_INPUT: tuple[type[BaseException], ...] = (
    DataError,
    PageTimeout,
    etree.LxmlError,
    RecursionError,
    MemoryError,
)


def skipped(path: str, reason: str) -> Skipped:
    """The report entry of a page skipped as bad input, its reason cut to REASON_CHARS."""
    return Skipped(path=path, reason=reason[:REASON_CHARS])


def bad_input_reason(exc: BaseException, timeout: float) -> str:
    """Why a page that raised one of ``BAD_INPUT`` is skipped, in the report's words."""
    if isinstance(exc, PageTimeout):
        return f"took longer than {timeout:g} s (build.page_timeout)"
    if isinstance(exc, DataError):
        return str(exc)
    # A hostile page breaks parsers in ways no rule foresees (libxml2, libxslt, a recursion
    # limit): it costs that page only, and the report says what broke.
    return f"{type(exc).__name__}: {exc}"


def internal_error(path: str, exc: BaseException) -> InternalError:
    """The report entry of a page lost to a bug: the exception, and the line of ours that
    raised it."""
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        parts = Path(frame.filename).parts
        if "qrelsmith" in parts:
            inside = "/".join(parts[len(parts) - parts[::-1].index("qrelsmith") - 1 :])
            where = f" (at {inside}:{frame.lineno})"
            break
    return InternalError(path=path, error=f"{type(exc).__name__}: {exc}"[:REASON_CHARS] + where)
