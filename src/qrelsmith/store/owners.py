"""Who wrote a folder: the one rule of every command that writes a folder (``--out``).

``build``, ``align`` and ``export KIND`` replace their ``--out`` folder whole. Each writes only
into a folder that is empty or that holds its own earlier output; never into a build folder, a
reviewed version, an alignment, another kind's export or a folder holding one of them
(``refuse_foreign``). A writer is known by the files only it writes (``MARKS``); hidden
entries (``.git``) belong to nobody and are kept. ``validate`` (the command and the library's
``validate_build`` alike) lists a folder holding the marks of several writers
(``mixed_writers``): its files do not come from one run.

Here in the store, not in export/, because both the writers (cli/, export/) and the checker
(evaluate/validate.py, which may not import export/) read it: the names each export kind
writes are therefore listed here (``EXPORT_ENTRIES``; a test holds them to the kinds').
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import UsageError
from ..models import Problem
from .layout import (
    ALIGN_REPORT,
    BEIR_FOLDER,
    CHANGELOG,
    CHANGES,
    CORPUS,
    GOLDEN,
    QRELS,
    QUERIES,
    REPORT,
    REVIEW,
)

#: ``qrelsmith export KIND``: kind -> the names it writes at the top of its folder (each kind's
#: ``ENTRIES`` in export/, spelled again here for the checker; tests/test_owners.py fails when
#: the two differ).
EXPORT_ENTRIES: dict[str, frozenset[str]] = {
    "hf": frozenset({"README.md", "corpus", "queries", "qrels"}),
    "pyserini": frozenset({"corpus", "topics.tsv", QRELS}),
    "ragas": frozenset({"ragas.jsonl"}),
    "deepeval": frozenset({"goldens.json"}),
    "llamaindex": frozenset({"llamaindex.json"}),
    "autorag": frozenset({"qa.parquet", "corpus.parquet"}),
    "ir_datasets": frozenset({"docs.tsv", QUERIES, QRELS, "dataset.py"}),
}

#: Names several writers use for a file of their own (a dataset card, a user's notes): no mark.
SHARED_NAMES = frozenset({"README.md"})


def _export_marks() -> dict[str, frozenset[str]]:
    """Each export kind's entries that no other kind and no build writes."""
    build_names = {CORPUS, GOLDEN, QRELS, QUERIES, BEIR_FOLDER, REPORT}
    marks = {}
    for name, entries in EXPORT_ENTRIES.items():
        others = set().union(*(e for n, e in EXPORT_ENTRIES.items() if n != name))
        marks[f"export {name}"] = frozenset(entries - others - build_names - SHARED_NAMES)
    return marks


#: Writer (the command) -> the entries only it writes: one of them in a folder says the
#: writer wrote there.
MARKS: dict[str, frozenset[str]] = {
    "build": frozenset({REPORT}),
    "align": frozenset({ALIGN_REPORT}),
    "audit apply": frozenset({REVIEW, CHANGELOG, CHANGES}),
    **_export_marks(),
}

#: What a writer's folder is, in a message.
WHAT = {
    "build": "a build folder",
    "align": "an alignment",
    "audit apply": "a reviewed version",
}


def describe(writer: str, marks: list[str]) -> str:
    """A writer's folder in words: "a build folder (report.json, written by qrelsmith build)"."""
    return f"{WHAT.get(writer, 'an export')} ({', '.join(marks)}, written by qrelsmith {writer})"


def _entries(folder: Path) -> list[str]:
    """The folder's entries that belong to someone (hidden ones do not: .git, .DS_Store)."""
    try:
        return sorted(name for name in os.listdir(folder) if not name.startswith("."))
    except OSError:
        return []


def writers_of(folder: str | Path) -> dict[str, list[str]]:
    """Writer -> its marks found in ``folder``, for every writer whose files it holds."""
    names = set(_entries(Path(folder)))
    return {writer: sorted(names & marks) for writer, marks in MARKS.items() if names & marks}


def _held(folder: Path) -> str | None:
    """A sub-folder of ``folder`` some writer wrote, in words (None: none)."""
    for name in _entries(folder):
        inside = folder / name
        found = writers_of(inside) if inside.is_dir() else {}
        for writer, marks in found.items():
            return f"{describe(writer, marks)}, {inside}"
    return None


def refuse_foreign(out: str | Path, writer: str) -> None:
    """A UsageError (exit 2) naming ``out`` and what it holds, unless it is missing, empty (but
    for hidden entries) or ``writer``'s own earlier output alone."""
    folder = Path(out)
    if not folder.is_dir():
        return
    entries = _entries(folder)
    if not entries:
        return
    found = writers_of(folder)
    if list(found) == [writer]:
        return
    rule = f"{writer} writes only into an empty folder or its own earlier output; give another"
    others = {name: marks for name, marks in found.items() if name != writer}
    if others:
        what = " and ".join(describe(name, marks) for name, marks in others.items())
        raise UsageError(f"--out {out} is {what}: {rule} folder")
    held = _held(folder)
    if held is not None:
        raise UsageError(f"--out {out} holds {held}: {rule} folder")
    shown = ", ".join(entries[:3]) + (f" and {len(entries) - 3} more" if len(entries) > 3 else "")
    raise UsageError(f"--out {out} holds files qrelsmith did not write ({shown}): {rule} folder")


#: Every entry a writer puts at the top of its folder: none of them is a file another command
#: may write over (``refuse_owned_file``).
OWNED_NAMES = frozenset(
    {CORPUS, GOLDEN, QRELS, QUERIES, BEIR_FOLDER, *(mark for m in MARKS.values() for mark in m)}
    | {entry for entries in EXPORT_ENTRIES.values() for entry in entries}
)


def refuse_owned_file(out: str | Path, flag: str) -> None:
    """A UsageError (exit 2) when the file ``out`` (a run, diff.json, a plot) would replace a
    file of a folder a qrelsmith command wrote (``--out out/qrels.trec``)."""
    target = Path(out)
    writers = writers_of(target.parent) if target.name in OWNED_NAMES else {}
    if writers:
        writer, marks = next(iter(writers.items()))
        raise UsageError(
            f"{flag} {out} is {target.name} of {describe(writer, marks)}: give a file of your own"
        )


def mixed_writers(folder: str | Path) -> Problem | None:
    """``validate``'s problem for a folder whose files come from several commands (align or an
    export written over a build, before the rule above), None when they come from one."""
    writers = writers_of(folder)
    if len(writers) < 2:
        return None
    return Problem(
        kind="writers",
        file=", ".join(mark for marks in writers.values() for mark in marks),
        message="the files come from different commands: "
        + " and ".join(describe(writer, marks) for writer, marks in writers.items()),
    )
