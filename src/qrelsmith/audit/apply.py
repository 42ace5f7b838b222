"""Apply verdicts: label precision, and a corrected golden set in a new version folder.

``review`` is pure (verdicts -> consensus, precision, corrected queries, changelog);
``write_version`` puts the result into ``DIR/versions/vN/`` (``store/versions.py``: the whole
version appears or nothing does). The build itself is never touched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..labelling.labels import named, same_article_count
from ..labelling.overlap import overlap
from ..models import (
    AuditSample,
    ChangeAction,
    ChangelogEntry,
    Completeness,
    Estimate,
    GoldenQuery,
    PrecisionSummary,
    ReviewSummary,
)
from ..store.buildfolder import Build
from ..store.versions import add_version
from .pool import POOL_GRADES, completeness_lines
from .stats import weighted_proportion
from .verdicts import Review, Verdict

#: Flags a reviewed query may carry in the corrected golden.jsonl.
FLAG_CORRECTED = "corrected"
FLAG_UNSURE = "unsure"
#: Every reviewer judged the label wrong (or every one partly right) but they named different
#: sections: the verdict counts for precision, the label is kept as it was and flagged.
FLAG_DISPUTED = "disputed-correction"


@dataclass(frozen=True)
class Precision:
    """Label precision: overall (weighted) and per match rule; strict counts 'correct' only,
    lenient counts 'partly' as right too. Unsure and open rows are left out; a row whose
    verdict every reviewer shared but whose correct sections they disputed is decided."""

    overall: Estimate
    lenient: Estimate
    by_rule: dict[str, Estimate]
    decided: int
    unsure: int
    open_rows: int
    uncovered: list[str]
    disputed: int = 0

    def lines(self) -> list[str]:
        """The precision table for people."""
        out = [
            "label precision, 95% Wilson interval (weighted by sampling weight; "
            f"{self.decided} decided, {self.unsure} unsure, {self.open_rows} open)",
            f"  overall              {self.overall}",
            f"  overall, partly=ok   {self.lenient}",
        ]
        out += [
            f"  {rule:<20} {estimate}  n={estimate.n}" for rule, estimate in self.by_rule.items()
        ]
        if self.uncovered:
            out.append(
                f"  note: no decided row in stratum {', '.join(self.uncovered)}; "
                "the overall figure leaves those queries out"
            )
        if self.disputed:
            out.append(
                f"  note: {self.disputed} decided {'row' if self.disputed == 1 else 'rows'} "
                "that every reviewer judged alike but with different correct sections: "
                f"label kept, flagged {FLAG_DISPUTED!r}"
            )
        return out


@dataclass(frozen=True)
class Outcome:
    """Everything ``audit apply`` computes before writing: ``precision`` from label sheets,
    ``completeness`` from pool sheets (None without such sheets)."""

    precision: Precision | None
    queries: list[GoldenQuery]
    changes: list[ChangelogEntry]
    completeness: Completeness | None = None


#: Verdicts whose correct sections say how to fix the label.
_CORRECTING = ("wrong", "partly")


def consensus(reviews: Sequence[Review]) -> dict[str, Verdict]:
    """One verdict per qid from the reviewers who judged it.

    - Same verdict (and, for wrong / partly, the same correct sections): that verdict.
    - Same wrong / partly verdict, different sections: that verdict (it counts for precision)
      with ``disputed`` set and no sections, so the label is kept and flagged, not corrected.
    - Different verdicts: 'unsure', noting who said what.
    """
    merged: dict[str, Verdict] = {}
    qids = {qid for review in reviews for qid in review.verdicts}
    for qid in sorted(qids):
        given = [(r.reviewer, r.verdicts[qid]) for r in reviews if qid in r.verdicts]
        first = given[0][1]
        notes = " / ".join(v.note for _, v in given if v.note)
        if any(v.verdict != first.verdict for _, v in given):
            said = "; ".join(f"{who}: {v.verdict}" for who, v in given)
            merged[qid] = Verdict(first.where, qid, "unsure", None, f"reviewers disagree ({said})")
        elif first.verdict not in _CORRECTING or all(
            v.sections == first.sections for _, v in given
        ):
            merged[qid] = Verdict(first.where, qid, first.verdict, first.sections, notes)
        else:
            said = "; ".join(f"{who}: {' | '.join(v.sections or ()) or 'none'}" for who, v in given)
            merged[qid] = Verdict(
                first.where,
                qid,
                first.verdict,
                None,
                f"reviewers agree on {first.verdict!r} but name different sections ({said})",
                disputed=True,
            )
    return merged


def precision(verdicts: dict[str, Verdict], build: Build, sample: AuditSample) -> Precision:
    """Weighted precision: each decided row weighs (queries in its stratum / decided rows there)."""
    decided = {
        row.qid: row.stratum
        for row in sample.rows
        if row.qid in verdicts and verdicts[row.qid].verdict != "unsure"
    }
    per_stratum = {name: 0 for name in sample.strata}
    for stratum in decided.values():
        per_stratum[stratum] += 1
    weight = {
        name: sample.strata[name].population / count for name, count in per_stratum.items() if count
    }
    rows = [(qid, weight[stratum], verdicts[qid].verdict) for qid, stratum in decided.items()]
    by_rule: dict[str, Estimate] = {}
    for rule in sorted({build.by_qid[qid].match for qid, _, _ in rows}):
        by_rule[rule] = weighted_proportion(
            (w, v == "correct") for qid, w, v in rows if build.by_qid[qid].match == rule
        )
    return Precision(
        overall=weighted_proportion((w, v == "correct") for _, w, v in rows),
        lenient=weighted_proportion((w, v in ("correct", "partly")) for _, w, v in rows),
        by_rule=by_rule,
        decided=len(rows),
        unsure=sum(1 for v in verdicts.values() if v.verdict == "unsure"),
        disputed=sum(1 for qid in decided if verdicts[qid].disputed),
        open_rows=len(sample.rows) - len(verdicts),
        uncovered=[
            name for name, s in sample.strata.items() if s.population and not per_stratum[name]
        ],
    )


def correct(
    build: Build, verdicts: dict[str, Verdict]
) -> tuple[list[GoldenQuery], list[ChangelogEntry]]:
    """The golden queries with the verdicts applied (in golden order), and what changed."""
    queries: list[GoldenQuery] = []
    changes: list[ChangelogEntry] = []
    for query in build.queries:
        verdict = verdicts.get(query.qid)
        if verdict is None or verdict.verdict == "correct":
            queries.append(query)
            continue
        before = list(query.relevant)
        if verdict.verdict == "unsure" or verdict.disputed:
            flag = FLAG_DISPUTED if verdict.disputed else FLAG_UNSURE
            flags = query.flags if flag in query.flags else [*query.flags, flag]
            queries.append(query.model_copy(update={"flags": flags}))
            changes.append(_change(query.qid, "flagged", verdict, before, before))
            continue
        after = list(verdict.sections or ())
        if not after:
            changes.append(_change(query.qid, "removed", verdict, before, []))
            continue
        article_size = len(build.sections_of(query.qid))
        flags = query.flags if FLAG_CORRECTED in query.flags else [*query.flags, FLAG_CORRECTED]
        labelled = [build.sections[sid] for sid in after if sid in build.sections]
        queries.append(
            query.model_copy(
                update={
                    "relevant": named(after),
                    "same_article": same_article_count(article_size, after),
                    "flags": flags,
                    # the overlap is with the corrected sections
                    "overlap": overlap(query.query, labelled) if labelled else None,
                }
            )
        )
        changes.append(_change(query.qid, "replaced", verdict, before, after))
    return queries, changes


def _change(
    qid: str, action: ChangeAction, verdict: Verdict, before: list[str], after: list[str]
) -> ChangelogEntry:
    return ChangelogEntry(
        qid=qid,
        action=action,
        verdict=verdict.verdict,
        before=before,
        after=after,
        note=verdict.note,
        where=verdict.where,
    )


def review(build: Build, sample: AuditSample, reviews: Sequence[Review]) -> Outcome:
    """Precision and corrections from the reviewers' (merged) verdicts."""
    verdicts = consensus(reviews)
    queries, changes = correct(build, verdicts)
    return Outcome(precision(verdicts, build, sample), queries, changes)


def add_judgements(
    build: Build,
    queries: Sequence[GoldenQuery],
    verdicts: Mapping[str, Verdict],
    pairs: Mapping[str, tuple[str, str]],
) -> tuple[list[GoldenQuery], list[ChangelogEntry]]:
    """The queries with the pool's verdicts added to their ``judged`` documents (relevant 2,
    partly 1, not 0; unsure nothing), in corpus order, and one changelog entry for each.
    ``verdicts`` are merged (``consensus``) and keyed by ``pool.pair_key``, ``pairs`` gives
    each key's (qid, docid). A query an applied label verdict removed gets none."""
    given: dict[str, dict[str, Verdict]] = {}
    for key, verdict in verdicts.items():
        if verdict.verdict in POOL_GRADES:
            qid, docid = pairs[key]
            given.setdefault(qid, {})[docid] = verdict
    position = {record.id: number for number, record in enumerate(build.corpus)}
    out: list[GoldenQuery] = []
    changes: list[ChangelogEntry] = []
    for query in queries:
        found = given.get(query.qid)
        if not found:
            out.append(query)
            continue
        judged = dict(query.judged)
        for docid in sorted(found, key=lambda docid: position.get(docid, len(position))):
            verdict = found[docid]
            judged[docid] = POOL_GRADES[verdict.verdict]
            changes.append(
                ChangelogEntry(
                    qid=query.qid,
                    action="judged",
                    verdict=verdict.verdict,
                    before=[],
                    after=[],
                    note=verdict.note,
                    where=verdict.where,
                    docid=docid,
                    grade=judged[docid],
                )
            )
        ordered = sorted(judged.items(), key=lambda item: position.get(item[0], len(position)))
        out.append(query.model_copy(update={"judged": dict(ordered)}))
    return out, changes


def _changes_md(outcome: Outcome, sources: Sequence[str]) -> str:
    lines = ["# Changes from the audit", "", f"Verdicts: {', '.join(sources)}", ""]
    if outcome.precision is not None:
        lines += [f"    {line}" for line in outcome.precision.lines()]
        lines.append("")
    if outcome.completeness is not None:
        lines += [f"    {line}" for line in completeness_lines(outcome.completeness)]
        lines.append("")
    for change in outcome.changes or []:
        if change.action == "judged":
            lines.append(
                f"- `{change.qid}` judged ({change.verdict}): `{change.docid}` grade "
                f"{change.grade}" + (f" — {change.note}" if change.note else "")
            )
            continue
        after = ", ".join(change.after) or "(query removed)"
        lines.append(
            f"- `{change.qid}` {change.action} ({change.verdict}): "
            f"{', '.join(change.before)} -> {after}" + (f" — {change.note}" if change.note else "")
        )
    if not outcome.changes:
        lines.append("No label changed.")
    return "\n".join(lines) + "\n"


def write_version(
    build: Build, outcome: Outcome, sources: Sequence[str], sha256: Sequence[str] = ()
) -> Path:
    """Write the corrected golden set, corpus copy and changelog into a new version folder;
    ``sha256``: the verdict files' hashes, in ``sources`` order (recorded in review.json)."""
    summary = ReviewSummary(
        verdict_files=list(sources),
        verdict_sha256=list(sha256),
        golden_sha256=build.golden_sha256,
        precision=(
            PrecisionSummary(
                overall=outcome.precision.overall,
                lenient=outcome.precision.lenient,
                by_rule=outcome.precision.by_rule,
            )
            if outcome.precision is not None
            else None
        ),
        changes=len(outcome.changes),
        completeness=outcome.completeness,
    )
    return add_version(
        build, outcome.queries, outcome.changes, _changes_md(outcome, sources), summary
    )
