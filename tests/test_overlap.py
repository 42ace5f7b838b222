"""Each query's word overlap with its labelled sections: golden.jsonl, report.json, audit."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from audit_helpers import fresh_build, run
from qrelsmith.cli import main
from qrelsmith.evaluate.difficulty import overlaps
from qrelsmith.labelling.overlap import _quantile, band, overlap, shares_summary
from qrelsmith.models import CorpusRecord
from qrelsmith.store.buildfolder import load_build
from test_audit_apply import filled, golden

SITE = Path(__file__).parent.parent / "samples" / "site"


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("overlap") / "build"
    assert main(["build", str(SITE), "--out", str(out), "-q", "--workers", "1"]) == 0
    return out


def test_golden_overlap_is_evals_overlap_with_the_named_sections(sample: Path) -> None:
    build = load_build(sample)
    recomputed = overlaps(build.topics, build.qrels, build.sections)
    written = {q.qid: q.overlap for q in build.queries}
    assert written and all(share is not None for share in written.values())
    assert written == recomputed  # heading, text and either, against the grade-2 sections
    # the fields are not one number written three times
    assert any(s.heading != s.text for s in recomputed.values())


def test_report_gives_the_distribution_of_each_share(sample: Path) -> None:
    report = json.loads((sample / "report.json").read_text())["overlap"]
    queries = [json.loads(line) for line in (sample / "golden.jsonl").read_text().splitlines()]
    assert report["queries"] == len(queries) and report["without_units"] == 0
    for share in ("heading", "text", "section"):
        values = sorted(q["overlap"][share] for q in queries)
        figures = report[share]
        assert figures["median"] == round(statistics.median(values), 4)
        assert figures["min"] <= figures["q1"] <= figures["median"] <= figures["q3"]
        assert figures["q3"] <= figures["max"] == values[-1]
        assert sum(figures["bands"].values()) == len(values)
        assert figures["bands"]["none"] == values.count(0.0)
        assert figures["bands"]["all"] == values.count(1.0)


def test_bands_and_quartiles() -> None:
    assert [band(x) for x in (0.0, 0.1, 1 / 3, 0.5, 2 / 3, 0.99, 1.0)] == [
        "none", "few", "some", "some", "most", "most", "all",
    ]  # fmt: skip
    values = [0.0, 0.1, 0.25, 0.4, 0.5, 0.9, 1.0]
    assert [_quantile(values, q) for q in (0.25, 0.5, 0.75)] == pytest.approx(
        statistics.quantiles(values, n=4, method="inclusive")
    )
    assert shares_summary([]).bands == dict.fromkeys(("none", "few", "some", "most", "all"), 0)


def test_overlap_shares_are_rounded_and_bounded() -> None:
    record = CorpusRecord(
        id="a#0", article_id="a", path="a", title="t", heading="proxy", text="timeout and limit"
    )
    shares = overlap("proxy timeout limit", [record])
    assert shares is not None
    assert (shares.heading, shares.text, shares.section) == (0.3333, 0.6667, 1.0)


def test_a_correction_recomputes_the_overlap(tmp_path: Path) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build)) == 0
    verdicts = filled(
        build,
        tmp_path / "v.csv",
        {"ja/modal.html#q0": {"verdict": "wrong", "correct_sections": "モーダルウィンドウとは"}},
    )
    assert run("apply", str(build), str(verdicts)) == 0
    corrected = golden(build / "versions" / "v1")["ja/modal.html#q0"]
    sections = load_build(build).sections
    expected = overlap(corrected["query"], [sections["ja/modal.html#0"]])
    assert expected is not None
    assert corrected["overlap"] == expected.model_dump()
