"""The pool's review files: ``audit/pool.csv``, ``audit/pool.html`` (the label review's page,
with the pool's verdicts) and ``audit/pool.json``; and pool sheets read back and checked.

A pool sheet is a CSV with the columns ``qid``, ``docid`` and ``verdict`` at least (``build``
and ``runs``, when present, must be the pool's). Refusals name the file and the data row
(counted as rows, not as the file's lines: a cell may hold line breaks).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import DataError, UsageError
from ..labelling.evidence import contained
from ..models import CarriedPoolVerdict, PoolSample
from ..store.buildfolder import Build, read_document
from ..store.files import write_text
from ..store.layout import (
    AUDIT_FOLDER,
    CHANGELOG,
    GOLDEN,
    POOL_CSV,
    POOL_HTML,
    POOL_SAMPLE,
    QRELS,
)
from .page import evidence_view, named_parts, review_html, section_view
from .pool import POOL_GRADES, POOL_VERDICTS, band_of, build_id, pair_key
from .sheet import csv_records, heading_line, marked_span, write_csv
from .verdicts import Review, Verdict

#: Columns of pool.csv, in order; the reviewer's last. ``build`` and ``runs`` tie a row to the
#: build and the runs it was drawn from.
POOL_COLUMNS: tuple[str, ...] = (
    "qid",
    "docid",
    "stratum",
    "weight",
    "best_rank",
    "retrieved_by",
    "signals",
    "query",
    "answer",
    "reference",
    "matched_headings",
    "doc_heading",
    "doc_text",
    "evidence",
    "path",
    "build",
    "runs",
    "round",
    "verdict",
    "note",
)
#: The columns a pool sheet must have: they tell it from a label sheet.
REQUIRED_POOL_COLUMNS: tuple[str, ...] = ("qid", "docid", "verdict")

#: A judgement's grade -> the pool verdict that gives it.
GRADE_VERDICTS: dict[int, str] = {grade: verdict for verdict, grade in POOL_GRADES.items()}

#: The note a verdict carried over by ``qrelsmith diff`` starts with on the sheet.
CARRIED_NOTE = "(carried over by qrelsmith diff)"

#: The page's keys for the pool's verdicts: 1-4 as on the label page, and a letter each but
#: for "not" (N is the note's key).
POOL_KEYS: dict[str, str] = {
    "1": "relevant", "2": "partly", "3": "not", "4": "unsure",
    "r": "relevant", "p": "partly", "u": "unsure",
}  # fmt: skip


def answer_span(answer: str, text: str) -> tuple[int, int] | None:
    """Where ``text`` holds the whole answer (folded as the evidence stage folds it)."""
    found = contained(answer, text) if answer.strip() else None
    return (found.start, found.end) if found is not None and found.score else None


def pool_rows(build: Build, pool: PoolSample) -> list[dict[str, str]]:
    """pool.csv's rows (reviewer columns empty), in the pool's order."""
    rows = []
    for row in pool.rows:
        query = build.by_qid[row.qid]
        doc = build.sections[row.docid]
        matched = [build.sections[sid] for sid in query.relevant if sid in build.sections]
        span = answer_span(query.answer, doc.text)
        rows.append(
            {
                "qid": row.qid,
                "docid": row.docid,
                "stratum": row.stratum,
                "weight": f"{row.weight:g}",
                "best_rank": "" if row.best_rank is None else str(row.best_rank),
                "retrieved_by": str(row.runs),
                "signals": " | ".join(row.signals),
                "query": query.query,
                "answer": query.answer,
                "reference": query.reference or "",
                "matched_headings": "\n".join(heading_line(record) for record in matched),
                "doc_heading": heading_line(doc),
                "doc_text": doc.text,
                "evidence": marked_span(doc, *span) if span else "",
                "path": doc.path or doc.article_id,
                "build": pool.build,
                "runs": pool.runs_id,
                "round": str(pool.round),
                "verdict": "",
                "note": "",
            }
        )
    return rows


def prefill_pool(
    rows: list[dict[str, str]], carried: Mapping[tuple[str, str], CarriedPoolVerdict]
) -> list[dict[str, str]]:
    """The rows with the verdicts ``qrelsmith diff`` carried over filled in."""
    for row in rows:
        verdict = carried.get((row["qid"], row["docid"]))
        if verdict is not None:
            row["verdict"] = verdict.verdict
            row["note"] = " ".join(filter(None, [CARRIED_NOTE, verdict.note]))
    return rows


def pool_page_data(
    build: Build, pool: PoolSample, rows: Sequence[dict[str, str]]
) -> dict[str, object]:
    """What the review page needs for the pool: each row's candidate document (the answer's
    span marked where it holds it) beside the query's labelled sections, for contrast."""
    articles: dict[str, list[dict[str, object]]] = {}
    page_rows = []
    for number, (row, drawn) in enumerate(zip(rows, pool.rows, strict=True)):
        query = build.by_qid[drawn.qid]
        doc = build.sections[drawn.docid]
        matched = [sid for sid in query.relevant if sid in build.sections]
        key = f"pair {number}"
        labelled = [build.sections[sid] for sid in matched]
        articles[key] = [section_view(doc), *map(section_view, labelled)]
        span = answer_span(query.answer, doc.text)
        rank = "check's signal" if drawn.best_rank is None else f"best rank {drawn.best_rank}"
        page_rows.append(
            {
                "cells": row,
                "key": pair_key(drawn.qid, drawn.docid),
                "article": key,
                "matched": matched,
                "show": [doc.id, *matched],
                "candidate": doc.id,
                "rule": f"{rank} ({band_of(drawn.best_rank)}), retrieved by {drawn.runs}",
                "evidence": evidence_view(doc, *span) if span else None,
                "named": named_parts(query.reference or "", labelled),
            }
        )
    return {
        "sample_id": pool.sample_id,
        "kind": "pool",
        "verdicts": list(POOL_VERDICTS),
        "keys": POOL_KEYS,
        "advance": "not",
        "columns": list(POOL_COLUMNS),
        "rows": page_rows,
        "articles": articles,
    }


def write_pool(
    build: Build,
    pool: PoolSample,
    carried: Mapping[tuple[str, str], CarriedPoolVerdict] | None = None,
) -> list[Path]:
    """Write pool.csv, pool.html and pool.json (last) into ``build/audit/``."""
    folder = build.folder / AUDIT_FOLDER
    folder.mkdir(exist_ok=True)
    rows = prefill_pool(pool_rows(build, pool), carried or {})
    write_csv(folder / POOL_CSV, rows, POOL_COLUMNS)
    write_text(folder / POOL_HTML, review_html(pool_page_data(build, pool, rows)))
    write_text(folder / POOL_SAMPLE, pool.model_dump_json(indent=2) + "\n")
    return [folder / POOL_CSV, folder / POOL_HTML]


def load_pool(build: Build) -> PoolSample:
    """Read ``audit/pool.json`` and check it was drawn from this build as it is now."""
    path = build.folder / AUDIT_FOLDER / POOL_SAMPLE
    if not path.is_file():
        raise DataError(
            f"no pool in {path.parent} (run 'qrelsmith audit pool {build.folder} RUN ...')"
        )
    pool = read_document(path, PoolSample, "a pool sample")
    if pool.build != current_build_id(build):
        raise DataError(
            f"{path} was drawn from another build (golden.jsonl or qrels.trec changed since): "
            "draw a new pool"
        )
    return pool


def current_build_id(build: Build) -> str:
    """``pool.build_id`` of the build folder as it is now."""
    from ..store.versions import file_sha256

    qrels = build.folder / QRELS
    return build_id(build.golden_sha256, file_sha256(qrels) if qrels.is_file() else "")


def unapplied_pool_verdicts(build_dir: Path) -> int:
    """How many verdicts on ``build_dir/audit/pool.csv`` a new pool would lose: 0 when an
    ``audit apply`` read the sheet as it is now (its sha256 is in a review.json), else its
    rows with a verdict that ``qrelsmith diff`` did not carry over."""
    from ..store.versions import applied_sha256, file_sha256

    path = build_dir / AUDIT_FOLDER / POOL_CSV
    if not path.is_file():
        return 0
    try:
        rows = [cells for _, _, cells in csv_records(path, REQUIRED_POOL_COLUMNS)]
        given = [cells for cells in rows if cells.get("verdict")]
        if not given or file_sha256(path) in applied_sha256(build_dir):
            return 0
    except (DataError, OSError):
        return 0
    return sum(1 for cells in given if not cells.get("note", "").startswith(CARRIED_NOTE))


# --------------------------------------------------------------------------- reading back


def applied_pool_reviews(build: Build) -> tuple[list[Review], list[Path]]:
    """The pool verdicts applied to ``build`` and to the versions made from it, every round
    (a version's own and its ancestors' when ``build`` is a version: its golden.jsonl's
    ``judged``; each later version's changelog.jsonl, one review each), whatever sheets they
    were read from and whichever pool is drawn now; and the files they were read from here."""
    from ..models import ChangelogEntry
    from ..store.buildfolder import read_records
    from ..store.versions import descendants

    reviews: list[Review] = []
    sources: list[Path] = []
    own: dict[str, Verdict] = {}
    for query in build.queries:
        for docid, grade in query.judged.items():
            key = pair_key(query.qid, docid)
            if grade in GRADE_VERDICTS:
                verdict = GRADE_VERDICTS[grade]
                own[key] = Verdict(f"{build.folder.name}/{GOLDEN}", key, verdict, None, "")
    if own:
        reviews.append(Review(str(build.folder / GOLDEN), own, 0))
        sources.append(build.folder / GOLDEN)
    for version in descendants(build.folder):
        path = version / CHANGELOG
        judged = {}
        for entry in read_records(path, ChangelogEntry) if path.is_file() else []:
            if entry.action == "judged" and entry.docid is not None and entry.verdict:
                key = pair_key(entry.qid, entry.docid)
                judged[key] = Verdict(entry.where, key, entry.verdict, None, entry.note)
        if judged:
            reviews.append(Review(str(path), judged, 0))
            sources.append(path)
    return reviews, sources


def old_pool_reviews(build: Build) -> tuple[list[Review], list[Path]]:
    """Every pool verdict given on ``build`` and on the versions made from it (``qrelsmith
    diff`` carries them): the applied ones (``applied_pool_reviews``) and those of a pool
    sheet judged in place and not applied yet, on ``build`` or on a later version (its next
    round); and the files read."""
    from ..store.buildfolder import load_build
    from ..store.versions import descendants

    reviews, sources = applied_pool_reviews(build)
    for folder in [build.folder, *descendants(build.folder)]:
        if unapplied_pool_verdicts(folder):
            drawn_on = build if folder == build.folder else load_build(folder)
            sheet = folder / AUDIT_FOLDER / POOL_CSV
            reviews += read_pool_reviews([sheet], drawn_on, load_pool(drawn_on)).reviews
            sources.append(sheet)
    return reviews, sources


@dataclass(frozen=True)
class PoolReviews:
    """The pool sheets' verdicts: one ``Review`` per file, keyed by ``pool.pair_key``."""

    reviews: list[Review]
    pairs: dict[str, tuple[str, str]]


def read_pool_reviews(paths: Sequence[Path], build: Build, pool: PoolSample) -> PoolReviews:
    """Read and check pool sheets; the first row that does not fit raises DataError naming
    the file and the row: another build or other runs, a qid or docid the build lacks, a pair
    the pool did not draw, a pair twice in one file, a verdict outside the four."""
    drawn = {(row.qid, row.docid) for row in pool.rows}
    here = current_build_id(build)
    reviews: list[Review] = []
    pairs: dict[str, tuple[str, str]] = {}
    given: set[str] = set()
    for path in paths:
        real = os.path.realpath(path)
        if real in given:
            raise UsageError(f"{path} is given twice: each verdict file is read once")
        given.add(real)
        verdicts: dict[str, Verdict] = {}
        for number, _, cells in csv_records(path, REQUIRED_POOL_COLUMNS):
            where = f"{path.name}: row {number}"
            qid, docid = cells.get("qid", ""), cells.get("docid", "")
            if cells.get("build") and cells["build"] != here:
                raise DataError(
                    f"{where}: drawn from another build (build {cells['build']}; "
                    f"{build.folder} is {here}): draw a new pool"
                )
            if cells.get("runs") and cells["runs"] != pool.runs_id:
                raise DataError(
                    f"{where}: drawn from other runs (runs {cells['runs']}; "
                    f"the pool of {build.folder} is runs {pool.runs_id})"
                )
            if qid not in build.by_qid:
                raise DataError(f"{where}: qid {qid!r} is not in golden.jsonl")
            if docid not in build.sections:
                raise DataError(f"{where}: docid {docid!r} is not in corpus.jsonl")
            if (qid, docid) not in drawn:
                raise DataError(
                    f"{where}: ({qid}, {docid}) is not a pair of the pool drawn "
                    "(audit/pool.json): draw the pool again or review its sheet"
                )
            key = pair_key(qid, docid)
            if key in verdicts:
                raise DataError(f"{where}: ({qid}, {docid}) again (first at {verdicts[key].where})")
            verdict = cells.get("verdict", "").casefold()
            if not verdict:
                continue
            if verdict not in POOL_VERDICTS:
                raise DataError(
                    f"{where}: bad verdict {cells['verdict']!r} (use {', '.join(POOL_VERDICTS)})"
                )
            verdicts[key] = Verdict(where, key, verdict, None, cells.get("note", ""))
            pairs[key] = (qid, docid)
        reviews.append(Review(str(path), verdicts, len(drawn) - len(verdicts)))
    if not any(review.verdicts for review in reviews):
        raise DataError("no verdicts in the pool sheet(s): every verdict cell is empty")
    return PoolReviews([review for review in reviews if review.verdicts], pairs)
