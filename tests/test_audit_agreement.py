"""Agreement between reviewers: kappa and alpha against published / reference values."""

from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path

import pytest

from audit_helpers import fresh_build, run
from qrelsmith.audit.agreement import (
    ORDERED_VERDICTS,
    cohen_kappa,
    krippendorff_alpha_nominal,
    krippendorff_alpha_ordinal,
)
from qrelsmith.audit.apply import FLAG_DISPUTED, consensus
from qrelsmith.audit.verdicts import Review, Verdict
from test_audit_apply import filled, golden

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the 4 observers x 12 units
# example with missing values; the paper gives alpha = 0.743 for nominal data (the `krippendorff`
# package gives 0.743421...).
PAPER = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def test_alpha_matches_krippendorffs_worked_example() -> None:
    units = [list(column) for column in zip(*PAPER, strict=True)]
    assert krippendorff_alpha_nominal(units) == pytest.approx(0.743421052631579)


def test_ordinal_alpha_matches_krippendorffs_worked_example() -> None:
    # the same paper gives alpha = 0.815 for the example read as ordinal data
    units = [list(column) for column in zip(*PAPER, strict=True)]
    assert round(krippendorff_alpha_ordinal(units, [1, 2, 3, 4, 5]), 3) == 0.815
    # the labels' order matters: read backwards it is the same scale, shuffled it is not
    assert krippendorff_alpha_ordinal(units, [5, 4, 3, 2, 1]) == pytest.approx(
        krippendorff_alpha_ordinal(units, [1, 2, 3, 4, 5])
    )
    assert round(krippendorff_alpha_ordinal(units, [3, 1, 5, 2, 4]), 3) != 0.815


def test_ordinal_alpha_of_verdicts_weighs_far_disagreements_more() -> None:
    near = [["correct", "partly"]] + [["correct", "correct"], ["wrong", "wrong"]] * 5
    far = [["correct", "wrong"]] + [["correct", "correct"], ["wrong", "wrong"]] * 5
    partly = [["partly", "partly"]]
    near_alpha = krippendorff_alpha_ordinal(near + partly, ORDERED_VERDICTS)
    far_alpha = krippendorff_alpha_ordinal(far + partly, ORDERED_VERDICTS)
    assert far_alpha < near_alpha < 1.0
    # "unsure" has no place on the scale; all the same verdict is undefined
    assert math.isnan(krippendorff_alpha_ordinal([["unsure", "correct"]], ORDERED_VERDICTS))
    assert math.isnan(krippendorff_alpha_ordinal([["correct", "correct"]] * 3, ORDERED_VERDICTS))


def test_kappa_by_hand() -> None:
    first = list("ccwwpcuccw")
    second = list("cwwwpccucw")
    # observed 7/10; expected: c .5*.4 + w .3*.4 + p .1*.1 + u .1*.1 = .34 -> (.6-.34)/.66
    assert cohen_kappa(first, second) == pytest.approx((0.7 - 0.34) / 0.66)  # sklearn: 0.5454...
    assert math.isnan(cohen_kappa(["c", "c"], ["c", "c"]))


def test_two_reviewers_apply_and_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    alice = filled(
        build,
        tmp_path / "alice.csv",
        {
            "ja/modal.html#q0": {"verdict": "wrong", "correct_sections": "#0"},
        },
    )
    bob = filled(
        build,
        tmp_path / "bob.csv",
        {
            "ja/modal.html#q0": {"verdict": "wrong", "correct_sections": "#0"},
            "en/http-request.html#q2": {"verdict": "wrong", "correct_sections": "#1"},
        },
    )
    capsys.readouterr()
    assert run("agree", str(build), str(alice), str(bob)) == 0
    out = capsys.readouterr().out
    assert "Cohen's kappa" in out and "disagreements: 1" in out
    assert "en/http-request.html#q2" in out
    assert not (build / "versions").exists()
    assert run("apply", str(build), str(alice), str(bob)) == 0
    out = capsys.readouterr().out
    assert "1 replaced, 0 removed, 1 flagged" in out
    rows = list(
        csv.reader(
            (build / "versions" / "v1" / "queries.tsv").open(encoding="utf-8"), delimiter="\t"
        )
    )
    assert len(rows) == 9


def test_agree_needs_two_reviewers(tmp_path: Path) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    assert run("agree", str(build), str(filled(build, tmp_path / "a.csv", {}))) == 2


def _review(name: str, verdict: str, sections: tuple[str, ...] | None) -> Review:
    qid = "ja/modal.html#q0"
    return Review(name, {qid: Verdict(f"{name}: line 2", qid, verdict, sections, "")}, 0)


@pytest.mark.parametrize(
    "others",
    [
        [("wrong", ("ja/modal.html#2",))],
        [("wrong", ("ja/modal.html#2",)), ("wrong", ("ja/modal.html#0",))],
        [("wrong", ("ja/modal.html#0",)), ("wrong", ())],
    ],
)
def test_a_verdict_all_share_is_kept_when_only_the_sections_differ(
    others: list[tuple[str, tuple[str, ...]]],
) -> None:
    reviews = [_review("alice", "wrong", ("ja/modal.html#0",))]
    reviews += [_review(f"r{n}", v, s) for n, (v, s) in enumerate(others)]
    merged = consensus(reviews)["ja/modal.html#q0"]
    assert (merged.verdict, merged.sections, merged.disputed) == ("wrong", None, True)
    assert "different sections" in merged.note


def test_different_verdicts_stay_unsure_and_same_correct_verdicts_merge() -> None:
    wrong = _review("alice", "wrong", ("ja/modal.html#0",))
    partly = _review("bob", "partly", ("ja/modal.html#0",))
    merged = consensus([wrong, partly])["ja/modal.html#q0"]
    assert (merged.verdict, merged.disputed) == ("unsure", False)
    # 'correct' with or without the label's own sections written out is the same verdict
    plain = _review("carol", "correct", None)
    spelled = _review("dave", "correct", ("ja/modal.html#1",))
    assert consensus([plain, spelled])["ja/modal.html#q0"].verdict == "correct"


@pytest.mark.parametrize("reviewers", [2, 3])
def test_reviewers_naming_different_sections_still_count_the_label_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reviewers: int
) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    sections = ["#0", "#2", "#0 | #2"][:reviewers]
    files = [
        filled(
            build,
            tmp_path / f"r{n}.csv",
            {"ja/modal.html#q0": {"verdict": "wrong", "correct_sections": cell}},
        )
        for n, cell in enumerate(sections)
    ]
    alone = filled(
        build,
        tmp_path / "alone.csv",
        {"ja/modal.html#q0": {"verdict": "wrong", "correct_sections": "#0"}},
    )
    assert run("apply", str(build), str(alone), "--dry-run") == 0
    single = capsys.readouterr().out
    assert run("apply", str(build), *map(str, files)) == 0
    out = capsys.readouterr().out
    # the agreement is about verdicts: every reviewer said the same
    assert re.search(r"Krippendorff's alpha \(nominal\) +1\.000", out)
    assert "Krippendorff's alpha (ordinal: wrong < partly < correct)" in out
    if reviewers == 2:
        figures = [line for line in out.splitlines() if "Cohen's" in line or "alpha" in line]
        assert len({line.rindex("  ") for line in figures}) == 1  # the values in one column
    # precision counts the row as wrong, as each file alone does
    assert "9 decided, 0 unsure, 0 open" in out
    assert "overall              0.889  [0.565, 0.980]" in out
    assert "overall              0.889  [0.565, 0.980]" in single
    assert "1 decided row that every reviewer judged alike" in out
    assert "0 replaced, 0 removed, 1 flagged" in out
    version = build / "versions" / "v1"
    corrected = golden(version)["ja/modal.html#q0"]
    assert corrected["relevant"] == {"ja/modal.html#1": 2}  # no reviewer's sections picked
    assert corrected["flags"] == [FLAG_DISPUTED]
    review = json.loads((version / "review.json").read_text())
    assert review["precision"]["overall"]["value"] == pytest.approx(8 / 9)
    (change,) = [
        json.loads(line) for line in (version / "changelog.jsonl").read_text().splitlines()
    ]
    assert (change["action"], change["verdict"]) == ("flagged", "wrong")


def _kappa_by_definition(first: list[str], second: list[str]) -> float:
    """Cohen's kappa as qrelsmith computed it by hand before scikit-learn's took over."""
    n = len(first)
    if n == 0:
        return math.nan
    categories = sorted(set(first) | set(second), key=str)
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / n
    expected = sum((first.count(c) / n) * (second.count(c) / n) for c in categories)
    return math.nan if expected == 1 else (observed - expected) / (1 - expected)


def _alpha_by_definition(units: list[list[object]]) -> float:
    """Nominal alpha from Krippendorff's coincidence matrix, as qrelsmith wrote it by hand
    before the ``krippendorff`` package's took over."""
    import numpy as np

    values = sorted({v for unit in units for v in unit if v is not None}, key=str)
    index = {value: i for i, value in enumerate(values)}
    coincidence = np.zeros((len(values), len(values)))
    for unit in units:
        present = [index[v] for v in unit if v is not None]
        if len(present) < 2:
            continue
        counts = np.bincount(present, minlength=len(values)).astype(float)
        coincidence += (np.outer(counts, counts) - np.diag(counts)) / (len(present) - 1)
    totals = coincidence.sum(axis=1)
    n = totals.sum()
    if n <= 1:
        return math.nan
    expected = (n * n - (totals**2).sum()) / (n - 1)
    observed = coincidence.sum() - np.trace(coincidence)
    return math.nan if expected == 0 else float(1 - observed / expected)


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-12)


def test_the_libraries_give_the_hand_written_figures() -> None:
    import random

    verdicts = ["correct", "partly", "wrong", "unsure"]
    draw = random.Random(29)
    unit_sets: list[list[list[object]]] = [
        [list(column) for column in zip(*PAPER, strict=True)],
        [["correct", "correct"], ["wrong", "correct"], ["partly", None], [None, None]],
        [["correct", "correct"]] * 3,
        [["correct", None]],
        [],
    ]
    for reviewers, rows, missing in [(2, 9, 0.0), (2, 40, 0.2), (3, 30, 0.3), (5, 12, 0.5)]:
        unit_sets.append(
            [
                [
                    None if draw.random() < missing else draw.choice(verdicts)
                    for _ in range(reviewers)
                ]
                for _ in range(rows)
            ]
        )
    for units in unit_sets:
        assert _same(krippendorff_alpha_nominal(units), _alpha_by_definition(units)), units
        both = [unit for unit in units if len(unit) == 2 and None not in unit]
        first, second = [str(u[0]) for u in both], [str(u[1]) for u in both]
        assert _same(cohen_kappa(first, second), _kappa_by_definition(first, second)), both
