"""Read reviewers' verdicts (the sheet, the page's export, Label Studio's export) and check them.

The readers live with their formats (``sheet.read_csv``, ``labelstudio.read_export``); this
module picks one by suffix and checks what it read.

Every reader yields raw rows naming where they came from; ``check`` turns them into verdicts
against the sample and the build, and raises DataError naming the first line that does not fit:
an unknown qid, a bad verdict, a section that is not in the article. Pure except the readers.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import DataError, UsageError
from ..models import AuditSample, CorpusRecord
from ..store import layout
from ..store.buildfolder import Build, read_document
from ..store.layout import article_of, section_id, section_number
from ..store.versions import descendants, file_sha256, read_review, versions
from ..text import folded_words
from .labelstudio import read_export
from .sheet import VERDICTS, RawVerdict, has_verdicts, is_pool_sheet, read_csv

#: ``correct_sections`` value saying no section of the article answers the query.
NO_SECTION = "none"

#: Between the sections of a list cell; the items are stripped after the split (white space
#: around the separator inside the regex made a long run of spaces cost quadratic time).
_LIST_SPLIT = re.compile(r"\||\r?\n")
_NUMBERED = re.compile(r"#?(\d+)(?:\s+(.*))?", re.DOTALL)


@dataclass(frozen=True)
class Verdict:
    """A checked verdict. ``sections``: None when not given, () when no section answers.
    ``disputed``: reviewers agreed on a wrong / partly verdict but named different sections
    (``audit.apply.consensus``; ``sections`` is then None)."""

    where: str
    qid: str
    verdict: str
    sections: tuple[str, ...] | None
    note: str
    disputed: bool = False


@dataclass(frozen=True)
class Review:
    """One reviewer's checked verdicts by qid, and how many sampled rows they left open."""

    reviewer: str
    verdicts: dict[str, Verdict]
    open_rows: int


# --------------------------------------------------------------------------- readers


#: Verdict file readers by suffix: the sheet (and the page's export) and Label Studio's export.
READERS: dict[str, Callable[[Path], list[RawVerdict]]] = {
    ".csv": read_csv,
    ".tsv": read_csv,
    ".txt": read_csv,
    ".json": read_export,
}


def read_any(path: Path) -> list[RawVerdict]:
    """Read a verdict file with the reader its suffix names (``READERS``)."""
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise UsageError(f"{path}: unknown verdict file type (use .csv or Label Studio's .json)")
    return reader(path)


# --------------------------------------------------------------------------- checking


def resolve_section(item: str, sections: Sequence[CorpusRecord], where: str, article: str) -> str:
    """A section id from what a reviewer wrote: id, ``#n``, ``n``, ``#n heading`` or heading."""
    ids = {record.id: record for record in sections}
    if item in ids:
        return item
    numbered = _NUMBERED.fullmatch(item)
    if numbered:
        numbered_id = section_id(article, int(numbered.group(1)))
        heading = numbered.group(2)
        if numbered_id in ids and (
            heading is None or folded_words(heading) == folded_words(ids[numbered_id].heading)
        ):
            return numbered_id
    same = [record.id for record in sections if folded_words(record.heading) == folded_words(item)]
    if len(same) == 1:
        return same[0]
    if len(same) > 1:
        raise DataError(
            f"{where}: heading {item!r} names several sections ({', '.join(same)}): use the id"
        )
    raise DataError(
        f"{where}: {item!r} is not a section of {article} "
        f"(its sections: {', '.join('#' + section_number(r.id) for r in sections) or 'none'})"
    )


def resolve_sections(
    value: str | list[str], sections: Sequence[CorpusRecord], where: str, article: str
) -> tuple[str, ...] | None:
    """The section ids a ``correct_sections`` cell names, in corpus order; see ``Verdict``."""
    if isinstance(value, str):
        value = value.strip()
        if not value:
            return None
        if value.casefold() == NO_SECTION:
            return ()
        try:
            return (resolve_section(value, sections, where, article),)
        except DataError:
            items = [item.strip() for item in _LIST_SPLIT.split(value) if item.strip()]
    else:
        items = [item.strip() for item in value if item.strip()]
        if not items:
            return None
    found = {resolve_section(item, sections, where, article) for item in items}
    return tuple(record.id for record in sections if record.id in found)


def check(raw_rows: Iterable[RawVerdict], build: Build, sample: AuditSample) -> list[Review]:
    """Checked verdicts per reviewer; the first row that does not fit raises DataError."""
    sampled = {row.qid for row in sample.rows}
    by_reviewer: dict[str, dict[str, Verdict]] = {}
    for raw in raw_rows:
        seen = by_reviewer.setdefault(raw.reviewer, {})
        if raw.qid not in sampled:
            known = (
                "it is in golden.jsonl but not in the sample"
                if raw.qid in build.by_qid
                else "unknown qid"
            )
            raise DataError(f"{raw.where}: qid {raw.qid!r} does not fit the sample ({known})")
        if raw.qid in seen:
            raise DataError(f"{raw.where}: qid {raw.qid!r} again (first at {seen[raw.qid].where})")
        verdict = raw.verdict.strip().casefold()
        if not verdict:
            continue
        if verdict not in VERDICTS:
            raise DataError(f"{raw.where}: bad verdict {raw.verdict!r} (use {', '.join(VERDICTS)})")
        article = article_of(raw.qid)
        sections = resolve_sections(raw.sections, build.sections_of(raw.qid), raw.where, article)
        label = tuple(build.by_qid[raw.qid].relevant)
        if verdict in ("wrong", "partly") and sections is None:
            raise DataError(
                f"{raw.where}: verdict {verdict!r} needs correct_sections "
                f"(the right section ids or headings, or {NO_SECTION!r})"
            )
        if verdict in ("wrong", "partly") and sections is not None and set(sections) == set(label):
            raise DataError(
                f"{raw.where}: verdict {verdict!r} but correct_sections equal the label"
            )
        if verdict == "correct" and sections is not None and set(sections) != set(label):
            raise DataError(
                f"{raw.where}: verdict 'correct' but correct_sections differ from the label "
                "(use 'wrong' or 'partly')"
            )
        seen[raw.qid] = Verdict(raw.where, raw.qid, verdict, sections, raw.note)
    if not any(by_reviewer.values()):
        raise DataError("no verdicts in the file(s): every verdict cell is empty")
    return [
        Review(reviewer, verdicts, len(sampled) - len(verdicts))
        for reviewer, verdicts in by_reviewer.items()
    ]


def read_reviews(paths: Sequence[Path], build: Build, sample: AuditSample) -> list[Review]:
    """Read and check every verdict file; one file may hold several reviewers (Label Studio)."""
    raw: list[RawVerdict] = []
    given: set[str] = set()
    for path in paths:
        real = os.path.realpath(path)
        if real in given:  # its rows would be read as one reviewer's, each one twice
            raise UsageError(f"{path} is given twice: each verdict file is read once")
        given.add(real)
        raw.extend(read_any(path))
    reviews = check(raw, build, sample)
    return [review for review in reviews if review.verdicts]


def verdict_files(build: Build) -> tuple[list[Path], list[str]]:
    """The verdicts on ``build``'s current golden.jsonl: a filled-in audit.csv whose sample was
    drawn from it, else the files of the latest review made for it (``versions/vN/review.json``)
    that are still there. Also the reviews passed over because they judged another
    golden.jsonl (the folder was rebuilt since: their qids and section ids may name other rows
    and sections now), for a warning; a review of a version made from this one (a pool round
    on it) is neither."""
    audit = build.folder / layout.AUDIT_FOLDER
    passed_over: list[str] = []
    later = {file_sha256(version / layout.GOLDEN) for version in descendants(build.folder)}
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
            if review.golden_sha256 not in later:
                passed_over.append(str(version / layout.REVIEW))
            continue
        # the label sheets: a review of pool sheets alone (read back from its changelog,
        # ``pool_sheet.applied_pool_reviews``) leaves an earlier label review in force
        found = [
            path
            for name in review.verdict_files
            if (path := Path(name)).is_file() and not is_pool_sheet(path)
        ]
        if found:
            return found, passed_over
    return [], passed_over
