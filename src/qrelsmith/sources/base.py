"""What every query source is: the two steps a build runs it through (``sources/__init__``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..config import BuildOptions
from ..models import (
    Article,
    Candidate,
    GoldenQuery,
    QuickRefTable,
    Rejected,
    Section,
    SourceNote,
    TableMiss,
)
from ..page.parse import Element


@dataclass
class PageContext:
    """What a source's ``find`` reads: the article root of a parsed page and its setting."""

    root: Element
    article_id: str
    title: str
    options: BuildOptions
    #: The page's UTF-8 bytes (``ParsedPage.raw``): a source looks for its markers in them
    #: before it walks the tree; empty: walk it.
    raw: bytes = b""


@dataclass
class Found:
    """What a source found on one page (the table source fills ``table`` or ``table_miss``,
    the others ``candidates``); ``documents`` are corpus documents the source made (a FAQ
    page's answers), added after the article's sections."""

    table: QuickRefTable | None = None
    table_miss: TableMiss | None = None
    candidates: list[Candidate] = field(default_factory=list)
    notes: list[SourceNote] = field(default_factory=list)
    documents: list[Section] = field(default_factory=list)


class Source(Protocol):
    """A query source: finds candidates on a page, turns an article's into queries."""

    @property
    def kind(self) -> str:
        """Its name in ``[build] sources``, query ids and report.json."""
        ...

    @property
    def looks_for(self) -> str:
        """What it found none of, in words, for a build that yields no query."""
        ...

    def find(self, page: PageContext) -> Found:
        """Candidates of the page (may remove elements of ``page.root`` they hold)."""
        ...

    def queries(
        self, article: Article, options: BuildOptions
    ) -> tuple[list[GoldenQuery], list[Rejected]]:
        """The article's candidates of this source as queries or rejected ones."""
        ...
