"""Checks a build folder before anyone trusts it; returns the problems found, never raises on
bad content (only on unreadable files).

Checked: qrels lines have four fields and integer grades; no id has whitespace; every qrels
query is in queries.tsv (and golden.jsonl) and every qrels document in corpus.jsonl; every query
has a grade-2 target; the corpus and the queries are not empty; golden.jsonl's `relevant`
equals the qrels' grade-2 rows; the BEIR files, when present, hold the same corpus ids, queries
and qrels rows as the TREC files; the files come from one command (``store.owners``: not a
build with an alignment or an export written over it).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..errors import DataError, UsageError
from ..labelling.labels import NAMED, named_in
from ..models import BeirDocument, BeirQuery, Problem
from ..store import layout
from ..store.buildfolder import (
    no_query_line,
    read_corpus,
    read_golden,
    read_records,
    read_topics,
)
from ..store.files import iter_lines
from ..store.owners import mixed_writers

#: Problems of one kind listed one by one before they are summarised as "... and N more".
MAX_PER_KIND = 20


def _has_space(value: str) -> bool:
    return any(char.isspace() for char in value)


def _read_qrels_rows(path: Path, problems: list[Problem]) -> list[tuple[int, str, str, int]]:
    rows: list[tuple[int, str, str, int]] = []
    for number, line in iter_lines(path):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 4 or "\t" in line:
            problems.append(
                Problem(
                    kind="format",
                    file=path.name,
                    line=number,
                    message=f"expected 'qid 0 docid grade' separated by single spaces: {line!r}",
                )
            )
            continue
        qid, _, docid, grade_text = parts
        try:
            grade = int(grade_text)
        except ValueError:
            problems.append(
                Problem(
                    kind="grade",
                    file=path.name,
                    line=number,
                    message=f"grade {grade_text!r} is not an integer",
                )
            )
            continue
        rows.append((number, qid, docid, grade))
    return rows


def _beir_rows(path: Path, problems: list[Problem]) -> list[tuple[str, str, int]]:
    rows: list[tuple[str, str, int]] = []
    for number, line in iter_lines(path):
        if number == 1:
            if line.split("\t") != ["query-id", "corpus-id", "score"]:
                problems.append(
                    Problem(
                        kind="beir",
                        file=layout.BEIR_QRELS,
                        line=1,
                        message="header is not 'query-id<TAB>corpus-id<TAB>score'",
                    )
                )
            continue
        if not line:
            continue
        parts = line.split("\t")
        try:
            rows.append((parts[0], parts[1], int(parts[2])))
        except (IndexError, ValueError):
            problems.append(
                Problem(
                    kind="beir",
                    file=layout.BEIR_QRELS,
                    line=number,
                    message=f"expected 'qid<TAB>docid<TAB>grade': {line!r}",
                )
            )
    return rows


def validate_build(root: str | Path) -> list[Problem]:
    """All problems of the build folder at ``root`` (empty list: the set can be trusted), a
    folder of several writers first."""
    folder = Path(root)
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a build folder")
    mixed = mixed_writers(folder)
    return [mixed, *_file_problems(folder)] if mixed is not None else _file_problems(folder)


def _file_problems(folder: Path) -> list[Problem]:
    """The problems of the files of ``folder``, a folder."""
    problems: list[Problem] = []
    for name in (layout.CORPUS, layout.QRELS, layout.QUERIES):
        if not (folder / name).exists():
            problems.append(Problem(kind="missing", file=name, message=f"{name} is missing"))
    if problems:
        return problems
    # A record that does not fit its model is the one problem listed: nothing else can be
    # checked against that file.
    try:
        corpus_ids = [record.id for record in read_corpus(folder / layout.CORPUS)]
    except DataError as exc:
        return [Problem(kind="format", file=layout.CORPUS, message=str(exc))]
    try:
        golden = read_golden(folder / layout.GOLDEN) if (folder / layout.GOLDEN).exists() else None
    except DataError as exc:
        return [Problem(kind="format", file=layout.GOLDEN, message=str(exc))]
    queries = read_topics(folder / layout.QUERIES)
    rows = _read_qrels_rows(folder / layout.QRELS, problems)
    for name, empty in ((layout.CORPUS, not corpus_ids), (layout.QUERIES, not queries)):
        if empty:  # nothing to evaluate against: such a set measures nothing
            message = f"{name} is empty"
            if name == layout.QUERIES:  # the build's own answer: the sources and why
                message += f": {no_query_line(folder)}"
            problems.append(Problem(kind="empty", file=name, message=message))

    for name, ids in ((layout.CORPUS, corpus_ids), (layout.QUERIES, list(queries))):
        for value, count in Counter(ids).items():
            if count > 1:
                problems.append(
                    Problem(
                        kind="duplicate", file=name, message=f"id {value!r} appears {count} times"
                    )
                )
        for value in ids:
            if not value or _has_space(value):
                problems.append(
                    Problem(
                        kind="whitespace",
                        file=name,
                        message=f"id {value!r} is empty or has whitespace",
                    )
                )

    corpus_set = set(corpus_ids)
    grade2: dict[str, set[str]] = {}
    seen_pairs: set[tuple[str, str]] = set()
    for number, qid, docid, grade in rows:
        if (qid, docid) in seen_pairs:
            problems.append(
                Problem(
                    kind="duplicate",
                    file=layout.QRELS,
                    line=number,
                    message=f"{qid} {docid} is judged twice",
                )
            )
        seen_pairs.add((qid, docid))
        if qid not in queries:
            problems.append(
                Problem(
                    kind="unknown-query",
                    file=layout.QRELS,
                    line=number,
                    message=f"query {qid} is not in queries.tsv",
                )
            )
        if docid not in corpus_set:
            problems.append(
                Problem(
                    kind="unknown-doc",
                    file=layout.QRELS,
                    line=number,
                    message=f"document {docid} is not in corpus.jsonl",
                )
            )
        grade2.setdefault(qid, set())
        if grade == NAMED:
            grade2[qid].add(docid)
    for qid in queries:
        if not grade2.get(qid):
            problems.append(
                Problem(
                    kind="no-target",
                    file=layout.QRELS,
                    message=f"query {qid} has no grade-{NAMED} document",
                )
            )

    if golden is not None:
        by_qid = {query.qid: query for query in golden}
        if set(by_qid) != set(queries):
            extra = sorted(set(by_qid) ^ set(queries))
            problems.append(
                Problem(
                    kind="golden",
                    file=layout.GOLDEN,
                    message=f"query ids differ from {layout.QUERIES}: {extra[:5]}",
                )
            )
        for qid, query in by_qid.items():
            if qid in grade2 and set(named_in(query.relevant)) != grade2[qid]:
                problems.append(
                    Problem(
                        kind="golden",
                        file=layout.GOLDEN,
                        message=f"{qid}: relevant differs from qrels' grade {NAMED}",
                    )
                )

    beir = folder / layout.BEIR_FOLDER
    if beir.is_dir():
        problems += _check_beir(beir, corpus_ids, queries, rows)
    return _cap(problems)


def _check_beir(
    beir: Path,
    corpus_ids: list[str],
    queries: dict[str, str],
    rows: list[tuple[int, str, str, int]],
) -> list[Problem]:
    problems: list[Problem] = []
    root = beir.parent
    parts = {
        "corpus": root / layout.BEIR_CORPUS,
        "queries": root / layout.BEIR_QUERIES,
        "qrels": root / layout.BEIR_QRELS,
    }
    for path in parts.values():
        if not path.exists():
            problems.append(
                Problem(
                    kind="beir",
                    file=str(path.relative_to(beir.parent)),
                    message="missing while beir/ exists",
                )
            )
    if problems:
        return problems
    try:
        beir_ids = [r.id for r in read_records(parts["corpus"], BeirDocument)]
        beir_queries = {r.id: r.text for r in read_records(parts["queries"], BeirQuery)}
    except DataError as exc:
        return [Problem(kind="beir", file=layout.BEIR_FOLDER, message=str(exc))]
    if beir_ids != corpus_ids:
        problems.append(
            Problem(
                kind="beir",
                file=layout.BEIR_CORPUS,
                message=f"ids differ from {layout.CORPUS} (set or order)",
            )
        )
    if beir_queries != queries:
        problems.append(
            Problem(
                kind="beir",
                file=layout.BEIR_QUERIES,
                message=f"queries differ from {layout.QUERIES}",
            )
        )
    trec_rows = [(qid, docid, grade) for _, qid, docid, grade in rows]
    if _beir_rows(parts["qrels"], problems) != trec_rows:
        problems.append(
            Problem(kind="beir", file=layout.BEIR_QRELS, message=f"rows differ from {layout.QRELS}")
        )
    return problems


def _cap(problems: list[Problem]) -> list[Problem]:
    kept: list[Problem] = []
    per_kind: Counter[str] = Counter()
    for problem in problems:
        per_kind[problem.kind] += 1
        if per_kind[problem.kind] <= MAX_PER_KIND:
            kept.append(problem)
    for kind, count in per_kind.items():
        if count > MAX_PER_KIND:
            kept.append(
                Problem(
                    kind=kind,
                    file="-",
                    message=f"... and {count - MAX_PER_KIND} more {kind} problems",
                )
            )
    return kept


def format_problem(problem: Problem) -> str:
    """``file:line: kind: message`` for people."""
    where = f"{problem.file}:{problem.line}" if problem.line else problem.file
    return f"{where}: {problem.kind}: {problem.message}"
