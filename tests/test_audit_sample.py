"""Stratified, seeded sampling and its weights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qrelsmith.audit.sample import (
    allocate,
    draw_sample,
    planned_half_width,
    sample_summary,
    stratum_of,
)
from qrelsmith.config import AuditOptions
from qrelsmith.errors import DataError
from qrelsmith.models import GoldenQuery, Origin


def query(
    i: int, match: str = "contains", confidence: float = 0.9, sections: int = 1
) -> GoldenQuery:
    return GoldenQuery(
        qid=f"a{i % 17}.html#q{i}",
        query=f"q{i}",
        answer="a",
        relevant={f"a{i % 17}.html#{n}": 2 for n in range(sections)},
        same_article=1,
        table="t",
        reference="r",
        match=match,
        confidence=confidence,
        origin=Origin(path="a", row=i),
        flags=[],
    )


def population() -> list[GoldenQuery]:
    return (
        [query(i) for i in range(300)]
        + [query(i, "fuzzy", 0.62) for i in range(300, 320)]
        + [query(i, "fuzzy", 0.78) for i in range(320, 340)]
        + [query(i, sections=2) for i in range(340, 360)]
    )


def test_strata() -> None:
    assert stratum_of(query(1, "fuzzy", 0.7, sections=2), 0.75) == "low_confidence"
    assert stratum_of(query(1, "order", 0.65), 0.75) == "low_confidence"  # any rule counts
    assert stratum_of(query(1, "contains", 0.7), 0.75) == "low_confidence"
    assert stratum_of(query(1, "fuzzy", 0.78), 0.75) == "fuzzy"
    assert stratum_of(query(1, "order", 0.78), 0.75) == "fuzzy"
    assert stratum_of(query(1, "exact", 0.99, sections=2), 0.75) == "multi"
    assert stratum_of(query(1, "anchor", 1.0), 0.75) == "plain"
    # content labels have their own stratum, whatever their (always low) confidence
    assert stratum_of(query(1, "content", 0.5), 0.75) == "content"
    assert stratum_of(query(1, "content", 0.5, sections=2), 0.4) == "content"


def test_strata_are_the_oversampled_ones_in_their_order() -> None:
    # STRATA is patterns.OVERSAMPLE's keys: the names stratum_of gives, tried in that order
    # (a content label is content whatever its confidence; a low-confidence fuzzy two-section
    # query is low_confidence, then fuzzy, then multi)
    from qrelsmith import patterns
    from qrelsmith.audit.sample import STRATA

    found = [
        stratum_of(query(1, "content", 0.5, sections=2), 0.75),
        stratum_of(query(1, "fuzzy", 0.7, sections=2), 0.75),
        stratum_of(query(1, "fuzzy", 0.78, sections=2), 0.75),
        stratum_of(query(1, "exact", 0.99, sections=2), 0.75),
        stratum_of(query(1, "exact", 0.99), 0.75),
    ]
    assert found == list(STRATA) == list(patterns.OVERSAMPLE)


def test_risky_rows_over_represented_and_weights_unbiased() -> None:
    sample = draw_sample(population(), AuditOptions(size=40, low_confidence=0.75, seed=0))
    assert len(sample.rows) == 40
    counts = {name: s.sampled for name, s in sample.strata.items()}
    risky_share_in_sample = (40 - counts["plain"]) / 40
    assert risky_share_in_sample > 60 / 360 * 2
    # Weights add up to the population of every stratum, so a weighted mean is unbiased.
    for name, stratum in sample.strata.items():
        total = sum(row.weight for row in sample.rows if row.stratum == name)
        assert round(total, 9) == stratum.population


def test_reproducible_and_seed_dependent() -> None:
    first = draw_sample(population(), AuditOptions(size=40, low_confidence=0.75, seed=3))
    assert first == draw_sample(
        list(reversed(population())), AuditOptions(size=40, low_confidence=0.75, seed=3)
    )
    assert (
        first.rows
        != draw_sample(population(), AuditOptions(size=40, low_confidence=0.75, seed=4)).rows
    )


def test_rereview_drawn_first_and_carried_on_top_with_unbiased_weights() -> None:
    queries = population()
    first = [q.qid for q in queries[:5]] + ["gone.html#q0"]  # a qid the build lost: ignored
    judged = {q.qid for q in queries[5:35]}
    options = AuditOptions(size=20, low_confidence=0.75, seed=1)
    sample = draw_sample(queries, options, first=first, judged=judged)
    assert [row.stratum for row in sample.rows[:5]] == ["rereview"] * 5
    assert sample.strata["rereview"].sampled == 5 and sample.strata["carried"].sampled == 30
    fresh = sum(
        s.sampled for name, s in sample.strata.items() if name not in ("rereview", "carried")
    )
    assert fresh == 15 and len(sample.rows) == 50  # --size counts the re-review, not the carried
    for name, stratum in sample.strata.items():
        total = sum(row.weight for row in sample.rows if row.stratum == name)
        assert round(total, 9) == stratum.population
    # More to review again than --size: a share of them, no fresh rows.
    small = draw_sample(queries, options.model_copy(update={"size": 3}), first=first)
    assert [row.stratum for row in small.rows] == ["rereview"] * 3
    assert "carried" not in small.strata  # a priority stratum appears only when it has members


def test_allocate() -> None:
    assert allocate({"low_confidence": 2, "fuzzy": 0, "multi": 1, "plain": 10}, 40) == {
        "low_confidence": 2,
        "fuzzy": 0,
        "multi": 1,
        "plain": 10,
    }
    small = allocate({"low_confidence": 1, "fuzzy": 1, "multi": 1, "plain": 1000}, 4)
    assert small == {"low_confidence": 1, "fuzzy": 1, "multi": 1, "plain": 1}
    assert (
        sum(allocate({"low_confidence": 20, "fuzzy": 20, "multi": 20, "plain": 300}, 40).values())
        == 40
    )


def test_planned_half_width_printed() -> None:
    sample = draw_sample(population(), AuditOptions(size=40, low_confidence=0.75, seed=0))
    assert "95% interval half-width about ±0." in sample_summary(sample)
    assert planned_half_width(sample, 0.5) > planned_half_width(sample, 0.95)


def test_oversample_factors_can_be_changed() -> None:
    even = {"low_confidence": 1.0, "fuzzy": 1.0, "multi": 1.0, "plain": 1.0}
    populations = {"low_confidence": 20, "fuzzy": 20, "multi": 20, "plain": 340}
    assert allocate(populations, 40, even) == {
        "low_confidence": 2,
        "fuzzy": 2,
        "multi": 2,
        "plain": 34,
    }
    assert allocate(populations, 40)["plain"] < 34
    drawn = draw_sample(
        population(), AuditOptions(size=40, low_confidence=0.75, seed=0, oversample=even)
    )
    assert (
        drawn.strata
        != draw_sample(population(), AuditOptions(size=40, low_confidence=0.75, seed=0)).strata
    )


def test_load_build_reads_only_the_wanted_articles(tmp_path: Path) -> None:

    from qrelsmith.store.buildfolder import load_build

    records = [
        {
            "id": f"{a}#{n}",
            "article_id": a,
            "path": a,
            "url": None,
            "title": "t",
            "heading": "h",
            "text": "x",
        }
        for a in ("ja/ポート.html", 'q"uote.html', "other.html")
        for n in range(2)
    ]
    layouts = (
        ("compact", False, (",", ":")),
        ("pretty", False, (", ", ": ")),
        ("escaped", True, None),
    )
    for name, ascii_only, separators in layouts:
        folder = tmp_path / name
        folder.mkdir()
        # The last line is broken past its article id: it is never parsed unless asked for.
        (folder / "corpus.jsonl").write_text(
            "".join(
                json.dumps(r, ensure_ascii=ascii_only, separators=separators) + "\n"
                for r in records
            )
            + json.dumps({"id": "other.html#9", "article_id": "other.html"}, separators=separators)[
                :-1
            ]
            + ',"path":BROKEN\n',
            encoding="utf-8",
        )
        (folder / "golden.jsonl").write_text("", encoding="utf-8")
        build = load_build(folder, only_articles={"ja/ポート.html", 'q"uote.html'})
        assert [r.id for r in build.corpus] == [
            "ja/ポート.html#0",
            "ja/ポート.html#1",
            'q"uote.html#0',
            'q"uote.html#1',
        ]
        assert load_build(folder, only_articles=()).corpus == []
        with pytest.raises(DataError, match="corpus.jsonl:7: not valid JSON"):
            load_build(folder)


def test_a_failed_sample_leaves_the_previous_one_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 16: a full disk during `audit sample --force` left a new audit.csv beside the old
    # sample.json and page.
    import errno

    from audit_helpers import fresh_build, run
    from qrelsmith.audit import writer

    build = fresh_build(tmp_path)
    assert run("sample", str(build), "--size", "4") == 0
    before = {p.name: p.read_bytes() for p in (build / "audit").iterdir()}

    def full_disk(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writer, "write_page", full_disk)
    with pytest.raises(OSError):
        run("sample", str(build), "--size", "6", "--seed", "3", "--force")
    assert {p.name: p.read_bytes() for p in (build / "audit").iterdir()} == before
    assert not [p.name for p in build.iterdir() if p.name.startswith(".audit")]


def test_the_queries_alone_leave_the_corpus_unread(tmp_path: Path) -> None:
    # `build`'s audit sample, `audit sample` and `baseline` read the queries first: reading
    # every line of corpus.jsonl for none of its sections cost a build ~0.09 s of ~4 s on the
    # benchmark crawl. Its lines are checked where sections are read.
    from qrelsmith.store.buildfolder import load_build

    (tmp_path / "corpus.jsonl").write_bytes(b"not json \xff\n")
    (tmp_path / "golden.jsonl").write_text("", encoding="utf-8")
    assert load_build(tmp_path, only_articles=()).corpus == []
    with pytest.raises(DataError, match="corpus.jsonl"):
        load_build(tmp_path, only_articles={"a.html"})


def test_a_corpus_line_whose_article_id_is_no_json_string_is_read_and_refused(
    tmp_path: Path,
) -> None:
    from qrelsmith.store.buildfolder import load_build

    good = json.dumps({"id": "a.html#0", "article_id": "a.html", "path": "a.html", "title": "",
                       "heading": "H", "text": "t"}, separators=(",", ":"))  # fmt: skip
    raw_tab = (
        '{"id":"b.html#0","article_id":"b\tc.html","path":"b","title":"","heading":"","text":""}'
    )
    (tmp_path / "corpus.jsonl").write_text(good + "\n" + raw_tab + "\n", encoding="utf-8")
    (tmp_path / "golden.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(DataError, match="corpus.jsonl:2: not valid JSON"):
        load_build(tmp_path, only_articles={"a.html"})
