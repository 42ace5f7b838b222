"""Word overlap of a query with its labelled section, and `eval --by` / `--subset`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qrelsmith.cli import main
from qrelsmith.evaluate.difficulty import overlap, overlaps, parse_subset, tercile_groups
from qrelsmith.models import CorpusRecord

BUILD = Path(__file__).parent / "fixtures" / "eval" / "build"


def section(heading: str, text: str) -> CorpusRecord:
    return CorpusRecord(id="a#0", article_id="a", path="a", title="t", heading=heading, text=text)


def test_overlap_counts_the_matchers_units() -> None:
    # "RDPのポート番号" has the units rdp, のポ, ポー, ート, ト番, 番号 (CJK bigrams)
    found = overlap("RDPのポート番号", [section("RDPのポート番号3389", "別の話")])
    assert found is not None and found.heading == 1.0 and found.text == 0.0
    assert found.section == 1.0
    half = overlap("configure proxy", [section("Intro", "How to configure it")])
    assert half is not None and half.text == 0.5 and half.heading == 0.0  # stems: "config"
    assert overlap("the", [section("x", "y")]) is None  # a stop word only: no unit


def test_overlap_is_with_the_named_sections_not_the_rest_of_the_article() -> None:
    named = section("Proxy settings", "unrelated words")
    other = CorpusRecord(
        id="a#1", article_id="a", path="a", title="t", heading="Timeout", text="timeout error"
    )
    shares = overlaps(
        {"q": "timeout error"}, {"q": {"a#0": 2, "a#1": 1}}, {"a#0": named, "a#1": other}
    )
    assert shares["q"].section == 0.0


def test_terciles_are_thirds_with_ties_in_order() -> None:
    values = {f"q{i}": v for i, v in enumerate([0.0, 0.0, 0.0, 0.5, 0.5, 0.9, 1.0, 1.0, 1.0])}
    groups = tercile_groups(values, list(values))
    assert [groups[f"q{i}"] for i in range(9)] == ["low"] * 3 + ["mid"] * 3 + ["high"] * 3
    tied = tercile_groups({"a": 1.0, "b": 1.0, "c": 1.0}, ["c", "b", "a"])
    assert tied == {"c": "low", "b": "mid", "a": "high"}


def test_parse_subset() -> None:
    assert parse_subset("hard") == ("overlap", "low")
    assert parse_subset("rule=fuzzy") == ("rule", "fuzzy")
    for bad in ("easy", "colour=red", "rule="):
        with pytest.raises(ValueError):
            parse_subset(bad)


@pytest.fixture(scope="module")
def bm25(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("runs") / "bm25.trec"
    assert main(["baseline", str(BUILD), "--out", str(path)]) == 0
    return str(path)


def test_eval_by_overlap_and_subset(bm25: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["eval", str(BUILD), bm25, "--measures", "RR@10", "--json"]
    assert main([*argv, "--by", "overlap"]) == 0
    report = json.loads(capsys.readouterr().out)
    groups = {row["group"]: row["queries"] for row in report["groups"]}
    assert list(groups) == ["low", "mid", "high"] and sum(groups.values()) == report["queries"]
    assert max(groups.values()) - min(groups.values()) <= 1
    assert main([*argv, "--subset", "hard"]) == 0
    hard = json.loads(capsys.readouterr().out)
    assert hard["queries"] == groups["low"] and hard["settings"]["subset"] == "overlap=low"
    low = next(r for r in report["groups"] if r["group"] == "low")
    assert hard["summaries"][0]["mean"] == pytest.approx(low["mean"])


def test_eval_by_rule_table_and_bad_subsets(bm25: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(BUILD), bm25, "--measures", "RR@10", "--by", "rule"]) == 0
    assert "by rule: the rule that matched the label" in capsys.readouterr().out
    assert main(["eval", str(BUILD), bm25, "--subset", "rule=nothing"]) == 1
    assert "no query in --subset rule=nothing" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", str(BUILD), bm25, "--subset", "easy"])
    assert exit_info.value.code == 2
