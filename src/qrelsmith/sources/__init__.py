"""The query sources: where in an article an author wrote a question and its answer.

A plain dict registry, as ``export.EXPORTERS`` is: ``SOURCES[kind]`` is a ``Source``, read in
the order ``[build] sources`` (``--sources``) names them. Each works in two steps:

- ``find``, on the parsed page before it is split into sections: the source reads what it
  needs from the tree (and removes what must not reach a section: a table holds the answers,
  a FAQ page's questions must not leak into its documents) and returns a ``Found``;
- ``queries``, on the Article: its candidates become ``GoldenQuery`` records (labelled, with
  a rule and a confidence) or ``Rejected`` ones, with a reason.

``table`` is the quick-reference table (``sources/table.py``), ``faq`` the question/answer
pairs of FAQ sections, FAQ pages and FAQPage markup (``sources/faq.py``). A new source is a
module with a ``SOURCE`` and a line here.
"""

from __future__ import annotations

from ..errors import UsageError
from . import faq, table
from .base import Found, PageContext, Source

#: Every query source, by kind (``[build] sources`` names them).
SOURCES: dict[str, Source] = {
    table.SOURCE.kind: table.SOURCE,
    faq.SOURCE.kind: faq.SOURCE,
}


def check_sources(kinds: list[str]) -> None:
    """UsageError naming the first of ``kinds`` that is no source (``--sources``, ``[build]
    sources``)."""
    unknown = [kind for kind in kinds if kind not in SOURCES]
    if unknown:
        raise UsageError(f"unknown source {unknown[0]!r} (sources: {', '.join(SOURCES)})")


__all__ = ["SOURCES", "Found", "PageContext", "Source", "check_sources"]
