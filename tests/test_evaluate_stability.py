"""The stability study (`eval --sizes`), `--need` and `--curve`: properties, not copied numbers."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

from qrelsmith.cli import main
from qrelsmith.evaluate.evaluation import parse_sizes, resolve_sizes
from qrelsmith.evaluate.statistics import (
    SizeStability,
    design_effect,
    queries_needed,
    stability_by_size,
    units_per_subset,
)

BUILD = Path(__file__).parent / "fixtures" / "eval" / "build"
STUDY = {"subsets": 400, "resamples": 200, "rounds": 500, "seed": 0, "full_resamples": 1000}


def study(
    values: np.ndarray, diffs: np.ndarray, size: int, clusters: list[str] | None = None
) -> SizeStability:
    return stability_by_size(
        values,
        diffs,
        size,
        clusters=clusters,
        subsets=STUDY["subsets"],
        resamples=STUDY["resamples"],
        rounds=STUDY["rounds"],
        seed=STUDY["seed"],
        full_resamples=STUDY["full_resamples"],
    )


def test_widths_shrink_as_one_over_root_n() -> None:
    values = np.random.default_rng(5).random((4000, 2))
    no_diffs = np.zeros((4000, 0))
    scaled = [study(values, no_diffs, n).width * math.sqrt(n) for n in (50, 200, 800)]
    for column in range(2):
        figures = [s[column] for s in scaled]
        assert max(figures) / min(figures) < 1.15, figures
    # and each is about the normal interval's 2 x 1.96 x sd / sqrt(n)
    sd = values.std(axis=0, ddof=1)
    assert scaled[1] == pytest.approx(2 * 1.96 * sd, rel=0.1)
    # and the range of subset means too (sampling without replacement narrows it a little)
    ranges = [
        (r.high - r.low)[0] * math.sqrt(n)
        for n, r in ((50, study(values, no_diffs, 50)), (200, study(values, no_diffs, 200)))
    ]
    assert ranges[0] == pytest.approx(ranges[1], rel=0.15)


def test_swap_rate_is_zero_at_all_and_for_a_run_better_on_every_query() -> None:
    rng = np.random.default_rng(6)
    a = rng.random(500)
    better = a + rng.uniform(0.001, 0.05, 500)  # better on every query
    noisy = a + rng.normal(0.002, 0.2, 500)  # hardly different
    values = np.column_stack([a, better, noisy])
    diffs = np.column_stack([better - a, noisy - a])
    everything = study(values, diffs, 500)
    assert everything.swap.tolist() == [0.0, 0.0] and everything.wrong.tolist() == [0.0, 0.0]
    assert (everything.low == everything.high).all()
    small = study(values, diffs, 20)
    assert small.swap[0] == 0.0 and small.wrong[0] == 0.0
    assert 0.2 < small.swap[1] < 0.8  # a near-zero difference flips in many subsets
    assert small.wrong[1] <= small.swap[1]


def test_the_full_set_width_is_the_eval_interval() -> None:
    values = np.random.default_rng(7).random((300, 1))
    found = study(values, np.zeros((300, 0)), 300)
    means = values[np.random.default_rng(0).integers(0, 300, (1000, 300))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    assert found.width[0] == pytest.approx(high - low)


def test_whole_articles_stay_together() -> None:
    # every article holds a +1 and a -1 query: any union of whole articles has mean 0
    values = np.tile([1.0, -1.0], 200).reshape(400, 1)
    clusters = [f"a{i // 2}" for i in range(400)]
    by_article = study(values, np.zeros((400, 0)), 40, clusters)
    assert by_article.units == 20
    assert by_article.low[0] == by_article.high[0] == 0.0
    assert by_article.width[0] == 0.0
    by_query = study(values, np.zeros((400, 0)), 40)
    assert by_query.low[0] < 0 < by_query.high[0]


def test_units_per_subset() -> None:
    assert units_per_subset(20, 2000, 2000) == 20
    assert units_per_subset(20, 2000, 250) == 3  # 2.5 articles of 8 queries: rounded half up
    assert units_per_subset(5, 2000, 100) == 1
    assert units_per_subset(2000, 2000, 250) == 250


def test_same_seed_same_figures_other_seed_others() -> None:
    rng = np.random.default_rng(8)
    values = rng.random((300, 2))
    diffs = values[:, 1:] - values[:, :1]
    first = study(values, diffs, 30)
    again = study(values, diffs, 30)
    assert all((getattr(first, f) == getattr(again, f)).all() for f in ("mean", "width", "swap"))
    STUDY["seed"] = 1
    try:
        other = study(values, diffs, 30)
    finally:
        STUDY["seed"] = 0
    assert (other.mean != first.mean).any()


def test_queries_needed_matches_the_closed_form() -> None:
    diffs = np.array([0.3, -0.1] * 50)  # sd (ddof 1) known exactly
    sd = float(np.std(diffs, ddof=1))
    z = norm.ppf(0.975) + norm.ppf(0.8)
    got = queries_needed(diffs, 0.05)
    assert got.sd[0] == pytest.approx(sd)
    assert got.needed[0] == math.ceil((z * sd / 0.05) ** 2)
    assert got.detectable[0] == pytest.approx(z * sd / math.sqrt(100))
    # the detectable difference at n is the delta whose needed count is n
    assert queries_needed(diffs, float(got.detectable[0])).needed[0] == 100


def test_design_effect_closed_forms() -> None:
    rng = np.random.default_rng(4)
    values = rng.normal(size=(60, 2))
    # every query its own article: the clustered variance is the independent one
    assert design_effect(values, [f"a{i}" for i in range(60)]) == pytest.approx([1.0, 1.0])
    # articles of 5 queries alike within: G m = n, effect (n - 1) / (G - 1) exactly
    alike = np.repeat(rng.normal(size=12), 5)
    articles = [f"a{i // 5}" for i in range(60)]
    assert design_effect(alike, articles)[0] == pytest.approx(59 / 11)
    # independent values in articles: near 1; a constant: 1 (no variance either way)
    assert 0.5 < design_effect(values, articles)[0] < 1.5
    assert design_effect(np.full(60, 0.2), articles)[0] == 1.0


def test_queries_needed_by_article_scales_by_the_design_effect() -> None:
    diffs = np.repeat([0.3, -0.1, 0.2, 0.0], 25)  # 4 articles of 25 alike queries
    articles = [f"a{i // 25}" for i in range(100)]
    alone = queries_needed(diffs, 0.05)
    assert alone.design_effect is None and alone.needed_by_cluster is None
    got = queries_needed(diffs, 0.05, articles)
    assert got.needed[0] == alone.needed[0] and got.design_effect is not None
    assert got.design_effect[0] == pytest.approx(99 / 3)
    assert got.needed_by_cluster is not None and got.detectable_by_cluster is not None
    z = norm.ppf(0.975) + norm.ppf(0.8)
    sd = float(np.std(diffs, ddof=1))
    assert got.needed_by_cluster[0] == math.ceil((z * sd / 0.05) ** 2 * 99 / 3)
    assert got.detectable_by_cluster[0] == pytest.approx(alone.detectable[0] * math.sqrt(33))


def test_parse_and_resolve_sizes() -> None:
    assert parse_sizes("20, 50,all") == [20, 50, "all"]
    with pytest.raises(ValueError):
        parse_sizes("20,x")
    with pytest.raises(ValueError):
        parse_sizes("1")
    assert resolve_sizes([200, 20, "all", 20], 100) == ([20, 100], [200])


# --------------------------------------------------------------------------- the command


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("runs")
    paths = [folder / "bm25.trec", folder / "tfidf.trec"]
    assert main(["baseline", str(BUILD), "--out", str(paths[0])]) == 0
    assert main(["baseline", str(BUILD), "--out", str(paths[1]), "--method", "tfidf"]) == 0
    return [str(p) for p in paths]


def test_eval_sizes_need_curve_json(
    two_runs: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", str(BUILD), *two_runs, "--measures", "RR@10", "nDCG@10"]
    argv += ["--sizes", "4,8,all,500", "--subsets", "50", "--need", "0.05", "--curve", "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "--sizes 500: more than the 10 queries, left out" in captured.err
    report = json.loads(captured.out)
    rows = report["stability"]
    assert len(rows) == 3 * 2 * 2  # sizes x runs x measures
    assert set(rows[0]) == {
        "run", "measure", "n", "subsets", "mean", "low", "high", "width", "swap_rate",
        "wrong_call_rate",
    }  # fmt: skip
    first = [r for r in rows if r["run"] == "bm25"]
    assert all(r["swap_rate"] is None and r["wrong_call_rate"] is None for r in first)
    assert all(r["swap_rate"] is not None for r in rows if r["run"] == "tfidf")
    assert report["settings"]["stability"]["draw"] == "article"  # 10 queries in 4 articles
    assert report["settings"]["stability"]["left_out"] == [500]
    whole = [r for r in rows if r["n"] == 10]
    assert all(r["subsets"] == 1 and r["low"] == r["mean"] == r["high"] for r in whole)
    assert {(r["run_a"], r["run_b"]) for r in report["needed"]} == {("bm25", "tfidf")}
    for row in report["needed"]:  # 10 queries in 4 articles: the figures by article too
        assert row["design_effect"] is not None and row["design_effect"] > 0
        assert row["queries_needed_by_article"] >= 1
    assert [p["k"] for p in report["curve"] if p["run"] == "bm25"] == [1, 3, 5, 10, 20, 50, 100]
    recall = [p["mean"] for p in report["curve"] if p["run"] == "bm25"]
    assert recall == sorted(recall)  # recall never drops as k grows
    assert main(argv) == 0
    assert capsys.readouterr().out == captured.out  # same seed, same bytes


def test_eval_sizes_table(two_runs: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["eval", str(BUILD), *two_runs, "--measures", "RR@10", "--sizes", "4,all"]
    assert main([*argv, "--subsets", "50", "--curve"]) == 0
    out = capsys.readouterr().out
    assert "stability: 50 subsets per size, drawn without replacement by whole articles" in out
    assert "tfidf (vs bm25)" in out and "swap=" in out and "wrong=" in out
    assert "n=10 RR(rel=2)@10=" in out
    assert "note: at n = 4, 10 a subset holds fewer than 10 articles" in out
    assert "recall at k (R(rel=2)@k)" in out


def test_need_wants_two_runs(two_runs: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(BUILD), two_runs[0], "--need", "0.01"]) == 2
    assert "--need compares runs" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", str(BUILD), two_runs[0], "--need", "-1"])
    assert exit_info.value.code == 2


def test_eval_plot(two_runs: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    picture = tmp_path / "study.png"
    argv = ["eval", str(BUILD), *two_runs, "--measures", "RR@10", "--sizes", "4,8,all"]
    argv += ["--subsets", "50", "--curve", "--plot", str(picture)]
    assert main(argv) == 0
    assert "3 panels -> " in capsys.readouterr().err
    first = picture.read_bytes()
    assert first.startswith(b"\x89PNG")
    assert main(argv) == 0
    assert picture.read_bytes() == first  # no date in the file
    assert main(["eval", str(BUILD), two_runs[0], "--plot", str(tmp_path / "x.png")]) == 2
    assert "--plot draws --sizes and --curve" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
