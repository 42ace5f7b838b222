"""Reading a build folder, TREC runs and TREC qrels into plain dicts.

Readers take a path, ``-`` for stdin (runs only) or an open text file. Parsing of the TREC
lines is left to ir_measures' ``read_trec_run`` / ``read_trec_qrels``; we only turn their
``ValueError`` into a ``DataError`` that names the file and the first bad line.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import ir_measures

from ..errors import DataError, UsageError
from ..files import read_jsonl

#: qid -> docid -> grade
Qrels = dict[str, dict[str, int]]
#: qid -> [(docid, score)], best first in trec_eval's order
Run = dict[str, list[tuple[str, float]]]

QUERY_MARK = "#q"


def article_of(qid: str) -> str:
    """The article id of a query id: the part before the last ``#q`` (formats.md)."""
    head, mark, _ = qid.rpartition(QUERY_MARK)
    return head if mark else qid


def _read_text(source: str | Path | IO[str]) -> tuple[str, str]:
    """(content, name) of a path, ``-`` (stdin) or an open text file."""
    if not isinstance(source, str | Path):
        return source.read(), str(getattr(source, "name", "<stream>"))
    if str(source) == "-":
        return sys.stdin.read(), "stdin"
    try:
        with open(source, encoding="utf-8-sig") as handle:
            return handle.read(), str(source)
    except FileNotFoundError as exc:
        raise UsageError(f"input path not found: {source}") from exc
    except OSError as exc:
        raise DataError(f"cannot read {source}: {exc.strerror or exc}") from exc


def _first_bad_line(lines: Iterable[str], fields: int) -> int:
    for number, line in enumerate(lines, 1):
        parts = line.split()
        if parts and len(parts) != fields:
            return number
    return 0


def order_run(scored: Iterable[tuple[str, str, float]]) -> Run:
    """Group (qid, docid, score) and sort as trec_eval does: score down, then docid down.

    trec_eval ignores the rank column; ties in score are broken by the document id in
    decreasing string order, so our own measures see the same ranking as ir_measures.
    """
    run: Run = {}
    for qid, docid, score in scored:
        run.setdefault(qid, []).append((docid, score))
    for docs in run.values():
        docs.sort(key=lambda item: item[0], reverse=True)
        docs.sort(key=lambda item: item[1], reverse=True)
    return run


def read_run(source: str | Path | IO[str]) -> Run:
    """Read a TREC run (``qid Q0 docid rank score tag``); duplicates of a docid keep the first."""
    text, name = _read_text(source)
    try:
        docs = [
            (doc.query_id, doc.doc_id, float(doc.score))
            for doc in ir_measures.read_trec_run(io.StringIO(text))
        ]
    except ValueError as exc:
        line = _first_bad_line(text.splitlines(), 6)
        raise DataError(
            f"{name}:{line}: not a TREC run line (qid Q0 docid rank score tag)"
        ) from exc
    seen: set[tuple[str, str]] = set()
    unique = []
    for qid, docid, score in docs:
        if (qid, docid) not in seen:
            seen.add((qid, docid))
            unique.append((qid, docid, score))
    return order_run(unique)


def read_qrels(source: str | Path | IO[str]) -> Qrels:
    """Read TREC qrels (``qid 0 docid grade``)."""
    text, name = _read_text(source)
    qrels: Qrels = {}
    try:
        for qrel in ir_measures.read_trec_qrels(io.StringIO(text)):
            qrels.setdefault(qrel.query_id, {})[qrel.doc_id] = int(qrel.relevance)
    except ValueError as exc:
        line = _first_bad_line(text.splitlines(), 4)
        raise DataError(f"{name}:{line}: not a TREC qrels line (qid 0 docid grade)") from exc
    return qrels


def write_run(handle: IO[str], run: Run, tag: str) -> int:
    """Write ``qid Q0 docid rank score tag`` lines; returns the number of lines."""
    count = 0
    for qid, docs in run.items():
        for rank, (docid, score) in enumerate(docs, 1):
            handle.write(f"{qid} Q0 {docid} {rank} {score:.6f} {tag}\n")
            count += 1
    return count


def read_queries_tsv(path: str | Path) -> dict[str, str]:
    """queries.tsv: ``qid<TAB>query`` per line, in file order."""
    queries: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8-sig") as handle:
            for number, line in enumerate(handle, 1):
                line = line.rstrip("\n")
                if not line.strip():
                    continue
                qid, tab, text = line.partition("\t")
                if not tab:
                    raise DataError(f"{path}:{number}: expected 'qid<TAB>query'")
                queries[qid] = text
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return queries


@dataclass
class BuildSet:
    """The parts of a build folder that evaluation needs, read once."""

    root: Path
    corpus: list[dict[str, Any]] = field(default_factory=list)
    golden: list[dict[str, Any]] = field(default_factory=list)
    qrels: Qrels = field(default_factory=dict)
    queries: dict[str, str] = field(default_factory=dict)

    @property
    def doc_ids(self) -> set[str]:
        """Ids of the corpus sections."""
        return {str(record["id"]) for record in self.corpus}

    def article_ids(self) -> dict[str, str]:
        """qid -> article id: from the qid when it names an article of the corpus, else from
        golden.jsonl's origin.path when present, else from the qid.

        The qid's own article id comes first: a path with a space or '%' is percent-encoded in
        the id (the corpus's ``article_id``) but not in ``origin.path``.
        """
        known = {str(record.get("article_id")) for record in self.corpus}
        articles = {qid: article_of(qid) for qid in self.qrels}
        for record in self.golden:
            qid = str(record["qid"])
            origin = record.get("origin") or {}
            if origin.get("path") and articles.get(qid) not in known:
                articles[qid] = str(origin["path"])
        return articles


def load_build(root: str | Path, *, need: Iterable[str] = ("corpus", "qrels")) -> BuildSet:
    """Read a build folder (see docs/formats.md); files named in ``need`` must exist."""
    folder = Path(root)
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a build folder")
    files = {
        "corpus": folder / "corpus.jsonl",
        "golden": folder / "golden.jsonl",
        "qrels": folder / "qrels.trec",
        "queries": folder / "queries.tsv",
    }
    for name in need:
        if not files[name].exists():
            raise UsageError(f"{folder} is not a build folder: {files[name].name} is missing")
    build = BuildSet(root=folder)
    if files["corpus"].exists():
        build.corpus = list(read_jsonl(files["corpus"]))
    if files["golden"].exists():
        build.golden = list(read_jsonl(files["golden"]))
    if files["qrels"].exists():
        build.qrels = read_qrels(files["qrels"])
    if files["queries"].exists():
        build.queries = read_queries_tsv(files["queries"])
    elif build.golden:
        build.queries = {str(r["qid"]): str(r["query"]) for r in build.golden}
    return build


def iter_lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """Numbered lines of a text file without their line ending; DataError when unreadable."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            for number, line in enumerate(handle, 1):
                yield number, line.rstrip("\n").rstrip("\r")
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from exc
