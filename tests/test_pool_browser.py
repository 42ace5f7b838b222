"""The pool's review page in a real browser (as ``test_review_browser``): the label page with
the pool's verdicts and keys, one candidate document per row, its CSV export applied."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit_helpers import fresh_build, run
from test_audit_pool import XSS, write_run
from test_review_browser import browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser


def test_pool_review_loop_in_chromium(browser, tmp_path: Path, capsys) -> None:  # noqa: F811
    build = fresh_build(tmp_path)
    corpus = build / "corpus.jsonl"  # another article's section holds q2's answer
    corpus.write_text(corpus.read_text().replace("-1 is not a formula", "-1 is not found"))
    first = write_run(tmp_path / "a.trec", build, 0)
    assert run("pool", str(build), str(first), "--depth", "13", "--size", "60") == 0
    rows = json.loads((build / "audit" / "pool.json").read_text())["rows"]
    assert ("en/http-request.html#q2", f"{XSS}#3") in {(r["qid"], r["docid"]) for r in rows}
    context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto((build / "audit" / "pool.html").as_uri())

    labels = page.locator("#verdicts button").all_text_contents()
    assert [label.split(" ", 1)[1] for label in labels] == ["relevant", "partly", "not", "unsure"]
    assert page.locator("#pick").is_hidden()
    weighty = next(number for number, row in enumerate(rows) if row["weight"] > 1)
    for _ in range(weighty):
        page.keyboard.press("ArrowRight")
    assert "pairs like it" in (page.text_content("#stratum") or "")
    for _ in range(weighty):
        page.keyboard.press("ArrowLeft")
    decided = {}
    for row in rows:
        assert page.text_content("#qid") == row["qid"]
        candidate = page.locator("#text h4").first.text_content() or ""
        assert candidate.endswith("candidate")
        if (row["qid"], row["docid"]) == ("en/http-request.html#q2", f"{XSS}#3"):
            assert page.text_content("#text mark") == "not found"
            page.keyboard.press("r")  # relevant: stays on the row
            page.keyboard.press("ArrowRight")
            decided[(row["qid"], row["docid"])] = 2
        else:
            page.keyboard.press("3")  # not: moves on by itself
            decided[(row["qid"], row["docid"])] = 0
    assert page.text_content("#done") == f"{len(rows)} reviewed"
    with page.expect_download() as download:
        page.click("#export")
    export = tmp_path / "pool-verdicts.csv"
    download.value.save_as(export)
    assert errors == []
    context.close()

    capsys.readouterr()
    assert run("apply", str(build), str(export)) == 0
    qrels = (build / "versions" / "v1" / "qrels.trec").read_text().splitlines()
    assert {f"{q} 0 {d} {g}" for (q, d), g in decided.items()} <= set(qrels)
