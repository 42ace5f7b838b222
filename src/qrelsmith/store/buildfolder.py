"""A build folder read back into the models: the one reader of what ``formats/`` wrote.

``load_build`` reads corpus.jsonl into ``CorpusRecord``s and golden.jsonl into
``GoldenQuery``s, and qrels.trec and queries.tsv on first use; audit, baseline, eval, check,
validate and align all read a build (or a corrected version, or an alignment) through it.
File names are layout.py's. A missing folder or file is a usage error, a record
that does not fit its model a data error naming the file and the record.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import IO, Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import DataError, UsageError
from ..labelling.labels import sections_by_article
from ..models import CorpusRecord, GoldenQuery
from .files import decode_utf8, first_bad_line, iter_lines, read_jsonl, read_source
from .layout import CORPUS, GOLDEN, QRELS, QUERIES, article_of

#: qid -> docid -> grade
Qrels = dict[str, dict[str, int]]

RecordT = TypeVar("RecordT", bound=BaseModel)

_JSON_STRING = r'"(?:[^"\\]|\\.)*"'
#: The article id at the start of a corpus.jsonl line, compact (as a build writes it) or not.
_ARTICLE_ID = re.compile(
    r'\{\s*"id"\s*:\s*' + _JSON_STRING + r'\s*,\s*"article_id"\s*:\s*("(?:[^"\\]|\\.)*")'
)


@dataclass(frozen=True)
class Build:
    """A build folder's records, with lookups by id.

    ``corpus`` and ``queries`` (golden.jsonl) are read by ``load_build``; ``qrels``,
    ``topics`` (queries.tsv, else the golden queries' text) and ``golden_sha256`` when first
    asked for. A file the folder lacks reads as empty.
    """

    folder: Path
    corpus: list[CorpusRecord]
    queries: list[GoldenQuery]
    sections: dict[str, CorpusRecord] = field(init=False)
    article_sections: dict[str, list[str]] = field(init=False)
    by_qid: dict[str, GoldenQuery] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sections", {record.id: record for record in self.corpus})
        object.__setattr__(self, "article_sections", sections_by_article(self.corpus))
        object.__setattr__(self, "by_qid", {query.qid: query for query in self.queries})

    @cached_property
    def qrels(self) -> Qrels:
        """qrels.trec: qid -> docid -> grade."""
        path = self.folder / QRELS
        return read_qrels(path) if path.is_file() else {}

    @cached_property
    def topics(self) -> dict[str, str]:
        """qid -> query text, from queries.tsv, else from golden.jsonl."""
        path = self.folder / QUERIES
        if path.is_file():
            return read_topics(path)
        return {query.qid: query.query for query in self.queries}

    @cached_property
    def golden_sha256(self) -> str:
        """The digest of golden.jsonl's bytes: what an audit sample was drawn from."""
        return hashlib.sha256((self.folder / GOLDEN).read_bytes()).hexdigest()

    @cached_property
    def doc_ids(self) -> set[str]:
        """Ids of the corpus sections."""
        return set(self.sections)

    def sections_of(self, qid: str) -> list[CorpusRecord]:
        """The corpus sections of a query's article, in corpus order."""
        ids = self.article_sections.get(article_of(qid), [])
        return [self.sections[section_id] for section_id in ids]

    def article_ids(self) -> dict[str, str]:
        """qid -> article id of every judged query: from the qid when it names an article of
        the corpus, else from golden.jsonl's ``origin.path``.

        The qid's own article id comes first: a path with a space or '%' is percent-encoded in
        the id (the corpus's ``article_id``) but not in ``origin.path``.
        """
        known = set(self.article_sections)
        articles = {qid: article_of(qid) for qid in self.qrels}
        for query in self.queries:
            if query.origin.path and articles.get(query.qid) not in known:
                articles[query.qid] = query.origin.path
        return articles


def build_topics(build: Build, shown: str) -> dict[str, str]:
    """The build's queries (``Build.topics``); a DataError naming ``shown`` when it has none,
    saying whether its files hold none or are missing."""
    if build.topics:
        return build.topics
    present = [name for name in (QUERIES, GOLDEN) if (build.folder / name).is_file()]
    if present:  # the build made no query: say so, not that a file is missing
        raise DataError(f"{shown}: no queries ({' and '.join(present)} hold none)")
    raise DataError(f"{shown}: no {QUERIES} or {GOLDEN}")


def load_build(
    folder: str | Path,
    *,
    need: Collection[str] = (CORPUS, GOLDEN),
    only_articles: Collection[str] | None = None,
) -> Build:
    """Read a build folder; the files named in ``need`` must be there (a usage error if not).

    ``only_articles`` keeps just those articles' sections (none for an empty collection): a
    sample of a 20k-page crawl needs the text of a few dozen articles, not of all of them.
    """
    root = Path(folder)
    missing = [name for name in need if not (root / name).is_file()]
    if missing or not root.is_dir():
        names = " and ".join(missing) or "its files"
        are = "is" if len(missing) == 1 else "are"
        raise UsageError(f"{root} is not a build folder: {names} {are} missing")
    corpus_path, golden_path = root / CORPUS, root / GOLDEN
    corpus = read_corpus(corpus_path, only_articles) if corpus_path.is_file() else []
    queries = read_golden(golden_path) if golden_path.is_file() else []
    return Build(root, corpus, queries)


def read_records(
    path: Path,
    model: type[RecordT],
    keep: Callable[[dict[str, Any]], bool] | None = None,
    maybe: Callable[[str], bool] | None = None,
) -> list[RecordT]:
    """The lines of a JSON-lines file as ``model``s; DataError naming the first that does not
    fit. ``keep`` and ``maybe`` as in ``files.read_jsonl``, on the parsed and the raw line."""
    return list(iter_records(path, model, keep, maybe))


def iter_records(
    path: Path,
    model: type[RecordT],
    keep: Callable[[dict[str, Any]], bool] | None = None,
    maybe: Callable[[str], bool] | None = None,
) -> Iterator[RecordT]:
    """``read_records`` one record at a time (a caller keeping a part of each holds no more)."""
    for number, value in enumerate(read_jsonl(path, maybe), 1):
        if keep is not None and not keep(value):
            continue
        try:
            yield model.model_validate(value)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = "".join(f"{part}: " for part in [".".join(map(str, first["loc"]))] if part)
            message = first["msg"].removeprefix("Value error, ")  # a model's own check
            raise DataError(f"{path}: record {number}: {where}{message}") from exc


def read_document(path: Path, model: type[RecordT], what: str) -> RecordT:
    """A JSON document of a build folder (report.json, audit/sample.json, audit/diff.json,
    versions/vN/review.json) as ``model``; a DataError naming the file when it is not ``what``."""
    try:
        return model.model_validate_json(decode_utf8(path.read_bytes(), path))
    except ValidationError as exc:
        raise DataError(f"{path}: not {what}: {exc.errors()[0]['msg']}") from exc


def no_query_line(folder: Path) -> str:
    """The one answer for a build folder without a query (``check`` and ``validate`` say
    what ``build`` says): the query sources report.json names and why each found nothing."""
    from ..models import Report
    from ..run.report import why_no_query
    from .layout import REPORT

    try:
        report = read_document(folder / REPORT, Report, "report")
    except (DataError, OSError):
        report = None
    return f"no query in {folder}: {why_no_query(report)}"


def read_corpus(path: Path, only_articles: Collection[str] | None = None) -> list[CorpusRecord]:
    """corpus.jsonl; with ``only_articles``, the sections of those articles only (none, and
    the file unread, for an empty collection: the callers that want the queries alone; a
    later read of the sections checks its lines)."""
    if only_articles is None:
        return read_records(path, CorpusRecord)
    wanted = frozenset(only_articles)
    if not wanted:
        return []

    # Read the article id off the start of the raw line (as corpus.jsonl is written) and parse
    # only the lines of wanted articles; a line of another shape is parsed and checked like
    # any other.
    def keep(value: dict[str, Any]) -> bool:
        return value.get("article_id") in wanted

    def maybe(line: str) -> bool:
        found = _ARTICLE_ID.match(line)
        if found is None:
            return True
        written = found.group(1)
        if "\\" not in written and written.isprintable():
            return written[1:-1] in wanted  # no escape, no control character: the id as it is
        try:
            return json.loads(written) in wanted
        except json.JSONDecodeError:
            return True

    return read_records(path, CorpusRecord, keep, maybe)


def read_golden(path: Path) -> list[GoldenQuery]:
    """golden.jsonl."""
    return read_records(path, GoldenQuery)


def read_qrels(source: str | Path | IO[str]) -> Qrels:
    """TREC qrels (``qid 0 docid grade``): a path, ``-`` or an open text file. The lines are
    parsed by ir_measures; a line it refuses is a DataError naming it."""
    import ir_measures  # only where qrels are read: it costs a noticeable share of a start

    text, name = read_source(source)
    qrels: Qrels = {}
    try:
        for qrel in ir_measures.read_trec_qrels(io.StringIO(text)):
            qrels.setdefault(qrel.query_id, {})[qrel.doc_id] = int(qrel.relevance)
    except ValueError as exc:
        line = first_bad_line(text.splitlines(), 4)
        raise DataError(f"{name}:{line}: not a TREC qrels line (qid 0 docid grade)") from exc
    return qrels


def read_topics(path: str | Path) -> dict[str, str]:
    """queries.tsv: ``qid<TAB>query`` per line, in file order."""
    return dict(_topic_lines(path))


def _topic_lines(path: str | Path) -> Iterator[tuple[str, str]]:
    for number, line in iter_lines(path):
        if not line.strip():
            continue
        qid, tab, text = line.partition("\t")
        if not tab:
            raise DataError(f"{path}:{number}: expected 'qid<TAB>query'")
        yield qid, text
