"""How hard a query is by word overlap, and the groups `eval --by` and `--subset` report on.

Authors write quick-reference questions with the words of their own section, which favours
word-matching retrievers (the seed says so). The overlap of a query is ``overlap.overlap``
(the share of its matcher units found in its labelled sections), taken here against the
sections graded highest in the qrels being evaluated, which an audit may have corrected since
the build wrote golden.jsonl's. Pure: records in, numbers out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import DataError
from ..labelling.overlap import overlap
from ..models import CorpusRecord, GoldenQuery, Overlap
from ..patterns import LOW_CONFIDENCE
from ..store.buildfolder import Build, Qrels
from ..store.layout import CORPUS, GOLDEN

#: What `eval --by` groups queries by.
GROUPINGS: tuple[str, ...] = ("overlap", "rule", "confidence", "article")

#: The overlap groups: the set's queries in thirds by overlap (ties by qid order), so each
#: group is a third of the set whatever its level; "hard" in --subset is the lowest.
TERCILES: tuple[str, ...] = ("low", "mid", "high")


def overlaps(
    topics: Mapping[str, str], qrels: Qrels, sections: Mapping[str, CorpusRecord]
) -> dict[str, Overlap]:
    """qid -> overlap with its top-graded sections, for queries whose sections are known."""
    found: dict[str, Overlap] = {}
    for qid, judged in qrels.items():
        if qid not in topics or not judged:
            continue
        top = max(judged.values())
        labelled = [sections[d] for d, g in judged.items() if g == top and d in sections]
        if not labelled:
            continue
        shares = overlap(topics[qid], labelled)
        if shares is not None:
            found[qid] = shares
    return found


def tercile_groups(values: Mapping[str, float], order: Sequence[str]) -> dict[str, str]:
    """qid -> low / mid / high: thirds of the queries by value (ties in ``order``)."""
    position = {qid: i for i, qid in enumerate(order)}
    ranked = sorted(values, key=lambda qid: (values[qid], position.get(qid, len(position))))
    groups = {}
    for rank, qid in enumerate(ranked):
        groups[qid] = TERCILES[min(2, rank * 3 // max(len(ranked), 1))]
    return groups


def group_of(
    by: str,
    qids: Sequence[str],
    *,
    topics: Mapping[str, str],
    qrels: Qrels,
    sections: Mapping[str, CorpusRecord],
    golden: Mapping[str, GoldenQuery],
    articles: Mapping[str, str],
    low_confidence: float = LOW_CONFIDENCE,
) -> dict[str, str]:
    """qid -> its group under ``by`` (queries the grouping cannot place are left out)."""
    if by == "overlap":
        shares = overlaps(topics, qrels, sections)
        return tercile_groups({q: shares[q].section for q in qids if q in shares}, qids)
    if by == "rule":
        return {q: golden[q].match for q in qids if q in golden}
    if by == "confidence":
        # "low": below the audit's low_confidence, the labels the audit over-samples
        return {
            q: "low" if golden[q].confidence < low_confidence else "high"
            for q in qids
            if q in golden
        }
    if by == "article":
        return {q: articles.get(q, q) for q in qids}
    raise ValueError(f"unknown grouping {by!r}")


def parse_subset(text: str) -> tuple[str, str]:
    """``hard`` -> (overlap, low); ``rule=fuzzy`` -> (rule, fuzzy); ValueError otherwise."""
    if text == "hard":
        return "overlap", "low"
    by, equals, group = text.partition("=")
    if not equals or by not in GROUPINGS or not group:
        raise ValueError(
            f"a subset is 'hard' or GROUPING=GROUP with GROUPING one of {', '.join(GROUPINGS)}, "
            f"not {text!r}"
        )
    return by, group


def build_groups(by: str, build: Build, folder: str, low_confidence: float) -> dict[str, str]:
    """qid -> group of the build's judged queries under ``by`` (a DataError when the build
    lacks the file the grouping reads)."""
    if by == "overlap" and not build.corpus:
        raise DataError(f"{folder}: --by/--subset overlap needs {CORPUS}")
    if by in ("rule", "confidence") and not build.queries:
        raise DataError(f"{folder}: --by/--subset {by} needs {GOLDEN}")
    return group_of(
        by,
        list(build.qrels),
        topics=build.topics,
        qrels=build.qrels,
        sections=build.sections,
        golden=build.by_qid,
        articles=build.article_ids(),
        low_confidence=low_confidence,
    )


def subset_qrels(
    build: Build, by: str, wanted: str, folder: str, low_confidence: float
) -> tuple[Qrels, str]:
    """The build's judgements of the queries in group ``wanted`` under ``by``, and the
    subset's name (``by=wanted``); a DataError naming the groups there are when it is empty."""
    placed = build_groups(by, build, folder, low_confidence)
    qrels = {qid: judged for qid, judged in build.qrels.items() if placed.get(qid) == wanted}
    if not qrels:
        found = ", ".join(sorted(set(placed.values()))) or "none"
        raise DataError(f"{folder}: no query in --subset {by}={wanted} (groups: {found})")
    return qrels, f"{by}={wanted}"
