"""Write an audit sample to ``DIR/audit/``: sample.json, audit.csv, audit.html (+ extra formats)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from ..config import Config
from ..errors import DataError, warn
from ..models import AuditSample, CarriedVerdict, DiffReport, Report
from ..store.buildfolder import Build, load_build, read_document
from ..store.files import StagedFolder, write_text
from ..store.layout import (
    AUDIT_CSV,
    AUDIT_FOLDER,
    AUDIT_HTML,
    AUDIT_SAMPLE,
    DIFF,
    POOL_CSV,
    POOL_HTML,
    POOL_SAMPLE,
)
from ..store.versions import applied_sha256, file_sha256
from . import labelstudio
from .page import write_page
from .sample import articles_of, draw_sample
from .sheet import ID_SEPARATOR, RawVerdict, has_verdicts, read_csv, review_rows, write_csv
from .verdicts import NO_SECTION

#: Extra formats ``audit sample --format`` can add to the sheet and the page; each writer
#: returns the files it wrote.
EXTRA_FORMATS: dict[str, Callable[[Path, Build, Sequence[dict[str, str]]], list[Path]]] = {
    "label-studio": labelstudio.write_tasks,
}


def unapplied_verdicts(build_dir: Path) -> int:
    """How many verdicts on ``build_dir/audit/audit.csv`` a new sample would lose: 0 when no
    ``audit apply`` has read the sheet as it is now (its sha256 is in a versions/vN/review.json),
    else its rows with a verdict, except those still exactly as ``prefill`` wrote them from
    ``audit/diff.json`` (verdict, correct_sections and note of a carried verdict)."""
    path = build_dir / AUDIT_FOLDER / AUDIT_CSV
    if not path.is_file():
        return 0
    try:
        rows = [row for row in read_csv(path) if row.verdict]
        if not rows or file_sha256(path) in applied_sha256(build_dir):
            return 0
    except (DataError, OSError):
        return 0
    carried = _carried(build_dir)
    return sum(1 for row in rows if _cells(row) != carried.get(row.qid))


def _carried(build_dir: Path) -> dict[str, tuple[str, str, str]]:
    """The sheet cells ``prefill`` writes for each verdict of ``audit/diff.json`` (whichever
    build it was made for); nothing when there is none or it cannot be read."""
    path = build_dir / AUDIT_FOLDER / DIFF
    if not path.is_file():
        return {}
    try:
        report = read_document(path, DiffReport, "a diff report")
    except (DataError, OSError):
        return {}
    rows = prefill(
        [{"qid": c.qid, "correct_sections": ""} for c in report.carried],
        {c.qid: c for c in report.carried},
    )
    return {
        row["qid"]: (row["verdict"], row["correct_sections"].strip(), row["note"].strip())
        for row in rows
    }


def _cells(row: RawVerdict) -> tuple[str, str, str]:
    sections = row.sections if isinstance(row.sections, str) else ID_SEPARATOR.join(row.sections)
    return (row.verdict, sections.strip(), row.note.strip())


def write_audit(
    build: Build,
    sample: AuditSample,
    formats: Sequence[str] = (),
    carried: Mapping[str, CarriedVerdict] | None = None,
) -> list[Path]:
    """Write the sample's files into ``build/audit/``; returns the files for reviewers it
    wrote (the sheet, the page, then each extra format's files; sample.json is written too).
    ``carried`` verdicts (``qrelsmith diff``) are filled in on the sheet's rows."""
    folder = build.folder / AUDIT_FOLDER
    rows = prefill(review_rows(build, sample), carried or {})
    # Staged and swapped in whole: a full disk halfway never leaves a new sheet beside the
    # old sample.json. Other files of audit/ (diff.json) are carried over.
    with StagedFolder(folder, lock=False) as staged:
        write_csv(staged.path / AUDIT_CSV, rows)
        write_page(staged.path / AUDIT_HTML, build, sample, rows)
        written = [AUDIT_CSV, AUDIT_HTML]
        for name in dict.fromkeys(formats):  # --format given twice writes once
            written += [p.name for p in EXTRA_FORMATS[name](staged.path, build, rows)]
        write_text(staged.path / AUDIT_SAMPLE, sample.model_dump_json(indent=2) + "\n")
        staged.commit(keep=lambda name: True)
    return [folder / name for name in written]


def prefill(
    rows: list[dict[str, str]], carried: Mapping[str, CarriedVerdict]
) -> list[dict[str, str]]:
    """The sheet's rows with the verdicts carried over from an older build filled in."""
    for row in rows:
        verdict = carried.get(row["qid"])
        if verdict is None:
            continue
        row["verdict"] = verdict.verdict
        if verdict.sections is not None:
            row["correct_sections"] = ID_SEPARATOR.join(verdict.sections) or NO_SECTION
        row["note"] = " ".join(filter(None, ["(carried over by qrelsmith diff)", verdict.note]))
    return rows


def write_default_sample(build_dir: str | Path, config: Config) -> AuditSample | None:
    """The sample ``qrelsmith build`` leaves in ``DIR/audit/`` (options from ``[audit]``).

    Returns the sample (``sample_summary(sample)`` is one line for people), or None when the
    configured size is 0 or ``audit/audit.csv`` holds verdicts no ``audit apply`` has read
    (``unapplied_verdicts``), which are never overwritten.
    """
    options = config.audit
    if options.size <= 0:
        return None
    build = load_build(build_dir, only_articles=())  # the queries; texts once the draw is known
    if unapplied_verdicts(build.folder):
        warn(
            f"{build.folder / AUDIT_FOLDER / AUDIT_CSV} holds verdicts no audit apply "
            "has read: audit sample not redrawn"
        )
        return None
    sample = draw_sample(build.queries, options, build.golden_sha256)
    write_audit(load_build(build_dir, only_articles=articles_of(sample)), sample)
    return sample


def sample_staged_build(
    staged: StagedFolder, report: Report, config: Config, out: Path
) -> AuditSample | None:
    """The audit sample a build (``out``, being written in ``staged``) leaves in ``audit/``:
    None when the previous ``audit/`` holds a reviewer's verdicts (it is carried over as it
    was, with a warning), when the build made no query, or when ``[audit] size`` is 0."""
    if has_verdicts(staged.target / AUDIT_FOLDER):
        # A reviewer's verdicts are never overwritten: the previous audit/ stays.
        warn(f"{out / AUDIT_FOLDER / AUDIT_CSV} holds verdicts: audit sample not redrawn")
        staged.carry(AUDIT_FOLDER)
        return None
    sample = None
    if report.counts.queries and config.audit.size > 0:
        sample = write_default_sample(staged.path, config)
    _keep_pool_sheet(staged, out)
    return sample


def _keep_pool_sheet(staged: StagedFolder, out: Path) -> None:
    """A pool sheet of the previous build holding verdicts no ``audit apply`` has read stays,
    with its pool.json and pool.html (it judged the previous build: apply refuses it now, but
    the reviewer's work is not lost)."""
    from .pool_sheet import unapplied_pool_verdicts

    if not unapplied_pool_verdicts(staged.target):
        return
    warn(f"{out / AUDIT_FOLDER / POOL_CSV} holds verdicts: kept as it was")
    (staged.path / AUDIT_FOLDER).mkdir(exist_ok=True)
    for name in (POOL_CSV, POOL_HTML, POOL_SAMPLE):
        staged.carry(f"{AUDIT_FOLDER}/{name}")
