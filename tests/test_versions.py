"""store/versions.py: the versions folder a build's reviews write, and how a version is added."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit_helpers import fresh_build
from qrelsmith.models import Estimate, PrecisionSummary, ReviewSummary
from qrelsmith.store import versions
from qrelsmith.store.buildfolder import load_build


def summary(golden_sha256: str, verdict_sha256: str = "abc") -> ReviewSummary:
    none = Estimate(value=0.0, low=0.0, high=0.0, n=0, effective_n=0.0)
    return ReviewSummary(
        verdict_files=["v.csv"],
        verdict_sha256=[verdict_sha256],
        golden_sha256=golden_sha256,
        precision=PrecisionSummary(overall=none, lenient=none, by_rule={}),
        changes=0,
    )


def test_versions_in_number_order_and_the_next_one(tmp_path: Path) -> None:
    assert versions.versions(tmp_path) == []
    assert versions.next_version(tmp_path) == tmp_path / "versions" / "v1"
    for name in ("v10", "v2", "vx", "notes", "v1"):
        (tmp_path / "versions" / name).mkdir(parents=True)
    (tmp_path / "versions" / "v3").write_text("a file, not a version")
    assert [p.name for p in versions.versions(tmp_path)] == ["v1", "v2", "v10"]
    assert versions.next_version(tmp_path).name == "v11"


def test_a_version_is_added_whole_and_read_back(tmp_path: Path) -> None:
    build = load_build(fresh_build(tmp_path))
    queries = build.queries[:2]
    target = versions.add_version(build, queries, [], "# Changes\n", summary(build.golden_sha256))
    assert target == build.folder / "versions" / "v1"
    assert sorted(p.name for p in target.iterdir()) == [
        "CHANGES.md",
        "beir",
        "changelog.jsonl",
        "corpus.jsonl",
        "golden.jsonl",
        "qrels.trec",
        "queries.tsv",
        "review.json",
    ]
    assert (target / "corpus.jsonl").read_bytes() == (build.folder / "corpus.jsonl").read_bytes()
    assert len((target / "golden.jsonl").read_text(encoding="utf-8").splitlines()) == 2
    assert versions.read_review(target) == summary(build.golden_sha256)
    assert versions.applied_sha256(build.folder) == {"abc"}
    assert versions.latest_review(build.folder, None, build.golden_sha256) is not None
    assert versions.latest_review(build.folder, None, "another golden.jsonl") is None
    second = versions.add_version(build, queries, [], "", summary(build.golden_sha256, "def"))
    assert second.name == "v2" and versions.applied_sha256(build.folder) == {"abc", "def"}


def test_a_failed_version_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build = load_build(fresh_build(tmp_path))
    versions.add_version(build, build.queries, [], "", summary(build.golden_sha256))

    def full_disk(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(versions, "write_text", full_disk)
    with pytest.raises(OSError):
        versions.add_version(build, build.queries, [], "", summary(build.golden_sha256))
    assert sorted(p.name for p in (build.folder / "versions").iterdir()) == ["v1"]
