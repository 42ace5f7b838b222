"""build + export through the CLI: exit codes, atomic outputs, determinism, bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pydantic import BaseModel

from qrelsmith import build
from qrelsmith.cli import main

GOOD = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head>
<body><article><h1>{title}</h1>
<table><tr><th>Question</th><th>Answer</th><th>Details</th></tr>
<tr><td>What is {title}?</td><td>A thing</td><td>About {title}</td></tr>
<tr><td>How to use {title}?</td><td>Carefully</td><td>Using it</td></tr></table>
<h2>About {title}</h2><p>{title} is a thing.</p>
<h2>Using {title}</h2><p>Use it with care.</p>
<h2>FAQ</h2><p>Nothing.</p></article></body></html>"""


def write_site(root: Path, names: list[str]) -> Path:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(GOOD.format(title=Path(name).stem), encoding="utf-8")
    return root


def test_build_writes_every_output(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", ["a.html", "sub/b.htm"])
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q"]) == 0
    for name in ("corpus.jsonl", "golden.jsonl", "qrels.trec", "queries.tsv", "report.json"):
        assert (out / name).is_file(), name
    for name in ("corpus.jsonl", "queries.jsonl", "qrels/test.tsv"):
        assert (out / "beir" / name).is_file(), name
    golden = [json.loads(line) for line in (out / "golden.jsonl").read_text().splitlines()]
    assert [g["qid"] for g in golden] == ["a.html#q0", "a.html#q1", "sub/b.htm#q0", "sub/b.htm#q1"]
    assert golden[1]["relevant"] == {"a.html#1": 2} and golden[1]["match"] == "fuzzy"
    assert (out / "qrels.trec").read_text().splitlines()[:2] == [
        "a.html#q0 0 a.html#0 2",
        "a.html#q0 0 a.html#1 1",
    ]
    assert not list(out.rglob("*.tmp")), "temporary files left behind"


def test_same_input_same_bytes_in_any_order(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", ["a.html", "b.html", "c.html"])
    other = tmp_path / "other"
    write_site(other, ["c.html"])
    shutil.move(site / "c.html", tmp_path / "c_moved.html")
    (other / "c.html").write_text(GOOD.format(title="c"), encoding="utf-8")
    one, two = tmp_path / "one", tmp_path / "two"
    main(["build", str(site), str(other), "--out", str(one), "-q"])
    main(["build", str(other), str(site), "--out", str(two), "-q"])
    for path in sorted(one.rglob("*")):
        if path.is_file():
            assert path.read_bytes() == (two / path.relative_to(one)).read_bytes(), path


def test_adding_an_article_renumbers_nothing(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", ["b.html"])
    before = build([site]).queries
    write_site(site, ["a.html"])
    after = {q.qid: q for q in build([site]).queries}
    assert all(after[q.qid] == q for q in before)


def test_broken_pages_are_reported_and_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = write_site(tmp_path / "site", ["good.html"])
    (site / "empty.html").write_bytes(b"")
    (site / "junk.html").write_bytes(bytes(range(256)) * 8)
    (site / "plain.html").write_text("just words, no markup at all", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out)]) == 3
    report = json.loads((out / "report.json").read_text())
    assert [(s["path"], s["reason"]) for s in report["skipped"]] == [
        ("empty.html", "empty page"),
        ("junk.html", "binary data, not HTML"),
        ("plain.html", "not HTML (no markup)"),
    ]
    assert report["counts"]["articles"] == 1 and report["counts"]["queries"] == 2
    assert "skipped pages: 3" in capsys.readouterr().err


def test_missing_path_and_bad_config_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["build", str(tmp_path / "nope"), "--out", str(out)]) == 2
    assert capsys.readouterr().err.startswith("error: input path not found")
    site = write_site(tmp_path / "site", ["a.html"])
    bad = tmp_path / "bad.toml"
    bad.write_text("[build]\nfuzzy_threshold = 'high'\n")
    assert main(["build", str(site), "--out", str(out), "--config", str(bad)]) == 2
    assert "build.fuzzy_threshold" in capsys.readouterr().err
    bad.write_text("[build\n")
    assert main(["build", str(site), "--out", str(out), "--config", str(bad)]) == 2
    assert not out.exists()


def test_config_overrides_defaults(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", ["a.html"])
    config = tmp_path / "site.toml"
    config.write_text(
        "[build]\nexcluded_headings = []\nfuzzy_threshold = 0.99\n[audit]\nsize = 0\n"
    )
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-c", str(config), "-q"]) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["counts"]["excluded_sections"] == 0
    # "Using it" no longer fuzzy-matches at 0.99, and its cells ("How to use a?",
    # "Carefully") hold no answer content could place in its weak candidate: rejected
    golden = [json.loads(line) for line in (out / "golden.jsonl").read_text().splitlines()]
    assert [(g["match"], g["relevant"]) for g in golden] == [("exact", {"a.html#0": 2})]
    assert [r["reference"] for r in report["rejected"]] == ["Using it"]
    assert report["manifest"]["config"]["build"]["fuzzy_threshold"] == 0.99


def test_interrupted_write_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from qrelsmith.store import files

    site = write_site(tmp_path / "site", ["a.html"])
    out = tmp_path / "out"
    real_line = files.json_line
    calls = {"n": 0}

    def failing(record: BaseModel) -> bytes:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real_line(record)

    monkeypatch.setattr(files, "json_line", failing)
    assert main(["build", str(site), "--out", str(out), "-q"]) == 130
    assert not (out / "corpus.jsonl").exists()
    assert not list(out.glob("*.tmp")) and not list(out.glob(".*.tmp"))


def test_a_build_inside_the_crawl_is_not_read_back(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", ["a.html", ".git/x.html"])
    assert main(["build", str(site), "--out", str(site / "out"), "-q"]) == 0
    assert (site / "out" / "audit" / "audit.html").is_file()
    before = (site / "out" / "golden.jsonl").read_bytes()
    assert main(["build", str(site), "--out", str(site / "out"), "-q"]) == 0
    report = json.loads((site / "out" / "report.json").read_text())
    assert report["counts"]["articles"] == 1  # neither out/audit/audit.html nor .git/x.html
    assert (site / "out" / "golden.jsonl").read_bytes() == before


class DiskFull:
    """A text handle that takes ``budget`` characters, then fails as a full disk does."""

    def __init__(self, handle: object, budget: list[int]) -> None:
        self.handle, self.budget = handle, budget

    def write(self, text: str) -> int:
        import errno

        self.budget[0] -= len(text)
        if self.budget[0] < 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.handle.write(text)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self.handle, name)

    def __enter__(self) -> DiskFull:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("budget", [0, 3000])
def test_a_full_disk_leaves_the_last_build_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], budget: int
) -> None:
    # 0: the first header that is not empty fails (the files opened before it must not be
    # renamed into place); 3000: a write in the middle of corpus.jsonl fails.
    import os

    from qrelsmith.store import files

    site = write_site(tmp_path / "site", ["a.html", "b.html"])
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q", "-j", "1"]) == 0
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (site / "c.html").write_text(GOOD.format(title="c"), encoding="utf-8")
    real = os.fdopen
    left = [budget]
    monkeypatch.setattr(files.os, "fdopen", lambda *a, **k: DiskFull(real(*a, **k), left))
    assert main(["build", str(site), "--out", str(out), "-q", "-j", "1"]) == 1
    monkeypatch.undo()
    assert "No space left on device" in capsys.readouterr().err
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before  # no new file, no half-written one, no temporary left over


def test_report_counts_link_only_sections_apart(tmp_path: Path) -> None:
    from test_sections import LINKS_EN

    site = tmp_path / "site"
    site.mkdir()
    (site / "logging.html").write_text(LINKS_EN, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q"]) == 1  # no query, outputs written
    counts = json.loads((out / "report.json").read_text())["counts"]
    # "See also" by its heading, "Where to go from here" by its link density
    assert (counts["excluded_sections"], counts["excluded_by_links"]) == (2, 1)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("kind", ["empty folder", "text named .warc.gz", "only broken pages"])
def test_a_build_with_no_article_is_an_error_and_keeps_the_last_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    site = write_site(tmp_path / "site", ["a.html"])
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q"]) == 0
    before = snapshot(out)
    if kind == "empty folder":
        bad = tmp_path / "empty"
        bad.mkdir()
    elif kind == "text named .warc.gz":
        bad = tmp_path / "crawl.warc.gz"
        bad.write_text("hello, not a crawl\n")
    else:
        bad = tmp_path / "broken"
        bad.mkdir()
        (bad / "empty.html").write_bytes(b"")
    capsys.readouterr()
    assert main(["build", str(bad), "--out", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: no article built from") and err.count("\n") == 1, err
    assert snapshot(out) == before


def test_several_folders_give_ids_under_their_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = write_site(tmp_path / "docs", ["index.html"])
    two = write_site(tmp_path / "blog", ["index.html"])
    out = tmp_path / "out"
    assert main(["build", str(one), str(two), "--out", str(out), "-q"]) == 0
    golden = [json.loads(line) for line in (out / "golden.jsonl").read_text().splitlines()]
    assert [g["qid"] for g in golden] == [
        "blog/index.html#q0",
        "blog/index.html#q1",
        "docs/index.html#q0",
        "docs/index.html#q1",
    ]
    assert golden[0]["origin"]["path"] == "blog/index.html"
    # one folder alone keeps the ids it always had
    assert main(["build", str(one), "--out", str(out), "-q"]) == 0
    assert "index.html#q0" in (out / "golden.jsonl").read_text()
    # two inputs of one name cannot be told apart: refused before anything is read
    (tmp_path / "elsewhere").mkdir()
    same = write_site(tmp_path / "elsewhere" / "docs", ["a.html"])
    capsys.readouterr()
    assert main(["build", str(one), str(same), "--out", str(tmp_path / "o2"), "-q"]) == 2
    assert "both named 'docs'" in capsys.readouterr().err
    assert not (tmp_path / "o2").exists()


def test_a_duplicate_url_names_the_input_whose_page_is_kept(tmp_path: Path) -> None:
    html = GOOD.format(title="x")
    for name in ("first.jsonl", "second.jsonl"):
        (tmp_path / name).write_text(
            json.dumps({"url": "https://e.com/x", "html": html + name}) + "\n"
        )
    result = build([tmp_path / "first.jsonl", tmp_path / "second.jsonl"])
    [skipped] = result.report.skipped
    assert skipped.path == "e.com/x"
    import re

    found = re.fullmatch(
        r"duplicate article id: the page in (\S+) is left out, the one in (\S+) kept",
        skipped.reason,
    )
    assert found and set(found.groups()) == {"first.jsonl", "second.jsonl"}, skipped.reason


def test_out_must_not_be_an_input_folder_nor_hold_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = write_site(tmp_path / "site", ["a.html"])
    before = snapshot(site)
    for out in (site, tmp_path):
        assert main(["build", str(site), "--out", str(out), "-q"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: --out") and "input" in err, err
    assert snapshot(site) == before


def test_out_inside_the_crawl_must_not_hold_its_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A build replaces --out whole and later builds pass a build folder over: an --out that
    is a folder of pages would lose them from the next build on."""
    site = write_site(tmp_path / "site", ["a.html", "en/b.html"])
    before = snapshot(site)
    assert main(["build", str(site), "--out", str(site / "en"), "-q"]) == 2
    assert "holds pages of the input" in capsys.readouterr().err
    assert snapshot(site) == before
    # a folder of its own inside the crawl is fine, build after build
    out = site / "out"
    for _ in range(2):
        assert main(["build", str(site), "--out", str(out), "-q"]) == 0
        assert json.loads((out / "report.json").read_text())["counts"]["articles"] == 2


def test_a_very_long_query_is_rejected_not_kept(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", ["a.html"])
    page = (site / "a.html").read_text().replace("What is a?", "why " * 25_000)
    (site / "a.html").write_text(page, encoding="utf-8")
    report = build([site]).report
    assert report.counts.queries == 1
    [rejected] = report.rejected
    assert (rejected.row, rejected.reason) == (0, "too_long")
    assert len(rejected.query) <= 1000


def _few_yield_site(root: Path) -> Path:
    """Four pages, none with a quick-reference table, each missing it for another reason."""
    headings = "<h2>Install Python</h2><p>x</p><h2>Create a venv</h2><p>y</p><h2>Pin versions</h2>"
    near = "".join(
        f"<tr><td>q{i}</td><td>{cell}</td></tr>"
        for i, cell in enumerate(["Install Python", "-", "-", "-", "Pin versions"])
    )
    pages = {
        "a-plain.html": f"<article>{headings}<p>z</p></article>",
        "b-data.html": "<article><table><tr><th>Type</th><th>Size</th></tr>"
        f"<tr><td>rsa</td><td>3072</td></tr></table>{headings}<p>z</p></article>",
        "c-near.html": f"<article><table><caption>Parts</caption><tr><th>Thing</th><th>Part</th>"
        f"</tr>{near}</table>{headings}<p>z</p></article>",
        "d-half.html": "<article><table><tr><th>Question</th><th>Size</th></tr>"
        f"<tr><td>rsa</td><td>3072</td></tr></table>{headings}<p>z</p></article>",
    }
    site = root / "site"
    site.mkdir()
    for name, html in pages.items():
        (site / name).write_text(html, encoding="utf-8")
    return site


def test_report_says_why_articles_have_no_table_closest_first(tmp_path: Path) -> None:
    from qrelsmith import Config

    report = build([_few_yield_site(tmp_path)], Config()).report
    assert report.tables.reasons == {
        "few_headings_named": 1,
        "no_query_or_reference_header": 2,
        "no_table": 1,
    }
    closest = [(c.path, c.reason, c.caption, c.header) for c in report.tables.candidates]
    assert closest == [
        ("c-near.html", "few_headings_named", "Parts", ["Thing", "Part"]),
        ("d-half.html", "no_query_or_reference_header", None, ["Question", "Size"]),
        ("b-data.html", "no_query_or_reference_header", None, ["Type", "Size"]),
    ]  # a table naming headings, then a header naming one role, then one naming none; a table
    # the page names nothing has no caption (no default "Quick reference" made up for it)
    assert (report.tables.candidates[0].named, report.tables.candidates[0].rows) == (2, 5)


def test_the_summary_says_why_in_words_with_the_config_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = _few_yield_site(tmp_path)
    assert main(["build", str(site), "--out", str(tmp_path / "out"), "-j", "1"]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1].startswith(
        f"error: no query built from {site} (4 articles): sources tried: table: no "
        "quick-reference table (1 with a table near the top naming some headings, below the "
        "rule; 2 whose table headers name no query or reference column; 1 without any table); "
    )
    assert lines[3] == (
        "  without a table: 1 with a table near the top naming some headings, below the rule; "
        "2 whose table headers name no query or reference column; 1 without any table"
    )
    assert lines[4] == (
        '  closest table: c-near.html "Parts" [Thing | Part], 2 of 5 rows name a heading '
        '(2 sections) (report.json "tables")'
    )
    assert "[build] query_headers, reference_headers" in lines[5]
    assert "[build] heading_column_share = 0.5" in lines[5]


def test_audit_sample_and_export_refuse_a_set_without_queries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["build", str(_few_yield_site(tmp_path)), "--out", str(out), "-q"]) == 1
    assert (out / "report.json").exists()  # no query: the outputs are written, the exit says so
    assert "error: no query built from" in capsys.readouterr().err
    assert not (out / "audit").exists()  # the build draws no sample from nothing
    assert main(["audit", "sample", str(out)]) == 1
    assert capsys.readouterr().err == f"error: {out / 'golden.jsonl'}: no queries to sample\n"
    assert not (out / "audit").exists()  # no page of live buttons over nothing
    hf = ["export", "hf", str(out), "--out", str(tmp_path / "hf"), "--license", "mit"]
    assert main([*hf, "--language", "en", "--format", "jsonl"]) == 1
    assert capsys.readouterr().err == f"error: {out / 'golden.jsonl'}: no queries to export\n"
    assert not (tmp_path / "hf").exists()


def test_ascii_ids_are_percent_encoded_and_reversible(tmp_path: Path) -> None:
    from urllib.parse import unquote

    site = tmp_path / "サイト"
    (site / "ja").mkdir(parents=True)
    table = (
        "<table><tr><th>知りたいこと</th><th>答え</th><th>詳しい節</th></tr>"
        "<tr><td>ポートは</td><td>3389</td><td>ポート番号</td></tr>"
        "<tr><td>変え方</td><td>レジストリ</td><td>ポートの変更</td></tr></table>"
    )
    page = f"<article><h1>RDP</h1>{table}<h2>ポート番号</h2><p>3389</p><h2>ポートの変更</h2><p>x</p></article>"
    (site / "ja" / "設定 50%.html").write_text(page, encoding="utf-8")
    plain, ascii_ = tmp_path / "plain", tmp_path / "ascii"
    assert main(["build", str(site), "--out", str(plain), "-q"]) == 0
    assert main(["build", str(site), "--out", str(ascii_), "-q", "--ascii-ids"]) == 0
    for name in ("qrels.trec", "beir/qrels/test.tsv"):
        encoded = (ascii_ / name).read_bytes()
        encoded.decode("ascii")  # ranx and ir_measures read it under LC_ALL=C
        back = "\n".join(
            "\t".join(unquote(field) for field in line.split("\t")) if "\t" in line
            else " ".join(unquote(field) for field in line.split(" "))
            for line in encoded.decode("ascii").split("\n")
        )  # fmt: skip
        assert back == (plain / name).read_text(encoding="utf-8")
    ids = [line.split("\t")[0] for line in (ascii_ / "queries.tsv").read_text("utf-8").splitlines()]
    # "設定 50%.html": the id is ja/設定%2050%25.html (safe_id), then its %s are escaped too
    stem = "ja/%E8%A8%AD%E5%AE%9A%252050%2525.html"
    assert ids == [f"{stem}#q0", f"{stem}#q1"]
    assert main(["audit", "sample", str(ascii_), "--size", "2"]) == 0  # the id grammar holds
    # export --ascii-ids turns a plain build's ids into the same ones
    out = tmp_path / "irds"
    assert main(["export", "ir_datasets", str(plain), "--out", str(out), "--ascii-ids"]) == 0
    assert (out / "qrels.trec").read_bytes() == (ascii_ / "qrels.trec").read_bytes()
