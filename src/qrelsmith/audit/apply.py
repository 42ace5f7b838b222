"""Apply verdicts: label precision, and a corrected golden set in a new version folder.

``review`` is pure (verdicts -> precision, corrected queries, changelog); ``write_version`` puts
the result into ``DIR/versions/vN/`` through a temporary folder renamed into place, so either
the whole version appears or nothing does. The build itself is never touched.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import DataError
from ..export import write_golden_set
from ..labelling.labels import named, same_article_count
from ..labelling.overlap import overlap
from ..models import (
    AuditSample,
    ChangeAction,
    ChangelogEntry,
    Estimate,
    GoldenQuery,
    PrecisionSummary,
    ReviewSummary,
)
from ..store import layout
from ..store.buildfolder import Build, read_document
from ..store.files import write_json, write_jsonl, write_text
from .stats import weighted_proportion
from .verdicts import Review, Verdict
from .writer import has_verdicts

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
    """Everything ``audit apply`` computes before writing."""

    precision: Precision
    queries: list[GoldenQuery]
    changes: list[ChangelogEntry]


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


def versions(build_dir: Path) -> list[Path]:
    """The version folders ``DIR/versions/vN`` that ``audit apply`` wrote, oldest first."""
    folder = build_dir / layout.VERSIONS_FOLDER
    if not folder.is_dir():
        return []
    found = [
        c for c in folder.iterdir() if c.is_dir() and layout.version_number(c.name) is not None
    ]
    return sorted(found, key=lambda child: layout.version_number(child.name) or 0)


def next_version(build_dir: Path) -> Path:
    """``DIR/versions/vN`` with N one past the highest existing."""
    numbers = [layout.version_number(version.name) or 0 for version in versions(build_dir)]
    return build_dir / layout.VERSIONS_FOLDER / layout.version_folder(max(numbers, default=0) + 1)


def read_review(version: Path) -> ReviewSummary | None:
    """The review summary a version folder holds (precision, verdict files), None if none."""
    path = version / layout.REVIEW
    return read_document(path, ReviewSummary, "a review summary") if path.is_file() else None


def _changes_md(outcome: Outcome, sources: Sequence[str]) -> str:
    lines = ["# Changes from the audit", "", f"Verdicts: {', '.join(sources)}", ""]
    lines += [f"    {line}" for line in outcome.precision.lines()]
    lines.append("")
    for change in outcome.changes or []:
        after = ", ".join(change.after) or "(query removed)"
        lines.append(
            f"- `{change.qid}` {change.action} ({change.verdict}): "
            f"{', '.join(change.before)} -> {after}" + (f" — {change.note}" if change.note else "")
        )
    if not outcome.changes:
        lines.append("No label changed.")
    return "\n".join(lines) + "\n"


def file_sha256(path: Path) -> str:
    """The sha256 of a file's bytes (``ReviewSummary.verdict_sha256``)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def applied_sha256(build_dir: Path) -> set[str]:
    """The hashes of every verdict file some ``audit apply`` of this build read (review.json);
    a version folder whose review.json cannot be read adds none."""
    found: set[str] = set()
    for version in versions(build_dir):
        try:
            summary = read_review(version)
        except (DataError, OSError):
            continue
        if summary is not None:
            found.update(summary.verdict_sha256)
    return found


def latest_review(root: Path, version: str | None, golden_sha256: str) -> ReviewSummary | None:
    """The review that measured a build's labels: that of the version ``version`` (the review
    that made it), else (the build's own labels) the latest review of the build's current
    golden.jsonl. A review of an earlier build into the same folder measured other labels:
    none applies."""
    if version:
        return read_review(root / layout.VERSIONS_FOLDER / version)
    reviews = [
        review
        for folder in versions(root)
        if (review := read_review(folder)) and review.golden_sha256 == golden_sha256
    ]
    return reviews[-1] if reviews else None


def verdict_files(build: Build) -> tuple[list[Path], list[str]]:
    """The verdicts on ``build``'s current golden.jsonl: a filled-in audit.csv whose sample was
    drawn from it, else the files of the latest review made for it (``versions/vN/review.json``)
    that are still there. Also the reviews passed over because they judged another
    golden.jsonl (the folder was rebuilt since: their qids and section ids may name other rows
    and sections now), for a warning."""
    audit = build.folder / layout.AUDIT_FOLDER
    passed_over: list[str] = []
    if has_verdicts(audit):
        sample = audit / layout.AUDIT_SAMPLE
        drawn = (
            read_document(sample, AuditSample, "an audit sample").golden_sha256
            if sample.is_file()
            else build.golden_sha256  # no sample: load_sample says so
        )
        if drawn == build.golden_sha256:
            return [audit / layout.AUDIT_CSV], []
        passed_over.append(str(audit / layout.AUDIT_CSV))
    for version in reversed(versions(build.folder)):
        review = read_review(version)
        if review is None:
            continue
        if review.golden_sha256 != build.golden_sha256:
            passed_over.append(str(version / layout.REVIEW))
            continue
        found = [path for name in review.verdict_files if (path := Path(name)).is_file()]
        if found:
            return found, passed_over
    return [], passed_over


def write_version(
    build: Build, outcome: Outcome, sources: Sequence[str], sha256: Sequence[str] = ()
) -> Path:
    """Write the corrected golden set, corpus copy and changelog into a new version folder;
    ``sha256``: the verdict files' hashes, in ``sources`` order (recorded in review.json)."""
    target = next_version(build.folder)
    target.parent.mkdir(parents=True, exist_ok=True)
    # mkdir (not mkdtemp) so the folder gets the usual permissions, not 0700.
    staging = target.parent / f".{target.name}.{uuid.uuid4().hex}.tmp"
    staging.mkdir()
    try:
        write_golden_set(staging, build.corpus, outcome.queries)
        shutil.copyfile(build.folder / layout.CORPUS, staging / layout.CORPUS)
        write_jsonl(staging / layout.CHANGELOG, outcome.changes)
        write_text(staging / layout.CHANGES, _changes_md(outcome, sources))
        write_json(
            staging / layout.REVIEW,
            ReviewSummary(
                verdict_files=list(sources),
                verdict_sha256=list(sha256),
                golden_sha256=build.golden_sha256,
                precision=PrecisionSummary(
                    overall=outcome.precision.overall,
                    lenient=outcome.precision.lenient,
                    by_rule=outcome.precision.by_rule,
                ),
                changes=len(outcome.changes),
            ),
        )
        os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target
