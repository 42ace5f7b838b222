"""Agreement between reviewers: kappa and alpha against published / reference values."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from audit_helpers import fresh_build, run
from qrelsmith.audit.agreement import cohen_kappa, krippendorff_alpha_nominal
from test_audit_apply import filled

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
