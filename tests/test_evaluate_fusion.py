"""`qrelsmith baseline --method rrf`: reciprocal rank fusion of written runs, against a hand
computation, on tests/fixtures/eval/build."""

from __future__ import annotations

from pathlib import Path

import pytest

from qrelsmith.cli import main

BUILD = Path(__file__).parent / "fixtures" / "eval" / "build"
Q0, Q1 = "ja/rdp-port.html#q0", "ja/rdp-port.html#q1"


def doc(n: int) -> str:
    return f"ja/rdp-port.html#{n}"


def write(path: Path, tag: str, ranking: dict[str, list[tuple[int, float]]]) -> str:
    path.write_text(
        "".join(
            f"{qid} Q0 {doc(n)} {rank} {score} {tag}\n"
            for qid, docs in ranking.items()
            for rank, (n, score) in enumerate(docs, 1)
        ),
        encoding="utf-8",
    )
    return str(path)


@pytest.fixture
def two_runs(tmp_path: Path) -> list[str]:
    # the rank column is not read: run B's lines come in another order than its scores'
    a = write(tmp_path / "a.trec", "A", {Q0: [(1, 3.0), (2, 2.0), (0, 1.0)], Q1: [(1, 2), (2, 1)]})
    b = write(tmp_path / "b.trec", "B", {Q0: [(1, 0.5), (0, 0.9), (4, 0.1)], Q1: [(2, 2), (1, 1)]})
    return [a, b]


def fused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["baseline", str(BUILD), "--method", "rrf", "--out", "-", *argv]) == 0
    return capsys.readouterr().out.splitlines()


def test_rrf_fuses_as_computed_by_hand(
    two_runs: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # q0: #1 is 1st in A and 2nd in B: 1/61 + 1/62 = 0.0325224...; #0 is 3rd and 1st:
    # 1/63 + 1/61 = 0.0322664...; #2 is 2nd in A only: 1/62; #4 3rd in B only: 1/63.
    # q1: #1 and #2 are 1st once and 2nd once: tied, the larger id first (trec_eval's order)
    tag = "rrf-k60-A+B"
    assert fused(["--runs", *two_runs], capsys) == [
        f"{Q0} Q0 {doc(1)} 1 0.032522 {tag}",
        f"{Q0} Q0 {doc(0)} 2 0.032266 {tag}",
        f"{Q0} Q0 {doc(2)} 3 0.016129 {tag}",
        f"{Q0} Q0 {doc(4)} 4 0.015873 {tag}",
        f"{Q1} Q0 {doc(2)} 1 0.032522 {tag}",
        f"{Q1} Q0 {doc(1)} 2 0.032522 {tag}",
    ]
    # k = 0: 1/r itself; --k cuts the fused run
    assert fused(["--runs", *two_runs, "--rrf-k", "0", "--k", "2"], capsys) == [
        f"{Q0} Q0 {doc(1)} 1 1.500000 rrf-k0-A+B",
        f"{Q0} Q0 {doc(0)} 2 1.333333 rrf-k0-A+B",
        f"{Q1} Q0 {doc(2)} 1 1.500000 rrf-k0-A+B",
        f"{Q1} Q0 {doc(1)} 2 1.500000 rrf-k0-A+B",
    ]


def test_rrf_writes_the_same_bytes_and_says_what_it_wrote(
    two_runs: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outs = [tmp_path / "one.trec", tmp_path / "two.trec"]
    for out in outs:
        argv = ["baseline", str(BUILD), "--method", "rrf", "--runs", *two_runs, "--out", str(out)]
        assert main(argv) == 0
    assert outs[0].read_bytes() == outs[1].read_bytes()
    assert f"-> {outs[0]} (rrf-k60-A+B)" in capsys.readouterr().err


def test_rrf_refuses_runs_of_another_build_and_unknown_ids(
    two_runs: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.trec"
    other.write_text("x#q0 Q0 y#1 1 1.0 t\n", encoding="utf-8")
    argv = ["baseline", str(BUILD), "--method", "rrf", "--out", "-", "--runs", two_runs[0]]
    assert main([*argv, str(other)]) == 1
    assert "none of its 1 queries is in" in capsys.readouterr().err  # eval's own check
    stray = tmp_path / "stray.trec"
    stray.write_text(f"{Q0} Q0 {doc(1)} 1 2.0 t\n{Q0} Q0 nowhere#3 2 1.0 t\n", encoding="utf-8")
    assert main([*argv, str(stray)]) == 1
    err = capsys.readouterr().err
    assert "1 of its retrieved documents are not in" in err and "nowhere#3" in err
    assert main([*argv[:-2], "--runs", two_runs[0]]) == 2
    assert "fuses two runs or more" in capsys.readouterr().err
    assert main(["baseline", str(BUILD), "--out", "-", "--runs", *two_runs]) == 2
    assert "give --method rrf" in capsys.readouterr().err
