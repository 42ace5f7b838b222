"""The pool: unjudged (query, document) pairs the runs retrieve, a sample of them to judge, and
what the verdicts say about how complete the qrels are. Pure functions.

TREC's depth-K pooling: the pool is the union over the runs of each judged query's top-K
documents that have no judgement in the qrels (a build judges its query's own article only,
so every pooled document is another article's section). ``check``'s signals seed it too: the
first run's top hit when it is in another article (``other-article``) and the grade-2 sections
of a nearly identical query of another article (``duplicate``); the pairs they name form the
``check`` stratum, the rest is stratified by best rank (1 / 2-3 / 4-K) and by how many runs
retrieved the pair. ``sample.allocate`` shares the sample out with
``POOL_OVERSAMPLE`` and each row's weight (pairs in its stratum / rows drawn there)
keeps the estimate unbiased for the whole pool, as ``audit sample`` does for the labels.

Within a stratum the pairs drawn are those with the smallest ``sha256(seed, qid, docid)``
(``sample.draw_key``): the same rows on every platform.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..config import PoolOptions
from ..models import (
    BandCompleteness,
    Completeness,
    PoolBand,
    PooledRow,
    PoolRun,
    PoolSample,
    Stratum,
)
from ..store.buildfolder import Build, Qrels
from .sample import allocate, draw_key
from .stats import weighted_proportion

#: How many times more likely a pooled pair is drawn for review (``audit pool``), by what put
#: it in the pool. ``check``: pairs check's signals name (a top hit in another article, a
#: near-duplicate query's section): the seed read 15 other-article top hits and found 3 valid
#: answers, the densest source of missing relevant documents known. Then by best rank: TREC's
#: pools hold most of their relevant documents near the top, so the top hit is drawn three times
#: as often as ranks 4-K and ranks 2-3 twice; the weights keep the estimate unbiased whatever
#: the factors (they only move where the interval is narrow).
POOL_OVERSAMPLE: dict[str, float] = {
    "check": 4.0,
    "rank 1": 3.0,
    "rank 2-3": 2.0,
    "rank 4-K": 1.0,
    "check only": 1.0,
}

#: Pool verdicts and the grade each adds to the qrels (``unsure`` adds nothing): TREC's
#: relevant / partly relevant / judged not relevant (an explicit grade-0 line).
POOL_GRADES: dict[str, int] = {"relevant": 2, "partly": 1, "not": 0}
POOL_VERDICTS: tuple[str, ...] = (*POOL_GRADES, "unsure")
#: The pool verdicts that have an order, lowest first (ordinal alpha of ``audit agree``).
ORDERED_POOL_VERDICTS: tuple[str, ...] = ("not", "partly", "relevant")
#: Verdicts that count as relevant in the completeness estimate (grade 1 or more, as
#: trec_eval's relevance level 1 counts them).
RELEVANT_VERDICTS = frozenset({"relevant", "partly"})

#: Best-rank bands, in report order; ``BAND_CHECK_ONLY``: pairs only check's signals pooled.
BAND_TOP, BAND_NEAR, BAND_DEEP, BAND_CHECK_ONLY = "rank 1", "rank 2-3", "rank 4-K", "check only"
BANDS: tuple[str, ...] = (BAND_TOP, BAND_NEAR, BAND_DEEP, BAND_CHECK_ONLY)
#: The stratum of the pairs check's signals name, drawn first.
CHECK = "check"
#: Pairs whose verdict ``qrelsmith diff`` carried over from an older build: all drawn, on top
#: of the size, weight 1 when the runs pool them, 0 (no part of the estimate) when not.
CARRIED, CARRIED_UNPOOLED = "carried", "carried, not pooled"

#: The signals of ``check`` that name a document for a query.
SIGNAL_OTHER_ARTICLE, SIGNAL_DUPLICATE = "other-article", "duplicate"


@dataclass(frozen=True)
class Candidate:
    """One unjudged pooled pair: the best rank a run gave it (None: only check's signals
    named it), how many runs retrieved it in their top K, and the signals naming it."""

    qid: str
    docid: str
    best_rank: int | None
    runs: int
    signals: tuple[str, ...] = ()


def pair_key(qid: str, docid: str) -> str:
    """One string for a (query, document) pair: TREC ids hold no space."""
    return f"{qid} {docid}"


def split_pair_key(key: str) -> tuple[str, str]:
    """The (query, document) pair of a ``pair_key``."""
    qid, docid = key.split(" ", 1)
    return qid, docid


def band_of(rank: int | None) -> str:
    """The best-rank band of a pooled pair."""
    if rank is None:
        return BAND_CHECK_ONLY
    if rank == 1:
        return BAND_TOP
    return BAND_NEAR if rank <= 3 else BAND_DEEP


def stratum_of(candidate: Candidate) -> str:
    """``check`` for the pairs check's signals name, else the band and the number of runs."""
    if candidate.signals:
        return CHECK
    runs = "run" if candidate.runs == 1 else "runs"
    return f"{band_of(candidate.best_rank)} ({candidate.runs} {runs})"


def pool_candidates(
    qrels: Qrels,
    runs: Sequence[Mapping[str, Sequence[tuple[str, float]]]],
    depth: int,
    doc_ids: Collection[str],
    seeds: Mapping[tuple[str, str], Sequence[str]] | None = None,
) -> list[Candidate]:
    """The pool: each judged query's top ``depth`` documents of every run that the qrels do
    not judge (ids not in the corpus left out), and the ``seeds`` (pair -> signals) that are
    unjudged; in qrels order, then best rank, then docid."""
    best: dict[tuple[str, str], int] = {}
    count: dict[tuple[str, str], int] = {}
    for run in runs:
        for qid, judged in qrels.items():
            for rank, (docid, _) in enumerate(list(run.get(qid, ()))[:depth], 1):
                if docid in judged or docid not in doc_ids:
                    continue
                key = (qid, docid)
                best[key] = min(best.get(key, rank), rank)
                count[key] = count.get(key, 0) + 1
    signals: dict[tuple[str, str], tuple[str, ...]] = {}
    for (qid, docid), named in (seeds or {}).items():
        if qid in qrels and docid not in qrels[qid] and docid in doc_ids:
            signals[(qid, docid)] = tuple(dict.fromkeys(named))
    order = {qid: position for position, qid in enumerate(qrels)}
    keys = sorted(
        best.keys() | signals.keys(),
        key=lambda key: (order[key[0]], best.get(key, depth + 1), key[1]),
    )
    return [
        Candidate(
            qid,
            docid,
            best.get((qid, docid)),
            count.get((qid, docid), 0),
            signals.get((qid, docid), ()),
        )  # fmt: skip
        for qid, docid in keys
    ]


def check_seeds(
    build: Build, run: Mapping[str, list[tuple[str, float]]]
) -> dict[tuple[str, str], list[str]]:
    """The pairs ``check``'s signals name: the run's top hit in another article, and each
    grade-2 section of a nearly identical query of another article (both ways)."""
    from ..evaluate.check import duplicate_pairs, other_article_hits  # sklearn: when used

    seeds: dict[tuple[str, str], list[str]] = {}
    for qid, docid in other_article_hits(build, dict(run)).items():
        seeds.setdefault((qid, docid), []).append(SIGNAL_OTHER_ARTICLE)
    for first, second, _ in duplicate_pairs(build.topics):
        for qid, twin in ((first, second), (second, first)):
            query = build.by_qid.get(twin)
            for docid in query.relevant if query is not None else ():
                seeds.setdefault((qid, docid), []).append(SIGNAL_DUPLICATE)
    return seeds


def draw_pool(
    candidates: Sequence[Candidate],
    size: int,
    seed: int,
    *,
    every: bool = False,
    carried: Collection[tuple[str, str]] = (),
    oversample: Mapping[str, float] = POOL_OVERSAMPLE,
) -> tuple[dict[str, Stratum], list[PooledRow]]:
    """Draw ``size`` pairs (every one with ``every``), stratified (``stratum_of``), the
    strata over-sampled by their band's factor; the ``carried`` pairs all, on top.

    Rows come query by query (queries in the seed's order), a query's pairs best rank first.
    """
    members: dict[str, list[Candidate]] = {}
    order: dict[str, tuple[int, int]] = {}  # check first, then by band, then by runs
    carried_set = set(carried)
    priority: list[Candidate] = []
    for candidate in candidates:
        if (candidate.qid, candidate.docid) in carried_set:
            priority.append(candidate)
            continue
        name = stratum_of(candidate)
        members.setdefault(name, []).append(candidate)
        band = BANDS.index(band_of(candidate.best_rank))
        order[name] = (-1, 0) if name == CHECK else (band, candidate.runs)
    names = sorted(members, key=order.__getitem__)
    populations = {name: len(members[name]) for name in names}
    factors = {
        name: oversample.get(CHECK if name == CHECK else BANDS[order[name][0]], 1.0)
        for name in names
    }
    counts = dict(populations) if every else allocate(populations, max(size, 0), factors)
    strata = {name: Stratum(population=populations[name], sampled=counts[name]) for name in names}
    rows: list[PooledRow] = []
    for name in names:
        group = members[name]
        chosen = sorted(group, key=lambda c: draw_key(seed, pair_key(c.qid, c.docid)))
        weight = len(group) / counts[name] if counts[name] else 0.0
        rows.extend(_row(candidate, name, weight) for candidate in chosen[: counts[name]])
    pooled = {(c.qid, c.docid) for c in priority}
    unpooled = sorted(carried_set - pooled)
    if priority:
        strata[CARRIED] = Stratum(population=len(priority), sampled=len(priority))
        rows.extend(_row(candidate, CARRIED, 1.0) for candidate in priority)
    if unpooled:
        strata[CARRIED_UNPOOLED] = Stratum(population=0, sampled=len(unpooled))
        rows.extend(_row(Candidate(q, d, None, 0), CARRIED_UNPOOLED, 0.0) for q, d in unpooled)
    rows.sort(
        key=lambda row: (
            draw_key(seed, row.qid),
            row.best_rank or 0,
            row.best_rank is None,
            row.docid,
        )  # fmt: skip
    )
    return strata, rows


def _row(candidate: Candidate, stratum: str, weight: float) -> PooledRow:
    return PooledRow(
        qid=candidate.qid,
        docid=candidate.docid,
        stratum=stratum,
        weight=weight,
        best_rank=candidate.best_rank,
        runs=candidate.runs,
        signals=list(candidate.signals),
    )


def band_sizes(candidates: Iterable[Candidate]) -> dict[str, int]:
    """Pooled pairs per best-rank band (bands with none left out), in ``BANDS`` order."""
    sizes = {band: 0 for band in BANDS}
    for candidate in candidates:
        sizes[band_of(candidate.best_rank)] += 1
    return {band: n for band, n in sizes.items() if n}


def runs_id(run_sha256: Sequence[str], depth: int) -> str:
    """A short digest of the runs (their bytes' sha256, in any order) and the depth: the pool
    sheet's ``runs`` cell, so a sheet drawn from other runs is refused."""
    text = "\n".join([str(depth), *sorted(run_sha256)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def build_id(golden_sha256: str, qrels_sha256: str) -> str:
    """A short digest of golden.jsonl and qrels.trec (what the pool leaves out): the pool
    sheet's ``build`` cell, so a sheet of another build is refused."""
    return hashlib.sha256(f"{golden_sha256}\n{qrels_sha256}".encode()).hexdigest()[:16]


def draw_pool_sample(
    candidates: Sequence[Candidate],
    options: PoolOptions,
    *,
    every: bool = False,
    carried: Collection[tuple[str, str]] = (),
    build: str = "",
    golden_sha256: str = "",
    runs: Sequence[PoolRun] = (),
    pool_round: int = 1,
) -> PoolSample:
    """``draw_pool`` with ``options`` (size, seed, depth), as ``audit/pool.json`` records it:
    ``build`` (``build_id``) and the runs' hashes tie its sheet to what it was drawn from;
    ``pool_round`` is its round (``store.versions.pool_round``)."""
    strata, rows = draw_pool(candidates, options.size, options.seed, every=every, carried=carried)
    return PoolSample(
        seed=options.seed,
        depth=options.depth,
        size=options.size,
        round=pool_round,
        all=every,
        build=build,
        runs_id=runs_id([run.sha256 for run in runs], options.depth),
        golden_sha256=golden_sha256,
        runs=list(runs),
        pool_size=len(candidates),
        strata=strata,
        bands={
            band: PoolBand(
                population=n,
                sampled=sum(1 for row in rows if row.weight and band_of(row.best_rank) == band),
            )
            for band, n in band_sizes(candidates).items()
        },
        rows=rows,
    )


def _round_shown(number: int) -> str:
    """`` (round N)`` past the first round: a first round's lines read as before rounds."""
    return f" (round {number})" if number > 1 else ""


def pool_summary(pool: PoolSample) -> str:
    """One line for people: what was drawn, from how big a pool, by stratum."""
    shown = ", ".join(f"{name} {s.sampled}/{s.population}" for name, s in pool.strata.items())
    runs = "run" if len(pool.runs) == 1 else "runs"
    return (
        f"audit pool{_round_shown(pool.round)}: {len(pool.rows)} of {pool.pool_size} unjudged "
        "pooled pairs (depth "
        f"{pool.depth}, {len(pool.runs)} {runs}, seed {pool.seed}; {shown or 'empty pool'})"
    )


# --------------------------------------------------------------------------- completeness


def completeness(
    pool: PoolSample, verdicts: Mapping[tuple[str, str], str], runs: Sequence[str]
) -> Completeness:
    """The share of the pool's unjudged pairs that are relevant (relevant or partly), overall
    and per best-rank band, each decided row weighing (pairs in its stratum / decided rows
    there); Wilson intervals at Kish's effective n (``stats.weighted_proportion``); and the
    relevant pairs missing from the qrels, population x share."""
    decided = [
        row
        for row in pool.rows
        if verdicts.get((row.qid, row.docid)) in POOL_GRADES and pool.strata[row.stratum].population
    ]
    per_stratum: dict[str, int] = {}
    for row in decided:
        per_stratum[row.stratum] = per_stratum.get(row.stratum, 0) + 1
    weight = {name: pool.strata[name].population / n for name, n in per_stratum.items()}

    def band(rows: Sequence[PooledRow], population: int) -> BandCompleteness:
        share = weighted_proportion(
            (weight[row.stratum], verdicts[(row.qid, row.docid)] in RELEVANT_VERDICTS)
            for row in rows
        )
        return BandCompleteness(
            population=population,
            relevant=share,
            missing=population * share.value if share.n else 0.0,
            missing_low=population * share.low,
            missing_high=population * share.high,
        )

    given = [verdicts.get((row.qid, row.docid)) for row in pool.rows]
    return Completeness(
        depth=pool.depth,
        round=pool.round,
        runs=list(runs),
        overall=band(decided, pool.pool_size),
        bands={
            name: band([row for row in decided if band_of(row.best_rank) == name], sizes.population)
            for name, sizes in pool.bands.items()
        },
        decided=sum(1 for v in given if v in POOL_GRADES),
        unsure=sum(1 for v in given if v == "unsure"),
        open_rows=sum(1 for v in given if v is None),
    )


def completeness_lines(found: Completeness) -> list[str]:
    """The completeness table for people."""
    out = [
        f"completeness of the qrels{_round_shown(found.round)}: unjudged pairs in the runs' "
        f"top {found.depth} judged "
        f"relevant or partly, 95% Wilson interval (weighted; {found.decided} decided, "
        f"{found.unsure} unsure, {found.open_rows} open)",
    ]
    rows = [("overall", found.overall), *found.bands.items()]
    for name, figures in rows:
        missing = (
            f"missing relevant about {figures.missing:.1f} "
            f"[{figures.missing_low:.1f}, {figures.missing_high:.1f}]"
            if figures.relevant.n
            else "no decided row"
        )
        out.append(
            f"  {name:<11} pool {figures.population:>5}  {figures.relevant}  "
            f"n={figures.relevant.n}  {missing}"
        )
    return out
