"""Draw the audit sample: stratified, seeded, reproducible; read ``audit/sample.json`` back.

Rows whose label is most likely wrong are over-represented: labels whose confidence is below
``low_confidence`` (any rule), the other fuzzy and order matches, and references naming several
sections. Each sampled row records its
weight (queries in its stratum / rows drawn from it), so the weighted precision stays unbiased
for the whole golden set.

Within a stratum the rows drawn are those with the smallest ``sha256(seed, qid)``: a uniform
draw without replacement that gives the same rows on every platform and Python version, and
keeps most of the sample when a rebuild adds or removes a few queries.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Collection, Mapping, Sequence

from ..config import AuditOptions
from ..errors import DataError
from ..models import TABLE_SOURCE, AuditSample, GoldenQuery, SampledRow, Stratum
from ..patterns import GUESSED_RULES, OVERSAMPLE, PLANNING_PRECISION
from ..store.buildfolder import Build, read_document
from ..store.layout import AUDIT_FOLDER, AUDIT_SAMPLE, GOLDEN, article_of
from .stats import effective_size, wilson_half_width

#: The drawn sample, in ``DIR/audit/``: written last, after the sheets it describes.

#: Strata, each query in the first that fits it. ``content``: a label the sections' text
#: decided where the headings did not (rule ``content``), the newest and least proven rule;
#: ``low_confidence``: a label below the configured confidence, whatever its rule; ``fuzzy``:
#: the other fuzzy and order matches; ``multi``: several named sections (the seed's missed
#: "A／B" label); ``plain``: one section found by anchor, exact or contains. Named, in this
#: order, by ``patterns.OVERSAMPLE``.
STRATA: tuple[str, ...] = tuple(OVERSAMPLE)

#: Strata of ``draw_sample``'s priority rows: queries to review again after a change of the
#: site (drawn first), and queries whose carried-over verdict is already known.
REREVIEW = "rereview"
CARRIED = "carried"


def planned_half_width(sample: AuditSample, precision: float = PLANNING_PRECISION) -> float:
    """The 95% half-width the weighted precision will have if the labels are this precise."""
    return wilson_half_width(precision, effective_size(row.weight for row in sample.rows))


def sample_summary(sample: AuditSample) -> str:
    """One line for people: size, strata, and the interval half-width to expect."""
    strata = ", ".join(
        f"{name} {s.sampled}/{s.population}" for name, s in sample.strata.items() if s.population
    )
    return (
        f"audit sample: {len(sample.rows)} queries (seed {sample.seed}; {strata}); "
        f"95% interval half-width about ±{planned_half_width(sample):.3f} "
        f"if precision is near {PLANNING_PRECISION:.2f}, "
        f"±{planned_half_width(sample, 0.5):.3f} at worst"
    )


def stratum_of(query: GoldenQuery, low_confidence: float) -> str:
    """The stratum a query belongs to (the first of STRATA that fits); a query of another
    source than the table is in its source's stratum ("faq"), whose precision is its own."""
    if query.kind != TABLE_SOURCE:
        return query.kind
    if query.match == "content":
        return "content"
    if query.confidence < low_confidence:
        return "low_confidence"
    if query.match in GUESSED_RULES:
        return "fuzzy"
    if len(query.relevant) > 1:
        return "multi"
    return "plain"


def allocate(
    populations: Mapping[str, int], size: int, oversample: Mapping[str, float] = OVERSAMPLE
) -> dict[str, int]:
    """Rows to draw per stratum: ``size`` shared in proportion to population x ``oversample``.

    A stratum never gets more rows than it has; what it cannot take goes to the others. Every
    non-empty stratum gets at least one row when ``size`` allows. Deterministic.
    """
    total = sum(populations.values())
    if size >= total:
        return dict(populations)
    taken: dict[str, int] = {}
    open_strata = [name for name in populations if populations[name] > 0]
    left = size
    while True:
        shares = {name: populations[name] * oversample.get(name, 1.0) for name in open_strata}
        scale = left / sum(shares.values()) if shares else 0.0
        full = [name for name in open_strata if shares[name] * scale >= populations[name]]
        if not full:
            break
        for name in full:
            taken[name] = populations[name]
            left -= populations[name]
            open_strata.remove(name)
    exact = {name: shares[name] * scale for name in open_strata}
    for name in open_strata:
        taken[name] = math.floor(exact[name])
    remainder = left - sum(taken[name] for name in open_strata)
    by_fraction = sorted(open_strata, key=lambda name: (taken[name] - exact[name], _rank(name)))
    for name in by_fraction[:remainder]:
        taken[name] += 1
    for name in open_strata:
        if taken[name] == 0 and left >= len(open_strata):
            donor = max(open_strata, key=lambda other: (taken[other], -_rank(other)))
            taken[donor] -= 1
            taken[name] = 1
    return {name: taken.get(name, 0) for name in populations}


def _rank(name: str) -> int:
    """Position of a stratum in STRATA (unknown names last), to break ties the same way always."""
    return STRATA.index(name) if name in STRATA else len(STRATA)


def draw_key(seed: int, qid: str) -> str:
    """The seeded pseudo-random rank of a query: smaller is drawn first."""
    return hashlib.sha256(f"{seed}\x00{qid}".encode()).hexdigest()


def draw_sample(
    queries: Sequence[GoldenQuery],
    options: AuditOptions,
    golden_sha256: str = "",
    *,
    first: Collection[str] = (),
    judged: Collection[str] = (),
) -> AuditSample:
    """Draw ``options.size`` queries, stratified by ``options.low_confidence`` and weighted
    (``options.oversample``); rows in the order ``options.seed`` gives.

    ``first``: queries to draw before any other (``qrelsmith diff``'s re-review list), in a
    stratum of their own, all of them when the size allows. ``judged``: queries whose verdict
    is already known (carried over by ``diff``): all drawn, in a stratum of their own, on top
    of the size (they cost the reviewer nothing). Both strata appear only when not empty, and
    every stratum's weight keeps the precision estimate unbiased.
    """
    size, seed, low_confidence = options.size, options.seed, options.low_confidence
    members: dict[str, list[GoldenQuery]] = {name: [] for name in STRATA}
    priority: dict[str, list[GoldenQuery]] = {REREVIEW: [], CARRIED: []}
    for query in queries:
        if query.qid in first:
            priority[REREVIEW].append(query)
        elif query.qid in judged:
            priority[CARRIED].append(query)
        else:
            members.setdefault(stratum_of(query, low_confidence), []).append(query)
    size = max(size, 0)
    fixed = {
        REREVIEW: min(len(priority[REREVIEW]), size),
        CARRIED: len(priority[CARRIED]),
    }
    counts = allocate(
        {name: len(group) for name, group in members.items()},
        size - fixed[REREVIEW],
        options.oversample,
    )
    for name, group in priority.items():
        if group:
            members[name] = group
            counts[name] = fixed[name]
    rows: list[SampledRow] = []
    for name, group in members.items():
        chosen = sorted(group, key=lambda query: draw_key(seed, query.qid))[: counts[name]]
        weight = len(group) / counts[name] if counts[name] else 0.0
        rows.extend(SampledRow(qid=query.qid, stratum=name, weight=weight) for query in chosen)
    # Queries to review again come first on the sheet; the rest in the seeded order.
    rows.sort(key=lambda row: (row.stratum != REREVIEW, draw_key(seed, row.qid)))
    return AuditSample(
        seed=seed,
        size=size,
        low_confidence=low_confidence,
        golden_sha256=golden_sha256,
        strata={
            name: Stratum(population=len(group), sampled=counts[name])
            for name, group in members.items()
        },
        rows=rows,
    )


def load_sample(build: Build) -> AuditSample:
    """Read ``audit/sample.json`` and check it was drawn from this build's golden.jsonl."""
    path = build.folder / AUDIT_FOLDER / AUDIT_SAMPLE
    if not path.is_file():
        raise DataError(
            f"no audit sample in {path.parent} (run 'qrelsmith audit sample {build.folder}')"
        )
    sample = read_document(path, AuditSample, "an audit sample")
    if sample.golden_sha256 != build.golden_sha256:
        raise DataError(
            f"{path} was drawn from another golden.jsonl (the build changed since): "
            "draw a new sample"
        )
    unknown = [row.qid for row in sample.rows if row.qid not in build.by_qid]
    if unknown:
        raise DataError(f"{path}: qid {unknown[0]!r} is not in {GOLDEN}")
    return sample


def articles_of(sample: AuditSample) -> set[str]:
    """The articles a sample's queries come from."""
    return {article_of(row.qid) for row in sample.rows}
