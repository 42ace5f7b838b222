"""Two builds of one site -> what changed in the golden set, and which verdicts still hold.

Docs change; a golden set built last month drifts. ``diff_builds`` compares the queries of two
builds by qid (added, removed, changed query / answer / reference), the labelled sections
(text changed under a grade-2 label; a label now naming other headings) and the corpus. A
reviewer's verdict on the old build carries over when the query, its reference and the text of
its labelled sections are unchanged (section numbers may move: an inserted section renumbers
the rest); the others are listed for re-review. Pure: reading the folders is ``buildfolder``'s
and the verdicts ``audit.verdicts``'.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from ..models import (
    CarriedPoolVerdict,
    CarriedVerdict,
    ChangedQuery,
    ChangedSection,
    CorpusDiffCounts,
    CorpusRecord,
    DiffCounts,
    DiffReport,
    GoldenQuery,
    MovedLabel,
    QueryField,
    QueryText,
    Rereview,
)
from ..store.buildfolder import Build, read_document
from ..store.layout import AUDIT_FOLDER, DIFF
from .verdicts import Verdict

#: Why a verdict does not carry over, as listed in ``rereview``.
REASON_GONE = "query removed"
REASON_LABEL_MOVED = "label moved to other sections"
REASON_TEXT = "labelled section text changed"
REASON_CORRECT_SECTIONS = "the reviewer's sections changed or are gone"
REASON_DISPUTED = "the reviewers named different correct sections"


def row_text(query: GoldenQuery) -> QueryText:
    """The quick-reference row a query came from."""
    return QueryText(query=query.query, answer=query.answer, reference=query.source)


def _targets(build: Build, query: GoldenQuery) -> list[CorpusRecord]:
    return [build.sections[sid] for sid in query.relevant if sid in build.sections]


def _same_section(old: Build, new: Build, section_id: str) -> str | None:
    """The new id of an old section: the section of the same article with the same heading and
    text (its number may have moved), unique; None when it changed or is gone."""
    record = old.sections.get(section_id)
    if record is None:
        return None
    same = [
        sid
        for sid in new.article_sections.get(record.article_id, [])
        if (new.sections[sid].heading, new.sections[sid].text) == (record.heading, record.text)
    ]
    return same[0] if len(same) == 1 else None


def _compare_query(
    old: Build, new: Build, before: GoldenQuery, after: GoldenQuery
) -> tuple[ChangedQuery | None, list[ChangedSection], MovedLabel | None]:
    old_text, new_text = row_text(before), row_text(after)
    fields: list[QueryField] = [
        name
        for name in ("query", "answer", "reference")
        if getattr(old_text, name) != getattr(new_text, name)
    ]
    changed = ChangedQuery(qid=after.qid, fields=fields, old=old_text, new=new_text)
    old_targets, new_targets = _targets(old, before), _targets(new, after)
    moved = None
    sections: list[ChangedSection] = []
    if sorted(r.heading for r in old_targets) != sorted(r.heading for r in new_targets):
        moved = MovedLabel(
            qid=after.qid,
            old=list(before.relevant),
            new=list(after.relevant),
            old_headings=[r.heading for r in old_targets],
            new_headings=[r.heading for r in new_targets],
        )
    else:
        by_heading = {r.heading: r for r in old_targets}
        for record in new_targets:
            previous = by_heading[record.heading]
            if previous.text != record.text:
                sections.append(
                    ChangedSection(
                        qid=after.qid,
                        old_section=previous.id,
                        new_section=record.id,
                        heading=record.heading,
                        old_chars=len(previous.text),
                        new_chars=len(record.text),
                    )
                )
    return (changed if fields else None), sections, moved


def _corpus_keys(build: Build) -> dict[tuple[str, str, int], str]:
    """Section text by (article, heading, n-th section of that heading): sections compared by
    name, so an inserted section that renumbers the rest does not make every id "changed"."""
    keys: dict[tuple[str, str, int], str] = {}
    seen: dict[tuple[str, str], int] = {}
    for record in build.corpus:
        name = (record.article_id, record.heading)
        seen[name] = seen.get(name, -1) + 1
        keys[(*name, seen[name])] = record.text
    return keys


def _corpus_counts(old: Build, new: Build) -> CorpusDiffCounts:
    before, after = _corpus_keys(old), _corpus_keys(new)
    return CorpusDiffCounts(
        added=len(after.keys() - before.keys()),
        removed=len(before.keys() - after.keys()),
        text_changed=sum(before[key] != after[key] for key in before.keys() & after.keys()),
    )


def _carry(
    old: Build,
    new: Build,
    verdict: Verdict,
    reasons: Sequence[str],
) -> CarriedVerdict | Rereview:
    if verdict.disputed:  # no agreed sections to fill in: the reviewers settle it anew
        reasons = [*reasons, REASON_DISPUTED]
    if reasons:
        return Rereview(qid=verdict.qid, verdict=verdict.verdict, reasons=list(reasons))
    sections = None
    if verdict.sections is not None:
        mapped = [_same_section(old, new, sid) for sid in verdict.sections]
        if any(sid is None for sid in mapped):
            return Rereview(
                qid=verdict.qid, verdict=verdict.verdict, reasons=[REASON_CORRECT_SECTIONS]
            )
        sections = [sid for sid in mapped if sid is not None]
    return CarriedVerdict(
        qid=verdict.qid, verdict=verdict.verdict, sections=sections, note=verdict.note
    )


def carry_pool(
    old: Build,
    new: Build,
    verdicts: Mapping[tuple[str, str], Verdict],
    changed: Collection[str] = (),
) -> list[CarriedPoolVerdict]:
    """The older build's pool verdicts (by (qid, docid), merged) that still hold: the query is
    in the new build and not among ``changed`` (its query or answer text changed), and the
    document is a section of the same article with the same heading and text (its new id).
    ``unsure`` is no judgement and is not carried."""
    carried = []
    order = _query_order(old)
    for qid, docid in sorted(verdicts, key=lambda pair: (order(pair[0]), pair[1])):
        verdict = verdicts[(qid, docid)]
        if verdict.verdict == "unsure" or qid not in new.by_qid or qid in changed:
            continue
        moved = _same_section(old, new, docid)
        if moved is not None:
            carried.append(
                CarriedPoolVerdict(qid=qid, docid=moved, verdict=verdict.verdict, note=verdict.note)
            )
    return carried


def diff_builds(
    old: Build,
    new: Build,
    verdicts: Mapping[str, Verdict] | None = None,
    verdicts_from: Sequence[str] = (),
    pool_verdicts: Mapping[tuple[str, str], Verdict] | None = None,
) -> DiffReport:
    """Compare two builds; ``verdicts`` (one per qid, ``audit.apply.consensus``) are the
    older build's review, sorted into carried-over and to-review-again; ``pool_verdicts``
    (one per pooled pair) carried over where they still hold (``carry_pool``)."""
    verdicts = verdicts or {}
    added = [q.qid for q in new.queries if q.qid not in old.by_qid]
    removed = [q.qid for q in old.queries if q.qid not in new.by_qid]
    changed: list[ChangedQuery] = []
    sections_changed: list[ChangedSection] = []
    moved: list[MovedLabel] = []
    reasons: dict[str, list[str]] = {qid: [REASON_GONE] for qid in removed}
    for after in new.queries:
        before = old.by_qid.get(after.qid)
        if before is None:
            continue
        query_change, section_changes, label_move = _compare_query(old, new, before, after)
        why = reasons.setdefault(after.qid, [])
        if query_change is not None:
            changed.append(query_change)
            why.extend(f"{name} changed" for name in query_change.fields if name != "answer")
        if label_move is not None:
            moved.append(label_move)
            why.append(REASON_LABEL_MOVED)
        if section_changes:
            sections_changed.extend(section_changes)
            why.append(REASON_TEXT)
    carried: list[CarriedVerdict] = []
    rereview: list[Rereview] = []
    for qid in sorted(verdicts, key=_query_order(old)):
        if qid in removed:
            continue  # nothing left to review: listed in ``removed``
        outcome = _carry(old, new, verdicts[qid], reasons.get(qid, []))
        if isinstance(outcome, CarriedVerdict):
            carried.append(outcome)
        else:
            rereview.append(outcome)
    corpus = _corpus_counts(old, new)
    counts = DiffCounts(
        old_queries=len(old.queries),
        new_queries=len(new.queries),
        added=len(added),
        removed=len(removed),
        changed=len(changed),
        sections_changed=len(sections_changed),
        moved=len(moved),
        carried=len(carried),
        rereview=len(rereview),
        corpus=corpus,
    )
    anything = bool(
        added
        or removed
        or changed
        or sections_changed
        or moved
        or corpus.added
        or corpus.removed
        or corpus.text_changed
    )
    return DiffReport(
        old=str(old.folder),
        new=str(new.folder),
        old_golden_sha256=old.golden_sha256,
        new_golden_sha256=new.golden_sha256,
        changed_anything=anything,
        counts=counts,
        added=added,
        removed=removed,
        changed=changed,
        sections_changed=sections_changed,
        moved=moved,
        verdicts_from=list(verdicts_from),
        carried=carried,
        rereview=rereview,
        carried_pool=carry_pool(
            old,
            new,
            pool_verdicts or {},
            {c.qid for c in changed if {"query", "answer"} & set(c.fields)},
        ),
    )


def _query_order(build: Build) -> Callable[[str], tuple[int, str]]:
    """Sort key: the old build's golden order (qids it does not hold last, by id)."""
    position = {query.qid: number for number, query in enumerate(build.queries)}
    return lambda qid: (position.get(qid, len(position)), qid)


def diff_summary(report: DiffReport) -> list[str]:
    """The diff for people: counts, then one line per query that changed."""
    counts = report.counts
    lines = [
        f"{report.old} -> {report.new}: {counts.old_queries} -> {counts.new_queries} queries",
        f"  queries: {counts.added} added, {counts.removed} removed, {counts.changed} changed; "
        f"labels: {counts.moved} moved to other sections, {counts.sections_changed} "
        "labelled sections with new text",
        f"  corpus: {counts.corpus.added} sections added, {counts.corpus.removed} removed, "
        f"{counts.corpus.text_changed} with new text",
    ]
    for qid in report.added:
        lines.append(f"+ {qid}")
    for qid in report.removed:
        lines.append(f"- {qid}")
    for change in report.changed:
        for name in change.fields:
            lines.append(
                f"~ {change.qid}  {name}: {getattr(change.old, name)!r} -> "
                f"{getattr(change.new, name)!r}"
            )
    for move in report.moved:
        lines.append(
            f"> {move.qid}  label: {' / '.join(move.old_headings) or '(none)'} -> "
            f"{' / '.join(move.new_headings) or '(none)'}"
        )
    for section in report.sections_changed:
        lines.append(
            f"* {section.qid}  section text changed: {section.heading!r} "
            f"({section.old_chars} -> {section.new_chars} characters)"
        )
    if report.verdicts_from:
        lines.append(
            f"verdicts of {', '.join(report.verdicts_from)}: {counts.carried} carried over, "
            f"{counts.rereview} to review again (drawn first by the next audit sample)"
        )
        for item in report.rereview:
            reasons = "; ".join(item.reasons)
            lines.append(f"  review again {item.qid} (was {item.verdict}): {reasons}")
    else:
        lines.append("verdicts: none found in the old build (nothing to carry over)")
    if report.carried_pool:
        lines.append(
            f"pool verdicts: {len(report.carried_pool)} carried over "
            "(filled in by the next audit pool)"
        )
    if not report.changed_anything:
        lines.append("no change")
    return lines


def review_plan(build: Build) -> tuple[list[str], dict[str, CarriedVerdict]]:
    """(qids to review again, carried-over verdicts by qid) from ``DIR/audit/diff.json``, when
    it was made for this build's golden.jsonl; nothing otherwise (a rebuild since the diff)."""
    path = build.folder / AUDIT_FOLDER / DIFF
    if not path.is_file():
        return [], {}
    report = read_document(path, DiffReport, "a diff report")
    if report.new_golden_sha256 != build.golden_sha256:
        return [], {}
    present = build.by_qid
    return (
        [item.qid for item in report.rereview if item.qid in present],
        {item.qid: item for item in report.carried if item.qid in present},
    )


def pool_plan(build: Build) -> list[CarriedPoolVerdict]:
    """The pool verdicts ``DIR/audit/diff.json`` carried over, when it was made for this
    build's golden.jsonl; none otherwise."""
    path = build.folder / AUDIT_FOLDER / DIFF
    if not path.is_file():
        return []
    report = read_document(path, DiffReport, "a diff report")
    if report.new_golden_sha256 != build.golden_sha256:
        return []
    return list(report.carried_pool)
