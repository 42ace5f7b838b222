"""Reading a result (issues 24.3, 25.6, 27.5, 27.6, 27.9): Judged@k and condensed lists, all
pairs, --draw, --ranks, --views, --curve --k, micro recall and the notes on --rel, --need and
--sizes; through evaluate_runs and, for flags, through qrelsmith.cli.main."""

from __future__ import annotations

import warnings
from pathlib import Path

import ir_measures
import numpy as np
import pytest

from qrelsmith.cli import main
from qrelsmith.config import EvalOptions, EvalRequest
from qrelsmith.evaluate.evaluation import EvalInput, evaluate_runs
from qrelsmith.evaluate.runs import Run, order_run
from qrelsmith.models import EvalReport
from qrelsmith.store.buildfolder import Qrels

FEW = {"bootstrap_samples": 200, "permutation_rounds": 200}


def ranked(rankings: dict[str, list[str]]) -> Run:
    """A run listing each query's docids best first."""
    return order_run(
        (qid, docid, float(len(docids) - i))
        for qid, docids in rankings.items()
        for i, docid in enumerate(docids)
    )


def report_of(
    qrels: Qrels,
    runs: dict[str, Run],
    articles: dict[str, str] | None = None,
    *,
    options: dict[str, object] | None = None,
    **request: object,
) -> EvalReport:
    settings = {**FEW, **(options or {})}
    return evaluate_runs(
        EvalInput(qrels, runs, articles if articles is not None else {}),
        EvalRequest.model_validate({"options": EvalOptions.model_validate(settings), **request}),
    )


# --------------------------------------------------------------------------- Judged@k, condensed

#: Two queries; "n0" is judged non-relevant (an explicit grade-0 line from pool review).
JUDGED_QRELS: Qrels = {
    "q1": {"r1": 2, "s1": 1, "n0": 0},
    "q2": {"r2": 2, "s2": 1},
}


def test_judged_at_10_counts_grade_zero_as_judged_and_matches_ir_measures() -> None:
    run = ranked({"q1": ["x", "n0", "r1", "y"], "q2": ["r2", "z", "s2", "w", "v"]})
    report = report_of(JUDGED_QRELS, {"sys": run}, options={"measures": ["RR@10"]})
    # q1: n0 and r1 judged of 4 retrieved = 0.5; q2: r2, s2 of 5 = 0.4
    assert [(j.run, j.measure) for j in report.judged] == [("sys", "Judged@10")]
    assert report.judged[0].mean == pytest.approx((0.5 + 0.4) / 2)
    theirs = ir_measures.calc_aggregate(
        [ir_measures.parse_measure("Judged@10")],
        JUDGED_QRELS,
        {qid: dict(docs) for qid, docs in run.items()},
    )
    assert report.judged[0].mean == pytest.approx(next(iter(theirs.values())))


def test_condensed_scores_equal_ir_measures_on_a_hand_filtered_run() -> None:
    run = ranked({"q1": ["x", "n0", "y", "r1", "s1"], "q2": ["z", "w", "s2", "r2"]})
    names = ["RR@10", "nDCG@3", "P@2", "AP@100"]
    report = report_of(
        JUDGED_QRELS,
        {"sys": run},
        options={"measures": names, "rel": 1},
        unjudged="condensed",
        per_query=True,
    )
    # removed by hand: x, y (q1) and z, w (q2), which the qrels do not judge; n0 stays
    filtered = {"q1": {"n0": 3.0, "r1": 2.0, "s1": 1.0}, "q2": {"s2": 2.0, "r2": 1.0}}
    measures = [ir_measures.parse_measure(name) for name in names]
    expected = {
        (str(m.measure), m.query_id): m.value
        for m in ir_measures.iter_calc(measures, JUDGED_QRELS, filtered)
    }
    assert report.per_query is not None
    got = report.per_query["sys"]
    for (measure, qid), value in expected.items():
        assert got[measure][qid] == pytest.approx(value), (measure, qid)
    # and not what the unfiltered run scores: RR@10 of q1 is 1/2 condensed, 1/4 as retrieved
    assert got["RR@10"]["q1"] == pytest.approx(0.5)
    assert report.settings["unjudged"] == "condensed"
    assert report.judged[0].mean == pytest.approx((3 / 5 + 2 / 4) / 2)  # of the runs as given


def test_a_judged_gap_above_a_tenth_warns_on_the_comparison() -> None:
    judged = ranked({"q1": ["r1", "s1", "n0"], "q2": ["r2", "s2"]})  # Judged@10 = 1.0
    near = ranked({"q1": ["r1", "s1", "n0"], "q2": ["r2", "s2", "s2x"]})  # (1 + 2/3) / 2
    far = ranked({"q1": ["r1", "u", "v"], "q2": ["r2", "w", "x"]})  # (1/3 + 1/3) / 2
    report = report_of(JUDGED_QRELS, {"a": judged, "b": near, "c": far})
    gaps = [w for w in report.warnings if "leans on unjudged documents" in w]
    assert gaps == [
        "a->b: Judged@10 1.000 vs 0.833: the comparison leans on unjudged documents "
        "(--unjudged condensed scores without them)",
        "a->c: Judged@10 1.000 vs 0.333: the comparison leans on unjudged documents "
        "(--unjudged condensed scores without them)",
    ]
    alone = report_of(JUDGED_QRELS, {"a": judged, "b": judged})
    assert not [w for w in alone.warnings if "unjudged" in w]


# --------------------------------------------------------------------------- pairs, ranks, views


def test_pairs_all_compares_every_pair_in_listed_order() -> None:
    run = ranked({"q1": ["r1"], "q2": ["r2"]})
    runs = {"a": run, "b": run, "c": run}
    first = report_of(JUDGED_QRELS, runs, options={"measures": ["RR@10"]})
    every = report_of(JUDGED_QRELS, runs, options={"measures": ["RR@10"]}, pairs="all")
    assert [(c.run_a, c.run_b) for c in first.comparisons] == [("a", "b"), ("a", "c")]
    assert [(c.run_a, c.run_b) for c in every.comparisons] == [("a", "b"), ("a", "c"), ("b", "c")]


def test_rank_counts_on_a_hand_made_run() -> None:
    qrels: Qrels = {f"q{i}": {f"t{i}": 2, f"o{i}": 1} for i in range(7)}
    rankings = {
        "q0": ["t0"],  # rank 1
        "q1": ["x", "t1"],  # rank 2
        "q2": ["o2", "x", "t2"],  # rank 3: o2 is only grade 1 under --rel 2
        "q3": [*"abcd", "t3"],  # rank 5: 4-10
        "q4": [*"abcdefghi", "t4"],  # rank 10: 4-10
        "q5": [*"abcdefghij", "t5"],  # rank 11: none in the top 10
    }  # q6 has no results: none
    report = report_of(qrels, {"sys": ranked(rankings)}, ranks=True)
    counts = {row.rank: (row.queries, round(row.share, 4)) for row in report.ranks}
    assert counts == {
        "1": (1, round(1 / 7, 4)),
        "2": (1, round(1 / 7, 4)),
        "3": (1, round(1 / 7, 4)),
        "4-10": (2, round(2 / 7, 4)),
        "none": (2, round(2 / 7, 4)),
    }
    lenient = report_of(qrels, {"sys": ranked(rankings)}, options={"rel": 1}, ranks=True)
    assert {row.rank: row.queries for row in lenient.ranks}["1"] == 2  # o2 counts at rel 1


#: The study's worked example: d3, d7, d1, d9, d4 retrieved; d1 grade 2, d4 and d8 grade 1.
STUDY_QRELS: Qrels = {"q": {"d1": 2, "d4": 1, "d8": 1}}
STUDY_RUN = ranked({"q": ["d3", "d7", "d1", "d9", "d4"]})


def test_three_views_on_the_studys_worked_example() -> None:
    # a second run finding d1 first wins every view; the study's one wins none
    better = ranked({"q": ["d1", "d4", "d8"]})
    report = report_of(
        STUDY_QRELS,
        {"study": STUDY_RUN, "better": better},
        views=["strict", "graded", "exp"],
    )
    means = {(row.run, row.view): round(row.mean, 4) for row in report.views}
    # the study's table: nDCG@5 = 0.4430 with linear gains, 0.4568 with 2^g - 1; strict
    # counts d1 alone, at rank 3: 1 / log2(4) = 0.5 (nDCG@10 = nDCG@5: five results)
    assert means[("study", "strict")] == 0.5
    assert means[("study", "graded")] == 0.4430
    assert means[("study", "exp")] == 0.4568
    assert means[("better", "strict")] == 1.0
    assert {row.measure for row in report.views} == {"nDCG@10"}
    from qrelsmith.evaluate.tables import format_views

    text = format_views(report)
    assert text.splitlines()[-1].split() == ["best", "better", "better", "better"]
    assert "study   0.5000  0.4430  0.4568" in text


def test_micro_recall_and_zero_recall_rate_on_seed_003() -> None:
    qrels: Qrels = {"qA": {"a1": 1}, "qB": {f"b{i}": 1 for i in range(1, 10)}}
    run = ranked({"qA": ["a1"], "qB": ["zz"]})
    report = report_of(qrels, {"sys": run}, options={"measures": ["R@100"], "rel": 1}, micro=True)
    assert len(report.recall) == 1
    row = report.recall[0]
    assert (row.measure, row.macro, row.micro, row.zero_recall_rate) == ("R@100", 0.5, 0.1, 0.5)


def test_curve_at_the_given_cutoffs() -> None:
    report = report_of(STUDY_QRELS, {"s": STUDY_RUN}, options={"rel": 1}, curve=[1, 3, 5])
    assert [(p.k, round(p.mean, 4)) for p in report.curve] == [(1, 0.0), (3, 0.3333), (5, 0.6667)]


# --------------------------------------------------------------------------- notes on --rel


def test_rel_hiding_grade_one_from_a_named_measure_is_noted() -> None:
    run = {"s": STUDY_RUN}
    named = report_of(STUDY_QRELS, run, options={"measures": ["R@10", "nDCG@10"]})
    assert rel_notes(named) == [
        "--rel 2 applies to R@10 as named: grade 1 does not count there (R(rel=1)@10 or "
        "--rel 1 counts it)"
    ]
    own = report_of(STUDY_QRELS, run, options={"measures": ["R(rel=1)@10", "nDCG@10"]})
    assert rel_notes(own) == []
    assert rel_notes(report_of(STUDY_QRELS, run)) == []  # the defaults: rel 2 on purpose
    assert rel_notes(report_of(STUDY_QRELS, run, options={"measures": ["R@10"], "rel": 1})) == []


def rel_notes(report: EvalReport) -> list[str]:
    return [w for w in report.warnings if w.startswith("--rel")]


def test_rel_above_every_grade_is_warned_about() -> None:
    report = report_of(STUDY_QRELS, {"s": STUDY_RUN}, options={"rel": 3})
    assert rel_notes(report) == [
        "--rel 3 is above every grade in the qrels (the highest is 2): every measure that "
        "takes a relevance threshold scores 0"
    ]


# --------------------------------------------------------------------------- --draw, --sizes


def spread_set(articles: int, per_article: int, seed: int) -> tuple[Qrels, Run, dict[str, str]]:
    """Queries in articles of alike queries (a shared article effect), one run: what makes the
    article draw and the query draw differ."""
    rng = np.random.default_rng(seed)
    qrels: Qrels = {}
    rankings: dict[str, list[str]] = {}
    article_of: dict[str, str] = {}
    for a in range(articles):
        easy = rng.random()
        for q in range(per_article):
            qid = f"a{a}#q{q}"
            qrels[qid] = {f"a{a}#t{q}": 2}
            article_of[qid] = f"a{a}"
            hit = f"a{a}#t{q}"
            rankings[qid] = [hit] if rng.random() < easy else ["miss", hit]
    return qrels, ranked(rankings), article_of


def test_draw_query_widths_shrink_close_to_one_over_root_n() -> None:
    qrels, run, articles = spread_set(120, 8, seed=3)
    report = report_of(
        qrels,
        {"sys": run},
        articles,
        options={"measures": ["RR@10"], "subsets": 300},
        draw="query",
        sizes=[25, 100, 400],
    )
    assert report.settings["stability"]["draw"] == "query"  # type: ignore[index]
    width = {row.n: row.width for row in report.stability}
    # 4 times the queries, half the width: within 10 % of 1/sqrt(n) at each step
    assert width[25] / width[100] == pytest.approx(2.0, rel=0.1)
    assert width[100] / width[400] == pytest.approx(2.0, rel=0.1)
    by_article = report_of(
        qrels,
        {"sys": run},
        articles,
        options={"measures": ["RR@10"], "subsets": 300},
        sizes=[25, 100, 400],
    )
    assert by_article.settings["stability"]["draw"] == "article"  # type: ignore[index]
    # whole articles of alike queries spread more than single queries do
    assert all(row.width > width[row.n] for row in by_article.stability)


def test_a_size_whole_articles_cannot_draw_is_left_out_with_a_note() -> None:
    qrels: Qrels = {f"one.html#q{i}": {f"one.html#{i}": 2} for i in range(9)}
    run = ranked({qid: [next(iter(judged))] for qid, judged in qrels.items()})
    articles = dict.fromkeys(qrels, "one.html")
    report = report_of(qrels, {"sys": run}, articles, sizes=[2, 5, "all"])
    assert sorted({row.n for row in report.stability}) == [9]
    notes = [w for w in report.warnings if w.startswith("--sizes")]
    assert notes == [
        f"--sizes {n}: a subset of whole articles would hold all 1 articles, the whole set: "
        "left out (--draw query draws single queries)"
        for n in (2, 5)
    ]
    by_query = report_of(qrels, {"sys": run}, articles, draw="query", sizes=[2, 5, "all"])
    assert sorted({row.n for row in by_query.stability}) == [2, 5, 9]


# --------------------------------------------------------------------------- the CLI

FIXTURE = Path(__file__).parent / "fixtures" / "eval" / "build"


@pytest.fixture(scope="module")
def run_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("runs") / "bm25.trec"
    assert main(["baseline", str(FIXTURE), "--out", str(path), "--k", "10"]) == 0
    return path


@pytest.mark.parametrize("delta", ["inf", "-inf", "nan", "0", "-0.1", "x", "1e400"])
def test_need_refuses_what_is_not_a_positive_finite_difference(
    delta: str, run_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", str(FIXTURE), str(run_file), str(run_file), f"--need={delta}"])
    assert exit_info.value.code == 2
    assert "expected a finite difference above 0" in capsys.readouterr().err


@pytest.mark.parametrize("delta", ["1e-11", "1e-300"])
def test_need_says_more_than_past_what_an_int_holds(
    delta: str, tmp_path: Path, run_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.trec"
    unigrams = ["--ngrams", "1-1"]  # ranks differently from run_file: the differences vary
    assert main(["baseline", str(FIXTURE), "--out", str(other), *unigrams]) == 0
    capsys.readouterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow warnings would fail the test
        code = main(
            [
                "eval",
                str(FIXTURE),
                str(run_file),
                str(other),
                "--need",
                delta,
                "-c",
                str(quick(tmp_path)),
            ]
        )
    assert code == 0
    captured = capsys.readouterr()
    assert "needed=more than 9,223,372,036,854,775,807" in captured.out
    assert "needed=-" not in captured.out
    assert "RuntimeWarning" not in captured.err


def quick(folder: Path) -> Path:
    config = folder / "quick.toml"
    config.write_text("[eval]\nbootstrap_samples = 200\npermutation_rounds = 200\n")
    return config


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--k", "1,3"], "--k gives the cut-offs of --curve"),
        (["--draw", "query"], "--draw says how --sizes draws"),
        (["--curve", "--k", "0,3"], "a cut-off is a whole number from 1 to 1,000,000"),
        (  # issue 27, item 8: a KeyError from pytrec_eval's overflowing cut-off before
            ["--curve", "--k", "99999999999999999999"],
            "a cut-off is a whole number from 1 to 1,000,000, not '99999999999999999999'",
        ),
        (["--views", "strict,loose"], "views are strict, graded, exp"),
        (["--unjudged", "ignored"], "invalid choice"),
    ],
)
def test_reading_flags_refuse_misuse(
    flags: list[str], message: str, run_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert exit_code(["eval", str(FIXTURE), str(run_file), *flags]) == 2
    assert message in capsys.readouterr().err


def exit_code(argv: list[str]) -> int:
    """main's exit code, whether argparse exits (a bad value) or main returns (a usage error)."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def test_the_reading_blocks_through_the_cli(
    tmp_path: Path, run_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "eval",
            str(FIXTURE),
            str(run_file),
            "--ranks",
            "--views",
            "graded,strict",
            "--micro",
            "--curve",
            "--k",
            "5,1",
            "--unjudged",
            "condensed",
            "-c",
            str(quick(tmp_path)),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "rank of the first relevant document (grade >= 2)" in out
    assert "labelling views, nDCG@10: graded = the grade as gain; strict = grade >= 2" in out
    assert "recall: macro = mean of the queries' recall" in out
    assert "bm25  @1=" in out and " @5=" in out and "@10=" not in out.split("recall at k")[1]
    assert "scored on condensed lists (--unjudged condensed)" in out
    assert out.splitlines()[2 + 8].startswith("Judged@10 (share of the top 10 with a judgement")


# --------------------------------------------------------------------------- one resampling


def test_runs_and_pairs_resampled_together_get_the_figures_they_get_alone() -> None:
    rng = np.random.default_rng(5)
    qrels: Qrels = {f"a{q % 7}#q{q}": {f"a{q % 7}#t{q}": 2, f"a{q % 7}#o{q}": 1} for q in range(60)}
    runs = {
        name: ranked(
            {qid: list(rng.permutation([*judged, "x", "y", "z"])) for qid, judged in qrels.items()}
        )
        for name in ("a", "b", "c")
    }
    articles = {qid: qid.split("#")[0] for qid in qrels}
    together = report_of(qrels, runs, articles, pairs="all")
    for name in runs:
        alone = report_of(qrels, {name: runs[name]}, articles)
        mine = [s for s in together.summaries if s.run == name]
        for got, expected in zip(mine, alone.summaries, strict=True):
            assert (got.low, got.high, got.cluster_low) == pytest.approx(
                (expected.low, expected.high, expected.cluster_low), abs=1e-12
            )
    for first, second in (("a", "b"), ("a", "c"), ("b", "c")):
        alone = report_of(qrels, {first: runs[first], second: runs[second]}, articles)
        mine = [c for c in together.comparisons if (c.run_a, c.run_b) == (first, second)]
        for got, expected in zip(mine, alone.comparisons, strict=True):
            assert got.measure == expected.measure
            assert (got.diff, got.low, got.high, got.cluster_high) == pytest.approx(
                (expected.diff, expected.low, expected.high, expected.cluster_high), abs=1e-12
            )
            assert (got.p_value, got.wins, got.losses) == (
                expected.p_value,
                expected.wins,
                expected.losses,
            )


def test_eval_does_not_import_the_build_pipeline() -> None:
    import subprocess
    import sys

    code = (
        "import sys, qrelsmith.cli.evaluate, qrelsmith; "
        "print('qrelsmith.run.build' in sys.modules, qrelsmith.build.__module__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    assert out.split() == ["False", "qrelsmith.run.build"]
