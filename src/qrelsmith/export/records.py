"""What every export kind is written from (``ExportSource``: a build's ``GoldenSet``, its report,
the kind's options), and the shape of an export kind."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..labelling.labels import NAMED
from ..models import CorpusRecord, GoldenQuery, Report, ReviewSummary
from ..store.buildfolder import Build, read_document
from ..store.formats.goldenset import GoldenSet, golden_set
from ..store.layout import REPORT, ascii_id, build_root


def contents(record: CorpusRecord) -> str:
    """A section as one text, for formats with a single text field: its heading, a line
    break, its text (BEIR and the Hub keep the heading apart, as the title)."""
    return f"{record.heading}\n{record.text}" if record.heading else record.text


@dataclass(frozen=True)
class KindOption:
    """A command-line option of one export kind, as data: the CLI turns it into argparse."""

    flag: str
    help: str
    required: bool = False
    repeat: bool = False
    choices: tuple[str, ...] | None = None
    default: str | None = None
    metavar: str | None = None

    @property
    def dest(self) -> str:
        """The key of its value in ``ExportSource.options``."""
        return self.flag.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class ExportSource:
    """What an export kind writes from: the golden set, where it came from, its options.

    ``folder`` is the folder exported, ``root`` its build folder; ``version`` names the
    ``versions/vN`` exported, if one was; ``report`` and ``review`` (the review that measured
    these labels, if any) say how the labels were made."""

    records: GoldenSet
    folder: Path
    root: Path
    version: str | None = None
    report: Report | None = None
    review: ReviewSummary | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def corpus(self) -> Sequence[CorpusRecord]:
        return self.records.corpus

    @property
    def queries(self) -> Sequence[GoldenQuery]:
        return self.records.queries

    def named(self, query: GoldenQuery) -> list[CorpusRecord]:
        """The grade-2 sections of ``query`` that are in the corpus, in the query's order: the
        named ones, then those a pooled review judged relevant (``judged``)."""
        sections = self.sections
        pooled = [i for i, grade in query.judged.items() if grade == NAMED]
        return [sections[i] for i in [*query.relevant, *pooled] if i in sections]

    @cached_property
    def sections(self) -> dict[str, CorpusRecord]:
        return {record.id: record for record in self.corpus}


@dataclass(frozen=True)
class ExportKind:
    """One kind of ``qrelsmith export``: ``write`` fills a (staging) folder and returns the
    summary line's counts; ``entries`` are the names it writes at the top of that folder
    (any other entry of ``--out``, such as a Hub clone's ``.git``, is kept)."""

    help: str
    description: str
    write: Callable[[Path, ExportSource], str]
    entries: frozenset[str]
    options: tuple[KindOption, ...] = ()
    epilog: str = ""


def with_ascii_ids(records: GoldenSet) -> GoldenSet:
    """The same set with every id in printable ASCII (``layout.ascii_id``): sections,
    articles, queries and the judgements' ids; texts and paths unchanged."""
    corpus = [
        r.model_copy(update={"id": ascii_id(r.id), "article_id": ascii_id(r.article_id)})
        for r in records.corpus
    ]
    queries = [
        q.model_copy(
            update={
                "qid": ascii_id(q.qid),
                "relevant": {ascii_id(i): grade for i, grade in q.relevant.items()},
                "judged": {ascii_id(i): grade for i, grade in q.judged.items()},
            }
        )
        for q in records.queries
    ]
    rows = [(ascii_id(q), ascii_id(d), grade) for q, d, grade in records.rows]
    return GoldenSet(corpus, queries, rows)


def export_source(
    build: Build, options: Mapping[str, Any] | None = None, ascii_ids: bool = False
) -> ExportSource:
    """What an export of ``build`` (a build folder or a ``versions/vN``) writes from: its
    records (ids in ASCII with ``ascii_ids``), the report of the build they came from (if it
    has one) and the kind's options. The review is the audit's to find
    (``store.versions.latest_review``)."""
    root, version = build_root(build.folder)
    report_path = root / REPORT
    report = read_document(report_path, Report, "a build report") if report_path.is_file() else None
    records = golden_set(build.corpus, build.queries)
    return ExportSource(
        records=with_ascii_ids(records) if ascii_ids else records,
        folder=build.folder,
        root=root,
        version=version,
        report=report,
        options=options or {},
    )
