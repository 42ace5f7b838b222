"""Read a build folder (corpus.jsonl, golden.jsonl) and an audit sample back into records."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import DataError, UsageError
from ..export.jsonl import CORPUS, GOLDEN
from ..files import read_jsonl
from ..labels import article_of_qid, sections_by_article
from ..models import AuditSample, CorpusRecord, GoldenQuery

AUDIT_FOLDER = "audit"
SAMPLE_FILE = "sample.json"

RecordT = TypeVar("RecordT", bound=BaseModel)

_JSON_STRING = r'"(?:[^"\\]|\\.)*"'
#: The article id at the start of a corpus.jsonl line, compact (as a build writes it) or not.
_ARTICLE_ID = re.compile(
    r'\{\s*"id"\s*:\s*' + _JSON_STRING + r'\s*,\s*"article_id"\s*:\s*("(?:[^"\\]|\\.)*")'
)


@dataclass(frozen=True)
class Build:
    """The parts of a build an audit needs, with lookups by id."""

    folder: Path
    corpus: list[CorpusRecord]
    queries: list[GoldenQuery]
    golden_sha256: str
    sections: dict[str, CorpusRecord] = field(init=False)
    article_sections: dict[str, list[str]] = field(init=False)
    by_qid: dict[str, GoldenQuery] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sections", {record.id: record for record in self.corpus})
        object.__setattr__(self, "article_sections", sections_by_article(self.corpus))
        object.__setattr__(self, "by_qid", {query.qid: query for query in self.queries})

    def sections_of(self, qid: str) -> list[CorpusRecord]:
        """The corpus sections of a query's article, in corpus order."""
        ids = self.article_sections.get(article_of_qid(qid), [])
        return [self.sections[section_id] for section_id in ids]


def _read_records(
    path: Path,
    model: type[RecordT],
    keep: Callable[[dict[str, Any]], bool] | None = None,
    maybe: Callable[[str], bool] | None = None,
) -> list[RecordT]:
    records = []
    for number, value in enumerate(read_jsonl(path, maybe), 1):
        if keep is not None and not keep(value):
            continue
        try:
            records.append(model.model_validate(value))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise DataError(f"{path}: record {number}: {where}: {first['msg']}") from exc
    return records


def file_sha256(path: Path) -> str:
    """Hex digest of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_build(folder: str | Path, only_articles: Collection[str] | None = None) -> Build:
    """Read a build folder; a missing folder is a usage error, a bad record a data error.

    ``only_articles`` keeps just those articles' sections (none for an empty collection): a
    sample of a 20k-page crawl needs the text of a few dozen articles, not of all of them.
    """
    root = Path(folder)
    missing = [name for name in (CORPUS, GOLDEN) if not (root / name).is_file()]
    if missing:
        raise UsageError(f"{root} is not a build folder (no {' or '.join(missing)})")
    wanted = None if only_articles is None else frozenset(only_articles)
    if wanted is None:
        corpus = _read_records(root / CORPUS, CorpusRecord)
    else:
        # Read the article id off the start of the raw line (as corpus.jsonl is written) and
        # parse only the lines of wanted articles; a line of another shape is parsed and
        # checked like any other.
        def keep(value: dict[str, Any]) -> bool:
            return value.get("article_id") in wanted

        def maybe(line: str) -> bool:
            found = _ARTICLE_ID.match(line)
            if found is None:
                return True
            try:
                return json.loads(found.group(1)) in wanted
            except json.JSONDecodeError:
                return True

        corpus = _read_records(root / CORPUS, CorpusRecord, keep, maybe)
    queries = _read_records(root / GOLDEN, GoldenQuery)
    return Build(root, corpus, queries, file_sha256(root / GOLDEN))


def load_sample(build: Build) -> AuditSample:
    """Read ``audit/sample.json`` and check it was drawn from this build's golden.jsonl."""
    path = build.folder / AUDIT_FOLDER / SAMPLE_FILE
    if not path.is_file():
        raise DataError(
            f"no audit sample in {path.parent} (run 'qrelsmith audit sample {build.folder}')"
        )
    try:
        sample = AuditSample.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        raise DataError(f"{path}: not an audit sample: {exc.errors()[0]['msg']}") from exc
    if sample.golden_sha256 != build.golden_sha256:
        raise DataError(
            f"{path} was drawn from another golden.jsonl (the build changed since): "
            "draw a new sample"
        )
    unknown = [row.qid for row in sample.rows if row.qid not in build.by_qid]
    if unknown:
        raise DataError(f"{path}: qid {unknown[0]!r} is not in {GOLDEN}")
    return sample


def articles_of(sample: AuditSample) -> set[str]:
    """The articles a sample's queries come from."""
    return {article_of_qid(row.qid) for row in sample.rows}
