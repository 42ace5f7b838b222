"""Labels + the article's sections -> each query's word overlap with its labelled sections.

Authors write quick-reference questions with the words of their own section, which favours
word-matching retrievers (the seed says so). A query's overlap is the share of its distinct
comparison units (``text.units``: the matcher's units -- Latin light stems, CJK and Hangul
bigrams) found in the units of its labelled sections: in their headings, in their text, and in
either (``models.Overlap``). A pure stage after matching: golden.jsonl records it per query,
report.json its distribution, ``eval --by overlap`` groups queries by it.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from ..models import GoldenQuery, Overlap, OverlapReport, OverlapShares
from ..patterns import OVERLAP_BANDS, OVERLAP_DECIMALS
from ..text import units


class Labelled(Protocol):
    """What a labelled section offers: a section or a corpus record."""

    @property
    def id(self) -> str: ...
    @property
    def heading(self) -> str: ...
    @property
    def text(self) -> str: ...


def overlap(
    query: str,
    sections: Sequence[Labelled],
    units_of: Callable[[str], Iterable[str]] = units,
) -> Overlap | None:
    """The query's overlap with ``sections``; None when the query has no unit."""
    wanted = set(units(query))
    if not wanted:
        return None
    heading = {u for section in sections for u in units_of(section.heading)}
    text = {u for section in sections for u in units_of(section.text)}
    size = len(wanted)
    return Overlap(
        heading=round(len(wanted & heading) / size, OVERLAP_DECIMALS),
        text=round(len(wanted & text) / size, OVERLAP_DECIMALS),
        section=round(len(wanted & (heading | text)) / size, OVERLAP_DECIMALS),
    )


def with_overlap(queries: Sequence[GoldenQuery], sections: Sequence[Labelled]) -> list[GoldenQuery]:
    """The queries with their ``overlap`` against the sections they name."""
    by_id = {section.id: section for section in sections}
    cache: dict[str, frozenset[str]] = {}

    def units_of(text: str) -> frozenset[str]:  # a section labels several rows of a table
        found = cache.get(text)
        if found is None:
            found = cache[text] = frozenset(units(text))
        return found

    out = []
    for query in queries:
        labelled = [by_id[sid] for sid in query.relevant if sid in by_id]
        shares = overlap(query.query, labelled, units_of) if labelled else None
        out.append(query if shares is None else query.model_copy(update={"overlap": shares}))
    return out


def band(share: float) -> str:
    """The named band (``patterns.OVERLAP_BANDS``) a share falls in."""
    return next(name for name, bound in OVERLAP_BANDS if share < bound)


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (``statistics.quantiles``' inclusive way)."""
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def shares_summary(values: Sequence[float]) -> OverlapShares:
    """Quartiles, mean and band counts of one share over the queries (zeros when none)."""
    bands = dict.fromkeys((name for name, _ in OVERLAP_BANDS), 0)
    for value in values:
        bands[band(value)] += 1
    if not values:
        return OverlapShares(min=0, q1=0, median=0, q3=0, max=0, mean=0, bands=bands)
    ordered = sorted(values)

    def figure(value: float) -> float:
        return round(value, OVERLAP_DECIMALS)

    return OverlapShares(
        min=figure(ordered[0]),
        q1=figure(_quantile(ordered, 0.25)),
        median=figure(_quantile(ordered, 0.5)),
        q3=figure(_quantile(ordered, 0.75)),
        max=figure(ordered[-1]),
        mean=figure(statistics.fmean(ordered)),
        bands=bands,
    )


def overlap_report(
    heading: Sequence[float], text: Sequence[float], section: Sequence[float], without: int
) -> OverlapReport:
    """report.json's ``overlap``: the three shares' distributions over the queries."""
    return OverlapReport(
        queries=len(section),
        without_units=without,
        heading=shares_summary(heading),
        text=shares_summary(text),
        section=shares_summary(section),
    )


def queries_overlap(queries: Sequence[GoldenQuery]) -> OverlapReport | None:
    """``overlap_report`` of a golden set's own queries (a reviewed version's, whose labels
    and so overlaps may differ from the build's); None when no query records one (a set from
    a build older than the overlap fields)."""
    shares = [q.overlap for q in queries if q.overlap is not None]
    if not shares:
        return None
    return overlap_report(
        [s.heading for s in shares],
        [s.text for s in shares],
        [s.section for s in shares],
        len(queries) - len(shares),
    )
