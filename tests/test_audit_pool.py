"""``audit pool`` and pool sheets in ``audit apply`` / ``agree`` / ``diff`` (issue 24)."""

from __future__ import annotations

import csv
import json
import shutil
import statistics
from pathlib import Path

import pytest

from audit_helpers import fresh_build, run
from qrelsmith.audit.pool import (
    CHECK,
    Candidate,
    check_seeds,
    completeness,
    draw_pool_sample,
    pool_candidates,
    stratum_of,
)
from qrelsmith.cli import main
from qrelsmith.config import PoolOptions
from qrelsmith.evaluate.runs import read_run
from qrelsmith.export import hf
from qrelsmith.export.records import export_source
from qrelsmith.store.buildfolder import load_build

HTTP, XSS, MODAL, RDP = "en/http-request.html", "en/xss.html", "ja/modal.html", "ja/rdp-port.html"


def write_run(path: Path, build: Path, offset: int) -> Path:
    """A run over the fixture build: each query's sections of the other articles first (in a
    rotated corpus order, so two offsets give two different runs), then its own article's."""
    loaded = load_build(build)
    ids = [record.id for record in loaded.corpus]
    lines = []
    for number, query in enumerate(loaded.queries):
        own = {record.id for record in loaded.sections_of(query.qid)}
        turn = (number + offset) % len(ids)
        rotated = ids[turn:] + ids[:turn]
        ranked = [d for d in rotated if d not in own] + [d for d in rotated if d in own]
        lines += [
            f"{query.qid} Q0 {docid} {rank} {100 - rank} r{offset}\n"
            for rank, docid in enumerate(ranked, 1)
        ]
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture
def pooled(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The fixture build, two runs, and every pooled pair of depth 3 drawn (--all)."""
    build = fresh_build(tmp_path)
    first = write_run(tmp_path / "a.trec", build, 0)
    second = write_run(tmp_path / "b.trec", build, 1)
    assert run("pool", str(build), str(first), str(second), "--depth", "3", "--all") == 0
    return build, first, second


def sheet_rows(build: Path) -> list[dict[str, str]]:
    with open(build / "audit" / "pool.csv", encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def write_sheet(path: Path, rows: list[dict[str, str]]) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def judged(build: Path, verdicts: list[str]) -> list[dict[str, str]]:
    """The pool sheet's rows with ``verdicts`` filled in, in turn."""
    rows = sheet_rows(build)
    for number, row in enumerate(rows):
        row["verdict"] = verdicts[number % len(verdicts)]
    return rows


# --------------------------------------------------------------------------- the pool


def test_the_pool_is_the_runs_unjudged_top_k() -> None:
    qrels = {"q1": {"a#0": 2, "a#1": 1}, "q2": {"b#0": 2}}
    runs = [
        {"q1": [("a#0", 9.0), ("c#0", 8.0), ("ghost", 7.0), ("c#1", 6.0), ("c#2", 5.0)]},
        {"q1": [("c#1", 9.0), ("c#0", 8.0)], "q2": [("c#0", 1.0)], "q9": [("c#0", 1.0)]},
    ]
    corpus = {"a#0", "a#1", "b#0", "c#0", "c#1", "c#2"}
    seeds = {("q2", "a#1"): ["duplicate"], ("q1", "a#1"): ["duplicate"]}  # q1 judges a#1
    found = pool_candidates(qrels, runs, 4, corpus, seeds)
    assert [(c.qid, c.docid, c.best_rank, c.runs, c.signals) for c in found] == [
        ("q1", "c#1", 1, 2, ()),  # rank 4 in the first run, 1 in the second
        ("q1", "c#0", 2, 2, ()),
        ("q2", "c#0", 1, 1, ()),
        ("q2", "a#1", None, 0, ("duplicate",)),  # only check named it
    ]  # a#0 judged, ghost not in the corpus, c#2 below depth 4, q9 not judged
    assert [stratum_of(c) for c in found] == [
        "rank 1 (2 runs)",
        "rank 2-3 (2 runs)",
        "rank 1 (1 run)",
        CHECK,
    ]


def test_checks_signals_seed_the_pool(tmp_path: Path) -> None:
    build = fresh_build(tmp_path)
    topics = build / "queries.tsv"  # the modal article's q1 asks what rdp-port's q0 asks
    topics.write_text(
        topics.read_text().replace(f"{MODAL}#q1\tモーダルの作り方", f"{MODAL}#q1\tRDPのポート番号")
    )
    loaded = load_build(build)
    run = read_run(write_run(tmp_path / "a.trec", build, 0))
    seeds = check_seeds(loaded, run)
    tops = {qid: hits[0][0] for qid, hits in run.items()}  # every top hit is elsewhere
    assert {pair for pair, kinds in seeds.items() if "other-article" in kinds} == set(tops.items())
    duplicates = {pair for pair, kinds in seeds.items() if "duplicate" in kinds}
    assert duplicates == {(f"{MODAL}#q1", f"{RDP}#2"), (f"{RDP}#q0", f"{MODAL}#2")}


def constructed_pool() -> tuple[list[Candidate], dict[tuple[str, str], str]]:
    """600 pooled pairs whose relevance is known: dense at rank 1, thin deep down."""
    candidates, truth = [], {}
    for number in range(600):
        rank = 1 + number % 10
        candidate = Candidate(f"q{number // 10}", f"d{number}", rank, 1 + number % 3 // 2)
        candidates.append(candidate)
        every = 2 if rank == 1 else 5 if rank <= 3 else 12
        truth[(candidate.qid, candidate.docid)] = "relevant" if number % every == 0 else "not"
    return candidates, truth


def test_the_weighted_estimate_is_unbiased_over_many_seeds() -> None:
    candidates, truth = constructed_pool()
    share = sum(v == "relevant" for v in truth.values()) / len(truth)
    values, covered = [], 0
    for seed in range(300):
        pool = draw_pool_sample(candidates, PoolOptions(size=60, seed=seed))
        found = completeness(pool, truth, ["run"]).overall
        values.append(found.relevant.value)
        covered += found.relevant.low <= share <= found.relevant.high
    mean = statistics.fmean(values)
    error = statistics.stdev(values) / len(values) ** 0.5
    assert abs(mean - share) < 3 * error  # unbiased: the mean is the true share
    low, high = found.relevant.low, found.relevant.high
    assert low <= mean <= high  # and within a single draw's interval
    assert covered / len(values) >= 0.9  # the intervals cover the true share
    drawn = [row for row in pool.rows if row.best_rank == 1]
    assert len(drawn) / 60 > 2 * (60 / 600)  # rank 1 over-sampled (1/10 of the pool)


def test_unweighted_would_be_biased() -> None:
    # The check above could pass with any estimator if the draw were uniform: it is not.
    candidates, truth = constructed_pool()
    share = sum(v == "relevant" for v in truth.values()) / len(truth)
    pool = draw_pool_sample(candidates, PoolOptions(size=60, seed=0))
    raw = statistics.fmean(truth[(r.qid, r.docid)] == "relevant" for r in pool.rows)
    assert raw > share + 0.05


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    build = fresh_build(tmp_path)
    first = write_run(tmp_path / "a.trec", build, 0)
    second = write_run(tmp_path / "b.trec", build, 1)
    outputs = []
    for seed in ("4", "4", "5"):
        assert run("pool", str(build), str(first), str(second), "--size", "6", "--seed", seed) == 0
        outputs.append(
            [(build / "audit" / n).read_bytes() for n in ("pool.csv", "pool.html", "pool.json")]
        )
    assert outputs[0] == outputs[1]
    assert outputs[0][2] != outputs[2][2]


def test_the_sheet_and_page_show_the_candidate_with_the_answer_marked(tmp_path: Path) -> None:
    build = fresh_build(tmp_path)
    corpus = build / "corpus.jsonl"  # another article's section now holds q2's answer
    corpus.write_text(corpus.read_text().replace("-1 is not a formula", "-1 is not found"))
    first = write_run(tmp_path / "a.trec", build, 0)
    assert run("pool", str(build), str(first), "--depth", "13", "--all") == 0
    rows = sheet_rows(build)
    pool = json.loads((build / "audit" / "pool.json").read_text())
    assert (
        len(rows)
        == pool["pool_size"]
        == len(pool["rows"])
        == 9 * 13
        - sum(len(load_build(build).sections_of(q.qid)) for q in load_build(build).queries)
    )
    row = next(r for r in rows if r["qid"] == f"{HTTP}#q2" and r["docid"] == f"{XSS}#3")
    assert "⟦not found⟧" in row["evidence"]
    assert row["matched_headings"] == "#3 Status codes"
    assert row["build"] == pool["build"] and row["runs"] == pool["runs_id"]
    html = (build / "audit" / "pool.html").read_text()
    block = html.split('id="audit-data">', 1)[1].split("</script>", 1)[0]
    data = json.loads(block)
    assert data["kind"] == "pool" and data["verdicts"] == ["relevant", "partly", "not", "unsure"]
    page = next(r for r in data["rows"] if r["key"] == f"{HTTP}#q2 {XSS}#3")
    shown = data["articles"][page["article"]]
    assert [s["id"] for s in shown] == [f"{XSS}#3", f"{HTTP}#3"]  # candidate, then the label
    [[part, start, end]] = page["evidence"]["marks"]  # one piece: a section without sub-headings
    assert shown[0]["parts"][part][1][start:end] == "not found"
    assert page["show"] == [f"{XSS}#3", f"{HTTP}#3"] and page["candidate"] == f"{XSS}#3"


# --------------------------------------------------------------------------- apply


def test_apply_adds_judgements_with_explicit_grade_0(
    pooled: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build, _, _ = pooled
    rows = judged(build, ["relevant", "partly", "not", "unsure"])
    sheet = write_sheet(tmp_path / "pool-verdicts.csv", rows)
    before = (build / "qrels.trec").read_bytes()
    assert run("apply", str(build), str(sheet)) == 0
    out = capsys.readouterr().out
    assert "completeness of the qrels" in out
    version = build / "versions" / "v1"
    qrels = (version / "qrels.trec").read_text().splitlines()
    grade = {"relevant": 2, "partly": 1, "not": 0}
    added = [
        f"{r['qid']} 0 {r['docid']} {grade[r['verdict']]}" for r in rows if r["verdict"] in grade
    ]
    assert set(added) <= set(qrels)
    assert len(qrels) == len(before.decode().splitlines()) + len(added)
    unsure = [r for r in rows if r["verdict"] == "unsure"]
    assert not any(f"{r['qid']} 0 {r['docid']} " in line for r in unsure for line in qrels)
    beir = (version / "beir" / "qrels" / "test.tsv").read_text().splitlines()
    zero = next(r for r in rows if r["verdict"] == "not")
    assert f"{zero['qid']}\t{zero['docid']}\t0" in beir
    changes = [json.loads(line) for line in (version / "changelog.jsonl").read_text().splitlines()]
    assert len(changes) == len(added)
    assert {c["action"] for c in changes} == {"judged"}
    assert changes[0]["where"].startswith("pool-verdicts.csv: row ")
    review = json.loads((version / "review.json").read_text())
    assert review["precision"] is None
    assert review["completeness"]["overall"]["population"] == len(rows)
    assert review["completeness"]["decided"] == len(added)
    assert (build / "qrels.trec").read_bytes() == before  # the build stays as it was
    # the Hub's qrels keep the grade-0 rows; a pooled relevant document is a grade-2 answer
    # to the binary formats too
    source = export_source(load_build(version))
    hub = hf.tables(source.records)["default"]
    assert {"query-id": zero["qid"], "corpus-id": zero["docid"], "score": 0} in hub
    relevant = next(r for r in rows if r["verdict"] == "relevant")
    query = next(q for q in source.queries if q.qid == relevant["qid"])
    assert relevant["docid"] in [record.id for record in source.named(query)]


def test_completeness_with_every_pair_judged_is_exact(
    pooled: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build, _, _ = pooled
    rows = judged(build, ["relevant", "not", "not", "not"])
    sheet = write_sheet(tmp_path / "v.csv", rows)
    assert run("apply", str(build), str(sheet), "--dry-run") == 0
    relevant = sum(r["verdict"] == "relevant" for r in rows)
    out = capsys.readouterr().out
    share = relevant / len(rows)
    assert f"overall     pool {len(rows):>5}  {share:.3f}" in out
    assert f"missing relevant about {relevant:.1f}" in out


def bad_rows(build: Path, case: str) -> list[dict[str, str]]:
    rows = judged(build, ["not"])
    rows[0]["note"] = "a note\nover two lines"  # row 2 below is the file's line 4
    target = rows[1]
    if case == "build":
        target["build"] = "0123456789abcdef"
    elif case == "runs":
        target["runs"] = "0123456789abcdef"
    elif case == "docid":
        target["docid"] = f"{HTTP}#99"
    elif case == "qid":
        target["qid"] = f"{HTTP}#q99"
    elif case == "verdict":
        target["verdict"] = "maybe"
    elif case == "twice":
        rows[1] = {**rows[0], "verdict": "relevant", "note": ""}
    return rows


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("build", "row 2: drawn from another build (build 0123456789abcdef;"),
        ("runs", "row 2: drawn from other runs (runs 0123456789abcdef;"),
        ("docid", f"row 2: docid '{HTTP}#99' is not in corpus.jsonl"),
        ("qid", f"row 2: qid '{HTTP}#q99' is not in golden.jsonl"),
        ("verdict", "row 2: bad verdict 'maybe' (use relevant, partly, not, unsure)"),
        ("twice", "row 2: ("),
    ],
)
def test_refusals_name_the_file_and_row(
    pooled: tuple[Path, Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    case: str,
    message: str,
) -> None:
    build, _, _ = pooled
    sheet = write_sheet(tmp_path / "v.csv", bad_rows(build, case))
    capsys.readouterr()
    assert run("apply", str(build), str(sheet)) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"error: v.csv: {message}"), out
    if case == "twice":
        assert "again (first at v.csv: row 1)" in out
    assert not (build / "versions").exists()


def test_a_pair_the_pool_did_not_draw_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build = fresh_build(tmp_path)
    first = write_run(tmp_path / "a.trec", build, 0)
    assert run("pool", str(build), str(first), "--depth", "3", "--size", "2") == 0
    drawn = {(r["qid"], r["docid"]) for r in sheet_rows(build)}
    row = {
        **sheet_rows(build)[0],
        "docid": next(
            d
            for d in (f"{XSS}#0", f"{XSS}#1", f"{MODAL}#0")
            if (sheet_rows(build)[0]["qid"], d) not in drawn
        ),
        "verdict": "not",
    }
    sheet = write_sheet(tmp_path / "v.csv", [row])
    capsys.readouterr()
    assert run("apply", str(build), str(sheet)) == 1
    assert "row 1: (" in capsys.readouterr().out


def test_a_pool_sheet_of_another_build_is_refused(
    pooled: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build, first, second = pooled
    sheet = write_sheet(tmp_path / "v.csv", judged(build, ["not"]))
    other = tmp_path / "other"
    shutil.copytree(build, other)
    qrels = other / "qrels.trec"
    qrels.write_text(qrels.read_text() + f"{HTTP}#q0 0 {XSS}#0 0\n")  # another judgement
    capsys.readouterr()
    assert run("apply", str(other), str(sheet)) == 1
    assert "pool.json was drawn from another build" in capsys.readouterr().out
    # and its pool redrawn there: the sheet's rows name the other build
    assert run("pool", str(other), str(first), str(second), "--depth", "3", "--all") == 0
    capsys.readouterr()
    assert run("apply", str(other), str(sheet)) == 1
    assert "v.csv: row 1: drawn from another build" in capsys.readouterr().out


def test_a_pool_sheet_of_other_runs_is_refused(
    pooled: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build, first, _ = pooled
    sheet = write_sheet(tmp_path / "v.csv", judged(build, ["not"]))
    assert run("pool", str(build), str(first), "--depth", "3", "--all") == 0  # one run now
    capsys.readouterr()
    assert run("apply", str(build), str(sheet)) == 1
    assert "v.csv: row 1: drawn from other runs" in capsys.readouterr().out


def test_reviewers_who_disagree_add_nothing_and_agree_reports_it(
    pooled: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build, _, _ = pooled
    alice = judged(build, ["relevant", "not"])
    bob = judged(build, ["relevant", "not"])
    bob[1]["verdict"] = "relevant"  # alice said not
    a = write_sheet(tmp_path / "alice.csv", alice)
    b = write_sheet(tmp_path / "bob.csv", bob)
    capsys.readouterr()
    assert run("agree", str(build), str(a), str(b)) == 0
    out = capsys.readouterr().out
    assert "Krippendorff's alpha (ordinal: not < partly < relevant)" in out
    assert "disagreements: 1" in out
    assert f"{bob[1]['qid']} {bob[1]['docid']}" in out
    assert run("apply", str(build), str(a), str(b)) == 0
    qrels = (build / "versions" / "v1" / "qrels.trec").read_text()
    assert f"{bob[1]['qid']} 0 {bob[1]['docid']} " not in qrels
    assert f"{bob[0]['qid']} 0 {bob[0]['docid']} 2" in qrels


def test_pool_and_label_sheets_together(
    pooled: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_audit_apply import filled

    build, _, _ = pooled
    assert run("sample", str(build), "--size", "3") == 0
    labels = filled(build, tmp_path / "labels.csv", {})
    pool = write_sheet(tmp_path / "pool.csv", judged(build, ["relevant"]))
    capsys.readouterr()
    assert run("apply", str(build), str(labels), str(pool)) == 0
    out = capsys.readouterr().out
    assert "label precision" in out and "completeness of the qrels" in out
    review = json.loads((build / "versions" / "v1" / "review.json").read_text())
    assert review["precision"] is not None and review["completeness"] is not None


def test_a_run_given_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    build = fresh_build(tmp_path)
    first = write_run(tmp_path / "a.trec", build, 0)
    capsys.readouterr()
    assert run("pool", str(build), str(first), str(tmp_path / "." / "a.trec")) == 2
    assert "a run is given twice" in capsys.readouterr().out


def test_a_pool_csv_with_verdicts_is_not_redrawn_without_force(
    pooled: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    build, first, _ = pooled
    write_sheet(build / "audit" / "pool.csv", judged(build, ["not"]))
    capsys.readouterr()
    assert run("pool", str(build), str(first)) == 2
    assert "holds" in capsys.readouterr().out
    assert run("pool", str(build), str(first), "--force") == 0


def test_a_rebuild_keeps_a_pool_sheet_holding_verdicts(tmp_path: Path) -> None:
    site = Path(__file__).parent.parent / "samples" / "site"
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q"]) == 0
    bm25 = tmp_path / "bm25.trec"
    assert main(["baseline", str(out), "--out", str(bm25)]) == 0
    assert main(["audit", "pool", str(out), str(bm25), "--size", "5"]) == 0
    rows = judged(out, ["not"])
    write_sheet(out / "audit" / "pool.csv", rows)
    sheet = (out / "audit" / "pool.csv").read_bytes()
    assert main(["build", str(site), "--out", str(out), "-q"]) == 0
    assert (out / "audit" / "pool.csv").read_bytes() == sheet
    assert (out / "audit" / "pool.json").is_file() and (out / "audit" / "audit.csv").is_file()
    assert main(["audit", "apply", str(out), str(out / "audit" / "pool.csv")]) == 0  # same build


# --------------------------------------------------------------------------- diff


def test_diff_carries_pool_verdicts_where_query_and_document_are_unchanged(
    pooled: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, first, second = pooled
    rows = judged(old, ["relevant", "not", "partly", "unsure"])
    write_sheet(old / "audit" / "pool.csv", rows)  # judged in place, not applied
    new = tmp_path / "new"
    shutil.copytree(old, new, ignore=shutil.ignore_patterns("audit"))
    corpus = new / "corpus.jsonl"
    changed = f"{XSS}#0"
    corpus.write_text(
        corpus.read_text().replace("runs in every re", "runs in each re", 1), encoding="utf-8"
    )
    assert main(["diff", str(old), str(new)]) == 1
    report = json.loads((new / "audit" / "diff.json").read_text())
    carried = {(c["qid"], c["docid"]): c["verdict"] for c in report["carried_pool"]}
    expected = {
        (r["qid"], r["docid"]): r["verdict"]
        for r in rows
        if r["verdict"] != "unsure" and r["docid"] != changed
    }
    assert carried == expected and expected
    # the next pool of the new build fills them in
    assert run("pool", str(new), str(first), str(second), "--depth", "3", "--all") == 0
    filled_in = {(r["qid"], r["docid"]): r["verdict"] for r in sheet_rows(new) if r["verdict"]}
    assert filled_in == expected


# --------------------------------------------------------------------------- rounds


def rows_of(sheet: Path) -> list[dict[str, str]]:
    with open(sheet, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def qrels_lines(folder: Path) -> set[str]:
    return set((folder / "qrels.trec").read_text(encoding="utf-8").splitlines())


def all_correct(build: Path) -> list[dict[str, str]]:
    """A label sample of 4 drawn on ``build``, its rows judged correct."""
    assert run("sample", str(build), "--size", "4") == 0
    labels = rows_of(build / "audit" / "audit.csv")
    for row in labels:
        row["verdict"] = "correct"
    return labels


def diff_of_a_copy(
    build: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> dict[str, object]:
    """diff.json of ``build`` against a copy of its files, with no warning of a rebuild."""
    new = tmp_path / "new"
    shutil.copytree(build, new, ignore=shutil.ignore_patterns("audit", "versions"))
    capsys.readouterr()
    assert main(["diff", str(build), str(new)]) in (0, 1)
    assert "reviewed another golden.jsonl" not in capsys.readouterr().err
    report: dict[str, object] = json.loads((new / "audit" / "diff.json").read_text())
    return report


def test_a_second_round_draws_from_the_version_and_not_the_pairs_judged_before(
    pooled: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One pool round per build was all there was: a second one needs drawing from the
    # version the first made, and its apply must write the build's next version.
    build, first, second = pooled
    round_one = judged(build, ["not", "relevant", "unsure"])
    decided = {(r["qid"], r["docid"]) for r in round_one if r["verdict"] != "unsure"}
    assert {r["round"] for r in round_one} == {"1"}
    assert run("apply", str(build), str(write_sheet(tmp_path / "r1.csv", round_one))) == 0
    v1 = build / "versions" / "v1"
    capsys.readouterr()
    assert run("pool", str(v1), str(first), str(second), "--depth", "3", "--all") == 0
    assert "audit pool (round 2): " in capsys.readouterr().err
    round_two = rows_of(v1 / "audit" / "pool.csv")
    drawn = {(r["qid"], r["docid"]) for r in round_two}
    assert drawn and not drawn & decided  # judged pairs are not drawn again
    unsure = {(r["qid"], r["docid"]) for r in round_one if r["verdict"] == "unsure"}
    assert drawn == {(r["qid"], r["docid"]) for r in round_one} - decided == unsure
    assert {r["round"] for r in round_two} == {"2"}
    assert json.loads((v1 / "audit" / "pool.json").read_text())["round"] == 2
    for row in round_two:
        row["verdict"] = "partly"
    sheet = write_sheet(tmp_path / "r2.csv", round_two)
    assert run("apply", str(v1), str(sheet)) == 0
    v2 = build / "versions" / "v2"
    assert not (v1 / "versions").exists()  # the build's next version, not one inside v1
    review = json.loads((v2 / "review.json").read_text())
    assert review["completeness"]["round"] == 2
    assert qrels_lines(v1) < qrels_lines(v2)  # round 1's judgements kept, round 2's added
    assert {f"{q} 0 {d} 1" for q, d in drawn} <= qrels_lines(v2)
    assert run("pool", str(v2), str(first), str(second), "--depth", "3", "--all") == 0
    assert json.loads((v2 / "audit" / "pool.json").read_text())["round"] == 3
    assert rows_of(v2 / "audit" / "pool.csv") == []  # every pooled pair is judged now


def test_diff_carries_the_pool_verdicts_of_every_round_beside_a_label_sheet_in_place(
    pooled: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # diff read OLD/audit/audit.csv alone when it was filled in place: the pool verdicts the
    # versions applied were not carried, nor a later round's.
    build, first, second = pooled
    round_one = judged(build, ["not", "relevant", "unsure"])
    assert run("apply", str(build), str(write_sheet(tmp_path / "r1.csv", round_one))) == 0
    v1 = build / "versions" / "v1"
    assert run("pool", str(v1), str(first), str(second), "--depth", "3", "--all") == 0
    round_two = judged(v1, ["partly"])
    assert run("apply", str(v1), str(write_sheet(tmp_path / "r2.csv", round_two))) == 0
    labels = all_correct(build)
    write_sheet(build / "audit" / "audit.csv", labels)  # a label review in place
    report = diff_of_a_copy(build, tmp_path, capsys)
    carried = {(c["qid"], c["docid"]): c["verdict"] for c in report["carried_pool"]}
    expected = {
        (r["qid"], r["docid"]): r["verdict"] for r in [*round_one, *round_two] if r["verdict"]
    }
    expected = {pair: verdict for pair, verdict in expected.items() if verdict != "unsure"}
    assert carried == expected
    assert {v for v in carried.values()} == {"not", "relevant", "partly"}
    assert report["counts"]["carried"] == len(labels)  # the label verdicts too


def test_diff_takes_labels_from_an_earlier_review_and_pool_verdicts_from_later_rounds(
    pooled: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # v1 a label review, v2 round 1 of the pool (applied to the build), v3 round 2 (applied
    # to v2): the latest review of the build's golden.jsonl holds pool sheets alone, and v3's
    # review judged v2's golden.jsonl, which is no rebuild to warn about.
    build, first, second = pooled
    labels = all_correct(build)
    assert run("apply", str(build), str(write_sheet(tmp_path / "labels.csv", labels))) == 0
    round_one = judged(build, ["not", "relevant", "unsure"])
    assert run("apply", str(build), str(write_sheet(tmp_path / "r1.csv", round_one))) == 0
    v2 = build / "versions" / "v2"
    assert run("pool", str(v2), str(first), str(second), "--depth", "3", "--all") == 0
    assert run("apply", str(v2), str(write_sheet(tmp_path / "r2.csv", judged(v2, ["not"])))) == 0
    assert (build / "versions" / "v3").is_dir()
    report = diff_of_a_copy(build, tmp_path, capsys)
    assert report["counts"]["carried"] == len(labels)
    carried = {(c["qid"], c["docid"]) for c in report["carried_pool"]}
    decided = {(r["qid"], r["docid"]) for r in round_one if r["verdict"] != "unsure"}
    assert carried == decided | {(r["qid"], r["docid"]) for r in rows_of(v2 / "audit" / "pool.csv")}
