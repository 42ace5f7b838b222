"""The review sheet: one row per sampled query, written as ``audit.csv`` for spreadsheets,
and read back with the reviewer's verdicts (``read_csv``).

The same rows feed the HTML page and the Label Studio tasks, and the page exports verdicts in
these columns, so every verdict file has one shape. Pure except ``write_csv`` and
``read_csv``.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import DataError, UsageError
from ..models import AuditSample, CorpusRecord, GoldenQuery
from ..store.buildfolder import Build
from ..store.files import atomic_open
from ..store.layout import AUDIT_CSV, article_of, section_number

#: Characters of each matched section shown in the audit sheet: enough to judge most answers,
#: short enough for a spreadsheet row. The HTML page shows the whole text.
OPENING_CHARS = 400

#: Characters shown on each side of the answer's span in audit.csv's ``evidence`` cell: about a
#: sentence, enough to see that the span says what the answer says.
EVIDENCE_CONTEXT_CHARS = 80

#: The most characters a cell of Excel holds (LibreOffice reads more, but Excel cuts the cell
#: or refuses the file): longer cells of audit.csv are cut and end with a marker saying so.
EXCEL_CELL_CHARS = 32_767

#: The reviewer's choices: the label is right; wrong (replace it); partly right (e.g. one of two
#: sections missing: replace it); the reviewer cannot tell (keep it, flag it).
VERDICTS: tuple[str, ...] = ("correct", "wrong", "partly", "unsure")

#: Encodings tried for a CSV, in order: Excel's "CSV UTF-8", then Excel's plain "CSV" on a
#: Japanese Windows, which saves Shift_JIS (cp932).
CSV_ENCODINGS = ("utf-8-sig", "cp932")


#: The columns the reviewer fills in: the last of audit.csv's, left out of Label Studio's task
#: data (its form asks for them instead).
REVIEWER_COLUMNS: tuple[str, ...] = ("verdict", "correct_sections", "note")

#: Columns of audit.csv and of every verdict export, in order; the reviewer's last.
COLUMNS: tuple[str, ...] = (
    "qid",
    "stratum",
    "weight",
    "query",
    "answer",
    "reference",
    "matched_sections",
    "matched_headings",
    "match",
    "confidence",
    "section_text",
    "evidence",
    "other_headings",
    "path",
    *REVIEWER_COLUMNS,
)

#: Around the answer's span in the ``evidence`` cell (brackets that prose and code rarely use).
SPAN_OPEN, SPAN_CLOSE = "⟦", "⟧"

#: How a list of section ids is joined in one cell; readers also accept a line break.
ID_SEPARATOR = " | "

#: A cell starting with one of these is a formula (or DDE) in Excel and LibreOffice.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(cell: str) -> str:
    """Text that cannot run as a spreadsheet formula: a leading ``'`` before a formula start."""
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


def capped(cell: str, limit: int = EXCEL_CELL_CHARS) -> str:
    """``cell`` cut to what one spreadsheet cell holds, ending with a marker when cut."""
    if len(cell) <= limit:
        return cell
    marker = f"… [cut: {len(cell):,} characters in all]"
    return cell[: limit - len(marker)] + marker


def restore(cell: str) -> str:
    """Undo ``neutralise`` when reading a sheet back."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell


def heading_line(record: CorpusRecord) -> str:
    """``#n heading``: how a section is named to the reviewer."""
    return f"#{section_number(record.id)} {record.heading}"


def opening(text: str, limit: int = OPENING_CHARS) -> str:
    """The first ``limit`` characters of a text, with an ellipsis when cut."""
    return text if len(text) <= limit else text[:limit].rstrip() + "…"


def evidence_cell(build: Build, query: GoldenQuery, context: int = EVIDENCE_CONTEXT_CHARS) -> str:
    """``#n heading: …before ⟦span⟧ after…``: where the answer is written, in its section's
    text; empty without a span."""
    evidence = query.evidence
    record = build.sections.get(evidence.section) if evidence is not None else None
    if evidence is None or record is None:
        return ""
    return (
        f"{marked_span(record, evidence.start, evidence.end, context)} (score {evidence.score:g})"
    )


def marked_span(
    record: CorpusRecord, start: int, end: int, context: int = EVIDENCE_CONTEXT_CHARS
) -> str:
    """``#n heading: …before ⟦span⟧ after…``: ``text[start:end]`` of a section, marked."""
    text = record.text
    before = text[max(start - context, 0) : start]
    after = text[end : end + context]
    lead = "…" if start > context else ""
    tail = "…" if end + context < len(text) else ""
    span = text[start:end]
    return f"{heading_line(record)}: {lead}{before}{SPAN_OPEN}{span}{SPAN_CLOSE}{after}{tail}"


def review_row(build: Build, query: GoldenQuery, stratum: str, weight: float) -> dict[str, str]:
    """The sheet's cells for one query (reviewer columns empty)."""
    matched = [build.sections[sid] for sid in query.relevant if sid in build.sections]
    others = [record for record in build.sections_of(query.qid) if record.id not in query.relevant]
    return {
        "qid": query.qid,
        "stratum": stratum,
        "weight": f"{weight:g}",
        "query": query.query,
        "answer": query.answer,
        "reference": query.reference if query.reference is not None else query.source,
        "matched_sections": ID_SEPARATOR.join(query.relevant),
        "matched_headings": "\n".join(heading_line(record) for record in matched),
        "match": query.match,
        "confidence": f"{query.confidence:g}",
        "section_text": "\n\n".join(
            f"{heading_line(record)}: {opening(record.text)}" for record in matched
        ),
        "evidence": evidence_cell(build, query),
        "other_headings": "\n".join(heading_line(record) for record in others),
        "path": query.origin.path or article_of(query.qid),
        "verdict": "",
        "correct_sections": "",
        "note": "",
    }


def review_rows(build: Build, sample: AuditSample) -> list[dict[str, str]]:
    """One row per sampled query, in sample order."""
    return [
        review_row(build, build.by_qid[row.qid], row.stratum, row.weight) for row in sample.rows
    ]


def write_csv(path: Path, rows: Sequence[dict[str, str]], columns: Sequence[str] = COLUMNS) -> None:
    """UTF-8 with BOM and CRLF (Excel and LibreOffice open it as UTF-8), formulas neutralised,
    cells cut to what Excel holds (``capped``)."""
    with atomic_open(path, newline="", encoding="utf-8-sig") as handle:
        writer = csv.writer(handle, lineterminator="\r\n")
        writer.writerow(columns)
        for row in rows:
            # cut one short of the limit: neutralise may add a character
            cells = (capped(row.get(column, ""), EXCEL_CELL_CHARS - 1) for column in columns)
            writer.writerow([neutralise(cell) for cell in cells])


@dataclass(frozen=True)
class RawVerdict:
    """One reviewer's row as read: where it is, and its cells as text."""

    where: str
    reviewer: str
    qid: str
    verdict: str
    sections: str | list[str]
    note: str


def _decode(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # Excel's "Unicode Text": UTF-16 with its byte order mark, tab-separated
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise DataError(f"{path}: damaged UTF-16 text") from None
    for encoding in CSV_ENCODINGS:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise DataError(f"{path}: not UTF-8, UTF-16 or Shift_JIS text; save it as UTF-8")


def _delimiter(text: str) -> str:
    """The sheet's delimiter: the one of , ; or tab its first line holds most of."""
    first_line = text.split("\n", 1)[0]
    return max(",;\t", key=first_line.count)


def csv_records(
    path: Path, required: Sequence[str] = ("qid", "verdict")
) -> Iterator[tuple[int, int, dict[str, str]]]:
    """(data row number, line number, cells) of each row of a verdict CSV that is not empty;
    any of , ; or tab; header names folded to lower case, cells stripped and ``restore``d."""
    text = _decode(path)
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    header = [name.strip().lower() for name in reader.fieldnames or []]
    missing = [name for name in required if name not in header]
    if missing:
        raise DataError(f"{path.name}: line 1: no column {' or '.join(map(repr, missing))}")
    reader.fieldnames = header
    line = reader.line_num
    for number, record in enumerate(reader, 1):
        start, line = line + 1, reader.line_num
        if None in record:
            raise DataError(
                f"{path.name}: line {start} (row {number}): more cells than the header has columns"
            )
        cells = {key: restore((value or "").strip()) for key, value in record.items()}
        if any(cells.values()):
            yield number, start, cells


def csv_header(path: Path) -> list[str]:
    """The column names of a verdict CSV, folded to lower case (empty when it has none)."""
    text = _decode(path)
    first_line = text.split("\n", 1)[0]
    header = next(csv.reader(io.StringIO(first_line), delimiter=_delimiter(text)), [])
    return [name.strip().lower() for name in header]


def read_csv(path: Path) -> list[RawVerdict]:
    """Rows of a verdict CSV (audit.csv filled in, or the page's export); any of , ; or tab."""
    return [
        RawVerdict(
            # the row, as the reviewer counts it, not the line: a cell holding line breaks
            # spans several lines ("line 15" was the 4th row, issue 29)
            where=f"{path.name}: row {number}",
            reviewer=str(path),
            qid=cells.get("qid", ""),
            verdict=cells.get("verdict", ""),
            sections=cells.get("correct_sections", ""),
            note=cells.get("note", ""),
        )
        for number, _, cells in csv_records(path)
    ]


def has_verdicts(folder: Path) -> bool:
    """Whether ``folder/audit.csv`` already holds a reviewer's verdicts (never overwrite those)."""
    path = folder / AUDIT_CSV
    if not path.is_file():
        return False
    try:
        return any(row.verdict for row in read_csv(path))
    except DataError:
        return False


def is_pool_sheet(path: Path) -> bool:
    """Whether a verdict file is a pool sheet (a CSV with a ``docid`` column)."""
    if path.suffix.lower() not in (".csv", ".tsv", ".txt") or not path.is_file():
        return False
    return "docid" in csv_header(path)
