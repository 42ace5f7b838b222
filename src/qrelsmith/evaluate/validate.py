"""Checks a build folder before anyone trusts it; returns the problems found, never raises on
bad content (only on unreadable files).

Checked: qrels lines have four fields and integer grades; no id has whitespace; every qrels
query is in queries.tsv (and golden.jsonl) and every qrels document in corpus.jsonl; every query
has a grade-2 target; the corpus and the queries are not empty; golden.jsonl's `relevant`
equals the qrels' grade-2 rows; the BEIR files, when present, hold the same corpus ids, queries
and qrels rows as the TREC files.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..errors import UsageError
from ..files import read_jsonl
from ..models import Problem
from .runs import iter_lines, read_queries_tsv

#: Problems of one kind listed one by one before they are summarised as "... and N more".
MAX_PER_KIND = 20


def _has_space(value: str) -> bool:
    return any(char.isspace() for char in value)


def _read_qrels_rows(
    path: Path, problems: list[Problem]
) -> list[tuple[int, str, str, int]]:
    rows: list[tuple[int, str, str, int]] = []
    for number, line in iter_lines(path):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 4 or "\t" in line:
            problems.append(Problem(
                kind="format", file=path.name, line=number,
                message=f"expected 'qid 0 docid grade' separated by single spaces: {line!r}",
            ))
            continue
        qid, _, docid, grade_text = parts
        try:
            grade = int(grade_text)
        except ValueError:
            problems.append(Problem(kind="grade", file=path.name, line=number,
                                    message=f"grade {grade_text!r} is not an integer"))
            continue
        rows.append((number, qid, docid, grade))
    return rows


def _beir_rows(path: Path, problems: list[Problem]) -> list[tuple[str, str, int]]:
    rows: list[tuple[str, str, int]] = []
    for number, line in iter_lines(path):
        if number == 1:
            if line.split("\t") != ["query-id", "corpus-id", "score"]:
                problems.append(Problem(kind="beir", file="beir/qrels/test.tsv", line=1,
                                        message="header is not 'query-id<TAB>corpus-id<TAB>score'"))
            continue
        if not line:
            continue
        parts = line.split("\t")
        try:
            rows.append((parts[0], parts[1], int(parts[2])))
        except (IndexError, ValueError):
            problems.append(Problem(kind="beir", file="beir/qrels/test.tsv", line=number,
                                    message=f"expected 'qid<TAB>docid<TAB>grade': {line!r}"))
    return rows


def validate_build(root: str | Path) -> list[Problem]:
    """All problems of the build folder at ``root`` (empty list: the set can be trusted)."""
    folder = Path(root)
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a build folder")
    problems: list[Problem] = []
    for name in ("corpus.jsonl", "qrels.trec", "queries.tsv"):
        if not (folder / name).exists():
            problems.append(Problem(kind="missing", file=name, message=f"{name} is missing"))
    if problems:
        return problems

    corpus_ids: list[str] = [str(r.get("id")) for r in read_jsonl(folder / "corpus.jsonl")]
    queries = read_queries_tsv(folder / "queries.tsv")
    rows = _read_qrels_rows(folder / "qrels.trec", problems)
    for name, empty in (("corpus.jsonl", not corpus_ids), ("queries.tsv", not queries)):
        if empty:  # nothing to evaluate against: such a set measures nothing
            problems.append(Problem(kind="empty", file=name, message=f"{name} is empty"))

    for name, ids in (("corpus.jsonl", corpus_ids), ("queries.tsv", list(queries))):
        for value, count in Counter(ids).items():
            if count > 1:
                problems.append(Problem(kind="duplicate", file=name,
                                        message=f"id {value!r} appears {count} times"))
        for value in ids:
            if not value or _has_space(value):
                problems.append(Problem(kind="whitespace", file=name,
                                        message=f"id {value!r} is empty or has whitespace"))

    corpus_set = set(corpus_ids)
    grade2: dict[str, set[str]] = {}
    seen_pairs: set[tuple[str, str]] = set()
    for number, qid, docid, grade in rows:
        if (qid, docid) in seen_pairs:
            problems.append(Problem(kind="duplicate", file="qrels.trec", line=number,
                                    message=f"{qid} {docid} is judged twice"))
        seen_pairs.add((qid, docid))
        if qid not in queries:
            problems.append(Problem(kind="unknown-query", file="qrels.trec", line=number,
                                    message=f"query {qid} is not in queries.tsv"))
        if docid not in corpus_set:
            problems.append(Problem(kind="unknown-doc", file="qrels.trec", line=number,
                                    message=f"document {docid} is not in corpus.jsonl"))
        grade2.setdefault(qid, set())
        if grade == 2:
            grade2[qid].add(docid)
    for qid in queries:
        if not grade2.get(qid):
            problems.append(Problem(kind="no-target", file="qrels.trec",
                                    message=f"query {qid} has no grade-2 document"))

    golden_path = folder / "golden.jsonl"
    if golden_path.exists():
        golden = {str(r.get("qid")): r for r in read_jsonl(golden_path)}
        if set(golden) != set(queries):
            extra = sorted(set(golden) ^ set(queries))
            problems.append(Problem(kind="golden", file="golden.jsonl",
                                    message=f"query ids differ from queries.tsv: {extra[:5]}"))
        for qid, record in golden.items():
            relevant = {d for d, g in (record.get("relevant") or {}).items() if g == 2}
            if qid in grade2 and relevant != grade2[qid]:
                problems.append(Problem(kind="golden", file="golden.jsonl",
                                        message=f"{qid}: relevant differs from qrels' grade 2"))

    beir = folder / "beir"
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
    parts = {
        "corpus": beir / "corpus.jsonl",
        "queries": beir / "queries.jsonl",
        "qrels": beir / "qrels" / "test.tsv",
    }
    for path in parts.values():
        if not path.exists():
            problems.append(Problem(kind="beir", file=str(path.relative_to(beir.parent)),
                                    message="missing while beir/ exists"))
    if problems:
        return problems
    beir_ids = [str(r.get("_id")) for r in read_jsonl(parts["corpus"])]
    if beir_ids != corpus_ids:
        problems.append(Problem(kind="beir", file="beir/corpus.jsonl",
                                message="ids differ from corpus.jsonl (set or order)"))
    beir_queries = {str(r.get("_id")): str(r.get("text")) for r in read_jsonl(parts["queries"])}
    if beir_queries != queries:
        problems.append(Problem(kind="beir", file="beir/queries.jsonl",
                                message="queries differ from queries.tsv"))
    trec_rows = [(qid, docid, grade) for _, qid, docid, grade in rows]
    if _beir_rows(parts["qrels"], problems) != trec_rows:
        problems.append(Problem(kind="beir", file="beir/qrels/test.tsv",
                                message="rows differ from qrels.trec"))
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
            kept.append(Problem(kind=kind, file="-",
                                message=f"... and {count - MAX_PER_KIND} more {kind} problems"))
    return kept


def format_problem(problem: Problem) -> str:
    """``file:line: kind: message`` for people."""
    where = f"{problem.file}:{problem.line}" if problem.line else problem.file
    return f"{where}: {problem.kind}: {problem.message}"
