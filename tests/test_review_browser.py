"""The review page in a real browser: Debian's chromium, headless, driven by Playwright.

Opens audit.html from file://, records verdicts with the keyboard and the heading picker,
reloads (progress kept in localStorage), exports the CSV and feeds it to ``audit apply``.
Also checks that an article containing <script> and an onerror handler runs nothing.
Set QRELSMITH_SCREENSHOT=docs/review.png to save the page's screenshot there.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from audit_helpers import fresh_build, run

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.browser

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip(
        "needs Debian's chromium (apt-get install chromium); in CI (CI set) this test must run",
        allow_module_level=True,
    )

sync_api = pytest.importorskip("playwright.sync_api") if not os.environ.get("CI") else None
if sync_api is None:
    import playwright.sync_api as sync_api  # in CI a missing playwright is a failure

#: What the reviewer decides, by qid; every other row is 'correct'.
DECISIONS = {
    "ja/modal.html#q0": ("wrong", ["#0 モーダルウィンドウとは"], "the 'とは' section answers it"),
    "en/http-request.html#q0": ("partly", ["#0 What is an HTTP request"], ""),
    "en/http-request.html#q2": ("unsure", [], "404 is in the list but barely explained"),
}


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def go_to(page, qid: str, total: int) -> None:
    """Show the row of ``qid`` (first row, then forward)."""
    for _ in range(total):
        page.keyboard.press("ArrowLeft")
    for _ in range(total):
        if page.text_content("#qid") == qid:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"{qid} not on the page")


def test_review_loop_in_chromium(browser, tmp_path: Path, capsys) -> None:
    build = fresh_build(tmp_path)
    assert run("sample", str(build), "--size", "40") == 0
    page_path = build / "audit" / "audit.html"
    context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(page_path.as_uri())

    total = len(json.loads((build / "audit" / "sample.json").read_text())["rows"])
    why: set[str] = set()
    for _ in range(total):
        qid = page.text_content("#qid")
        why.add(page.text_content("#stratum") or "")
        verdict, headings, note = DECISIONS.get(qid, ("correct", [], ""))
        if verdict == "correct":
            page.keyboard.press("1")  # moves on by itself
            continue
        page.keyboard.press({"wrong": "2", "partly": "3", "unsure": "4"}[verdict])
        if headings:
            while page.locator("#headings input:checked").count():
                page.locator("#headings input:checked").first.uncheck()
            for heading in headings:
                page.click(f"#headings li:has(button:text-is('{heading}')) input")
        if note:
            page.keyboard.press("n")
            page.keyboard.type(note)
            page.keyboard.press("Escape")
        page.keyboard.press("ArrowRight")
    assert page.text_content("#done") == f"{total} reviewed"

    # Crawled markup is shown as text and never runs.
    go_to(page, "en/xss.html#q0", total)
    assert "<script>alert(1)</script>" in page.text_content("#text")
    assert "<script>alert(1)</script>" in page.text_content("#answer")
    assert page.evaluate("document.querySelectorAll('script').length") == 2
    assert page.evaluate("document.querySelectorAll('img').length") == 0

    # The answer's span is one <mark> in the section's text, its text the golden span.
    built = {
        record["qid"]: record
        for record in map(json.loads, (build / "golden.jsonl").read_text().splitlines())
    }
    sampled = [
        row["qid"] for row in json.loads((build / "audit" / "sample.json").read_text())["rows"]
    ]
    spanned = next(qid for qid in sampled if "evidence" in built[qid])
    go_to(page, spanned, total)
    assert page.locator("#text mark").count() == 1
    assert page.text_content("#text mark") == built[spanned]["evidence"]["text"]
    go_to(page, "en/xss.html#q0", total)

    screenshot = tmp_path / "review.png"
    page.screenshot(path=str(screenshot))
    if os.environ.get("QRELSMITH_SCREENSHOT"):
        shutil.copyfile(screenshot, os.environ["QRELSMITH_SCREENSHOT"])

    # Progress survives a reload (localStorage of the file:// page).
    page.reload()
    assert page.text_content("#done") == f"{total} reviewed"

    with page.expect_download() as download:
        page.click("#export")
    export = tmp_path / "verdicts.csv"
    download.value.save_as(export)
    assert export.read_bytes().startswith(b"\xef\xbb\xbf")
    assert dialogs == [] and errors == []
    # Why a row was drawn, in a reviewer's words, not "plain (weight 2.64286)".
    assert "drawn among the other labels" in {text.split(";")[0] for text in why}
    assert not any("weight" in text or "plain" in text for text in why)
    context.close()

    capsys.readouterr()
    assert run("apply", str(build), str(export)) == 0
    printed = capsys.readouterr().out
    assert "label precision" in printed and "2 replaced, 0 removed, 1 flagged" in printed
    version = build / "versions" / "v1"
    golden = {
        record["qid"]: record
        for record in map(json.loads, (version / "golden.jsonl").read_text().splitlines())
    }
    assert golden["ja/modal.html#q0"]["relevant"] == {"ja/modal.html#0": 2}
    assert golden["ja/modal.html#q0"]["flags"] == ["corrected"]
    assert golden["en/http-request.html#q0"]["relevant"] == {"en/http-request.html#0": 2}
    assert golden["en/http-request.html#q2"]["flags"] == ["unsure"]
    assert golden["en/xss.html#q0"] == json.loads(
        next(
            line
            for line in (build / "golden.jsonl").read_text().splitlines()
            if "xss.html#q0" in line
        )
    )


def test_a_verdict_audit_apply_would_refuse_is_flagged_on_the_page(
    browser, tmp_path: Path, capsys
) -> None:
    # Issue 29: 'wrong' with the label's own section still ticked exported silently, and
    # audit apply then refused the file.
    build = fresh_build(tmp_path)
    assert run("sample", str(build), "--size", "40") == 0
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    page.goto((build / "audit" / "audit.html").as_uri())
    total = len(json.loads((build / "audit" / "sample.json").read_text())["rows"])
    go_to(page, "ja/modal.html#q0", total)
    assert page.is_hidden("#warning")
    page.keyboard.press("2")  # wrong, with the labelled section ticked as the page starts
    assert page.is_visible("#warning")
    assert "'wrong', but the label's own section is still ticked (#" in page.text_content(
        "#warning"
    )
    assert page.text_content("#done") == "1 reviewed, 1 to fix"
    while page.locator("#headings input:checked").count():
        page.locator("#headings input:checked").first.uncheck()
    assert "needs the right section(s) ticked" in page.text_content("#warning")
    page.click("#headings li:has(button:text-is('#0 モーダルウィンドウとは')) input")
    assert page.is_hidden("#warning") and page.text_content("#done") == "1 reviewed"
    page.keyboard.press("3")  # partly, with the label alone ticked
    page.locator("#headings input:checked").first.uncheck()
    for box in page.locator("#headings li:has(.label) input").all():
        box.check()
    assert "'partly', but only the label's own section is ticked" in page.text_content("#warning")
    context.close()
