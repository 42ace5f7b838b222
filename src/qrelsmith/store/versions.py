"""A build's reviewed versions: ``DIR/versions/vN/``, each a corrected golden set that one
``audit apply`` wrote, with the corpus it was graded on and its review (review.json).

The one reader and writer of the versions folder: which versions there are and the next one's
name, the review each holds, which verdict files were applied, and ``add_version``, which
writes a version through ``files.StagedFolder`` so that either the whole version appears or
nothing does. What goes into a version (consensus, precision, corrections) is the audit's.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Sequence
from pathlib import Path

from ..errors import DataError
from ..models import ChangelogEntry, GoldenQuery, ReviewSummary
from . import layout
from .buildfolder import Build, read_document
from .files import StagedFolder, write_json, write_jsonl, write_text
from .formats import write_golden_set


def versions(build_dir: Path) -> list[Path]:
    """The version folders ``DIR/versions/vN`` that ``audit apply`` wrote, oldest first."""
    folder = build_dir / layout.VERSIONS_FOLDER
    if not folder.is_dir():
        return []
    found = [
        c for c in folder.iterdir() if c.is_dir() and layout.version_number(c.name) is not None
    ]
    return sorted(found, key=lambda child: layout.version_number(child.name) or 0)


def next_version(build_dir: Path) -> Path:
    """``DIR/versions/vN`` with N one past the highest existing."""
    numbers = [layout.version_number(version.name) or 0 for version in versions(build_dir)]
    return build_dir / layout.VERSIONS_FOLDER / layout.version_folder(max(numbers, default=0) + 1)


def read_review(version: Path) -> ReviewSummary | None:
    """The review summary a version folder holds (precision, verdict files), None if none."""
    path = version / layout.REVIEW
    return read_document(path, ReviewSummary, "a review summary") if path.is_file() else None


def file_sha256(path: Path) -> str:
    """The sha256 of a file's bytes (``ReviewSummary.verdict_sha256``)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def applied_sha256(build_dir: Path) -> set[str]:
    """The hashes of every verdict file some ``audit apply`` of this build read (review.json),
    ``build_dir`` a build folder or one of its versions; a version folder whose review.json
    cannot be read adds none."""
    found: set[str] = set()
    for version in versions(layout.build_root(build_dir)[0]):
        try:
            summary = read_review(version)
        except (DataError, OSError):
            continue
        if summary is not None:
            found.update(summary.verdict_sha256)
    return found


def descendants(folder: Path) -> list[Path]:
    """The versions made from ``folder`` (a build folder or a version), and those made from
    them in turn (a pool round on a version), oldest first: each version's review.json names
    the golden.jsonl it was applied to. Versions whose review.json cannot be read are left
    out."""
    root, _ = layout.build_root(folder)
    goldens = {file_sha256(folder / layout.GOLDEN)}
    found: list[Path] = []
    for version in versions(root):
        try:
            review = read_review(version)
        except (DataError, OSError):
            continue
        if review is not None and review.golden_sha256 in goldens and version != folder:
            found.append(version)
            goldens.add(file_sha256(version / layout.GOLDEN))
    return found


def pool_round(folder: Path) -> int:
    """The round of a pool drawn on ``folder``: 1 on a build folder (or on a version a label
    review alone made), one past the round of the pool review that made the version."""
    if layout.build_root(folder)[1] is None:
        return 1
    review = read_review(folder)
    found = review.completeness if review is not None else None
    return found.round + 1 if found is not None else 1


def latest_review(root: Path, version: str | None, golden_sha256: str) -> ReviewSummary | None:
    """The review that measured a build's labels: that of the version ``version`` (the review
    that made it), else (the build's own labels) the latest review of the build's current
    golden.jsonl. A review of an earlier build into the same folder measured other labels:
    none applies."""
    if version:
        return read_review(root / layout.VERSIONS_FOLDER / version)
    reviews = [
        review
        for folder in versions(root)
        if (review := read_review(folder)) and review.golden_sha256 == golden_sha256
    ]
    return reviews[-1] if reviews else None


def add_version(
    build: Build,  # a build folder, or a version of it (a pool round on the version)
    queries: Sequence[GoldenQuery],
    changes: Sequence[ChangelogEntry],
    changes_text: str,
    summary: ReviewSummary,
) -> Path:
    """Write a new version folder ``DIR/versions/vN`` (N one past the highest): the golden set
    of ``queries``, a copy of the build's corpus.jsonl, the changelog (``changes`` as JSON
    lines, ``changes_text`` as changes.md) and review.json (``summary``). Staged beside it and
    renamed into place. The caller holds the build folder's lock (``files.build_lock``, as
    ``audit apply`` does), so no other writer picks the same N."""
    target = next_version(layout.build_root(build.folder)[0])  # beside the version reviewed
    with StagedFolder(target, lock=False) as staged:
        write_golden_set(staged.path, build.corpus, queries)
        shutil.copyfile(build.folder / layout.CORPUS, staged.path / layout.CORPUS)
        write_jsonl(staged.path / layout.CHANGELOG, changes)
        write_text(staged.path / layout.CHANGES, changes_text)
        write_json(staged.path / layout.REVIEW, summary)
        staged.commit()
    return target
