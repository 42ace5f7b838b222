"""The review page in a real browser: Debian's chromium, headless, driven by Playwright.

Opens audit.html from file://, records verdicts with the keyboard and the heading picker,
reloads (progress kept in localStorage), exports the CSV and feeds it to ``audit apply``.
Also checks that an article containing <script> and an onerror handler runs nothing.
Set QRELSMITH_SCREENSHOT=docs/review.png to save the page's screenshot there, and
QRELSMITH_SUBHEADINGS_SCREENSHOT=docs/review-subheadings.png for the one of a page with
sub-headings.
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


#: Issue 29: a page whose labels and answers point into sub-headings (H3, H4); 𠮷 and 𩸽 (CJK
#: beyond U+FFFF, in the Noto CJK fonts) take two
#: UTF-16 units in the page's script, one code point in the build's offsets.
DEPLOY = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Deploy guide</title>
</head><body><article><h1>Deploy guide</h1>
<table><caption>Quick reference</caption>
<tr><th>Question</th><th>Answer</th><th>Details</th></tr>
<tr><td>How do I undo a bad release?</td><td>Run deploy rollback 𠮷 twice</td>
<td>Rolling back</td></tr>
<tr><td>What to do before changing the agent's port?</td>
<td>Stop the old agent first. Agent settings: port 8443</td><td>Agent settings</td></tr>
<tr><td>What does a release hold?</td><td>the build and its config</td><td>Releases</td></tr>
</table>
<h2>Releases</h2><p>A release 𠮷 holds the build and its config.</p>
<h3>Rolling back</h3><p>Run deploy rollback 𠮷 twice to reach the release before.</p>
<h4>Keeping data</h4><p>Data stays where it is.</p>
<h2>Agent</h2><p>The agent 𩸽 talks to the server. Stop the old agent first.</p>
<h3>Agent settings</h3><p>port 8443 is the default.</p>
</article></body></html>"""

#: An article without a table, for the pool: its sections are unjudged for every query.
NOTES = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Agent notes</title>
</head><body><article><h1>Agent notes</h1>
<h2>Upgrading the agent</h2><p>Read this first 𩸽.</p>
<h3>Ports</h3><p>Stop the old agent first. Agent settings: port 8443 stays.</p>
</article></body></html>"""


def sub_headings_build(tmp_path: Path) -> Path:
    from qrelsmith.cli import main

    site = tmp_path / "site"
    site.mkdir()
    (site / "deploy.html").write_text(DEPLOY, encoding="utf-8")
    (site / "notes.html").write_text(NOTES, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q"]) == 0
    return out


def reader(page) -> list[tuple[str, str]]:
    """The reader's blocks in order: (kind, text); kind is the section heading's h4, 'p' for
    text, 'H3'... for a sub-heading."""
    blocks = page.evaluate(
        """Array.from(document.querySelectorAll('#text h4, #text p, #text .sub')).map(
        (node) => [node.classList.contains('sub') ? 'H' + node.dataset.level : node.tagName.toLowerCase(),
                   node.textContent])"""
    )
    return [(kind, text) for kind, text in blocks]


def test_sub_headings_show_as_headings_and_the_span_is_marked_across_them(
    browser, tmp_path: Path
) -> None:
    build = sub_headings_build(tmp_path)
    golden = {
        record["qid"]: record
        for record in map(json.loads, (build / "golden.jsonl").read_text().splitlines())
    }
    assert run("sample", str(build), "--size", "3") == 0
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto((build / "audit" / "audit.html").as_uri())

    # The reference names the H3 "Agent settings"; the answer's span starts in the section's
    # text and runs across the sub-heading into the text under it: one mark in each part.
    go_to(page, "deploy.html#q1", 3)
    assert reader(page) == [
        ("h4", "#1 Agentlabel"),
        ("p", "The agent 𩸽 talks to the server. Stop the old agent first."),
        ("H3", "H3Agent settingsnamed by the reference"),
        ("p", "port 8443 is the default."),
    ]
    marks = page.locator("#text mark").all_text_contents()
    assert marks == ["Stop the old agent first.", "Agent settings", "port 8443 is the default."]
    assert " ".join(marks) == golden["deploy.html#q1"]["evidence"]["text"]
    assert page.get_attribute("#text .sub", "role") == "heading"
    assert page.text_content("#where") == (
        "the reference names the H3 \u201cAgent settings\u201d in #1 Agent"
    )
    assert page.is_visible("#where") and page.is_visible("#where-label")

    # The label's H3, and the answer under it, after an astral character; the H4 one level in.
    go_to(page, "deploy.html#q0", 3)
    assert reader(page) == [
        ("h4", "#0 Releaseslabel"),
        ("p", "A release 𠮷 holds the build and its config."),
        ("H3", "H3Rolling backnamed by the reference"),
        ("p", "Run deploy rollback 𠮷 twice to reach the release before."),
        ("H4", "H4Keeping data"),
        ("p", "Data stays where it is."),
    ]
    assert page.locator("#text mark").all_text_contents() == ["Run deploy rollback 𠮷 twice"]
    assert page.text_content("#where") == (
        "the reference names the H3 \u201cRolling back\u201d in #0 Releases\n"
        "the answer is under the H3 \u201cRolling back\u201d in #0 Releases"
    )
    indent = page.evaluate(
        "Array.from(document.querySelectorAll('#text .sub')).map((n) => getComputedStyle(n).marginLeft)"
    )
    assert indent[0] != indent[1]  # the H4 stands further in than the H3
    if os.environ.get("QRELSMITH_SUBHEADINGS_SCREENSHOT"):
        page.screenshot(path=os.environ["QRELSMITH_SUBHEADINGS_SCREENSHOT"])

    # A label naming the section's own heading, its answer before any sub-heading: no line.
    go_to(page, "deploy.html#q2", 3)
    assert page.locator("#text mark").all_text_contents() == ["the build and its config"]
    assert page.is_hidden("#where") and page.is_hidden("#where-label")
    assert page.locator("#text .named").count() == 0
    assert errors == []
    context.close()


def test_the_pool_page_shows_the_candidates_sub_headings(browser, tmp_path: Path, capsys) -> None:
    from qrelsmith.cli import main

    build = sub_headings_build(tmp_path)
    bm25 = tmp_path / "bm25.trec"
    assert main(["baseline", str(build), "--out", str(bm25)]) == 0
    assert run("pool", str(build), str(bm25), "--depth", "5", "--size", "20") == 0
    capsys.readouterr()
    rows = json.loads((build / "audit" / "pool.json").read_text())["rows"]
    pair = ("deploy.html#q1", "notes.html#0")
    assert pair in {(r["qid"], r["docid"]) for r in rows}
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto((build / "audit" / "pool.html").as_uri())
    for _ in range(len(rows)):
        if (page.text_content("#qid"), page.text_content("#path")) == (
            "deploy.html#q1",
            "notes.html",
        ):
            break
        page.keyboard.press("ArrowRight")
    # the candidate, its answer under its H3; then the query's label, its H3 named
    assert reader(page) == [
        ("h4", "#0 Upgrading the agentcandidate"),
        ("p", "Read this first 𩸽."),
        ("H3", "H3Ports"),
        ("p", "Stop the old agent first. Agent settings: port 8443 stays."),
        ("h4", "#1 Agentlabel"),
        ("p", "The agent 𩸽 talks to the server. Stop the old agent first."),
        ("H3", "H3Agent settingsnamed by the reference"),
        ("p", "port 8443 is the default."),
    ]
    assert page.locator("#text mark").all_text_contents() == [
        "Stop the old agent first. Agent settings: port 8443"
    ]
    assert page.text_content("#where") == (
        "the answer is under the H3 \u201cPorts\u201d in #0 Upgrading the agent\n"
        "the reference names the H3 \u201cAgent settings\u201d in #1 Agent"
    )
    assert errors == []
    context.close()
