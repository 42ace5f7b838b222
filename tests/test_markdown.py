"""Markdown docs as input: rendered to the page a site generator serves, then the one pipeline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from qrelsmith import article_queries, parse_article
from qrelsmith.cli import main
from qrelsmith.config import BuildOptions
from qrelsmith.page.markdown import Slugger, page_from_markdown, render, slugify, split_front_matter

if not os.environ.get("CI"):  # a core dependency: in CI (CI set) a missing one is a failure
    pytest.importorskip("markdown_it", reason="needs markdown-it-py: pip install -e .")

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "samples" / "markdown"


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def docs_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("md") / "out"
    assert main(["build", str(DOCS), "--out", str(out), "-q", "-j", "1"]) == 0
    return out


# --------------------------------------------------------------------------- slugs and ids


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        ("Install with pip", "install-with-pip"),
        ("What's new in 2.0?", "whats-new-in-20"),
        ("Logging & debugging", "logging--debugging"),  # GitHub keeps both spaces' dashes
        ("C++ / Rust", "c--rust"),
        ("snake_case_name", "snake_case_name"),
        ("Émile Zola", "émile-zola"),
        ("ポート番号3389（TCPとUDP）", "ポート番号3389tcpとudp"),
        ("설정 방법", "설정-방법"),
    ],
)
def test_slugs_are_githubs(heading: str, slug: str) -> None:
    assert slugify(heading) == slug


def test_repeated_headings_get_numbered_slugs() -> None:
    slugger = Slugger()
    assert [slugger.unique(t) for t in ("Example", "Example", "Example", "Example 1")] == [
        "example",
        "example-1",
        "example-2",
        "example-1-1",
    ]


def test_heading_ids_custom_ids_and_inline_markup() -> None:
    page = render(
        "## Example\n\n## Example\n\n## Configuration file {#config}\n\n"
        "## Set up `pip` *now* {: #setup .wide }\n\n## Example\n"
    )
    assert '<h2 id="example">Example</h2>' in page
    assert '<h2 id="example-1">Example</h2>' in page
    assert '<h2 id="config">Configuration file</h2>' in page  # the {#id} leaves the text
    assert '<h2 id="setup">Set up <code>pip</code> <em>now</em></h2>' in page
    assert '<h2 id="example-2">Example</h2>' in page


def test_front_matter_yaml_and_toml_give_the_title_and_never_a_heading() -> None:
    assert split_front_matter('---\ntitle: "A \\"quoted\\" title" # c\ntags: [a]\n---\nBody') == (
        'A "quoted" title',
        "Body",
    )
    assert split_front_matter("+++\ntitle = 'Hugo page'\n+++\nBody") == ("Hugo page", "Body")
    assert split_front_matter("No front matter\n---\n") == (None, "No front matter\n---\n")
    article = parse_article(render("---\ntitle: The title\n---\n# Heading one\n\n## A\n\ntext\n"))
    assert article.title == "The title"  # the front matter wins over the first H1
    assert [s.heading for s in article.sections] == ["A"]
    assert parse_article(render("# Only an H1\n\n## A\n\ntext\n")).title == "Only an H1"


def test_undecodable_and_empty_markdown_are_data_errors() -> None:
    from qrelsmith.errors import DataError

    with pytest.raises(DataError):
        page_from_markdown(b"  \n")
    assert (
        '<h2 id="caf\u00e9">' in page_from_markdown("## Café\n".encode("cp1252"), "cp1252").decode()
    )


# --------------------------------------------------------------------------- the build


def test_ids_are_paths_with_md_kept(docs_build: Path) -> None:
    articles = {record["article_id"] for record in _lines(docs_build / "corpus.jsonl")}
    assert articles == {"guide/setup.md", "index.md", "ja/port.md"}
    qids = [query["qid"] for query in _lines(docs_build / "golden.jsonl")]
    assert qids[:2] == ["guide/setup.md#q0", "guide/setup.md#q1"]


def test_in_page_links_resolve_to_the_headings_they_name(docs_build: Path) -> None:
    golden = {q["qid"]: q for q in _lines(docs_build / "golden.jsonl")}
    sections = {r["id"]: r["heading"] for r in _lines(docs_build / "corpus.jsonl")}

    def target(qid: str) -> tuple[str, str]:
        query = golden[qid]
        (section,) = query["relevant"]
        return sections[section], query["match"]

    assert target("guide/setup.md#q0") == ("Install with pip", "anchor")
    assert target("guide/setup.md#q1") == ("Configuration file", "anchor")  # {#config}
    assert target("guide/setup.md#q2") == ("Logging & debugging", "anchor")  # "--" slug
    # "#example-1" is the second "Example" H3, which lies in "Configuration file".
    assert target("guide/setup.md#q3") == ("Configuration file", "anchor")
    assert target("guide/setup.md#q4") == ("Check the installation", "exact")
    # A percent-encoded link to a Japanese slug, as markdown-it writes it.
    assert target("ja/port.md#q0") == ("ポート番号3389（TCPとUDP）", "anchor")


def test_a_code_block_holds_neither_a_table_nor_a_heading(docs_build: Path) -> None:
    golden = _lines(docs_build / "golden.jsonl")
    assert all("Fake row" not in q["query"] for q in golden)
    assert len([q for q in golden if q["qid"].startswith("guide/")]) == 5
    corpus = _lines(docs_build / "corpus.jsonl")
    assert all("A heading inside a code block" not in r["heading"] for r in corpus)
    install = next(r for r in corpus if r["heading"] == "Install with pip")
    assert "Fake row" not in install["text"] and "A heading inside" not in install["text"]
    assert install["text"].startswith("Run pip install doccli in a virtual environment.")


def test_front_matter_title_excluded_sections_and_report(docs_build: Path) -> None:
    corpus = _lines(docs_build / "corpus.jsonl")
    titles = {r["article_id"]: r["title"] for r in corpus}
    assert titles == {
        "guide/setup.md": "Setting up the CLI",
        "index.md": "doccli documentation",
        "ja/port.md": "RDPのポート番号",
    }
    headings = {r["heading"] for r in corpus}
    assert not headings & {"FAQ", "まとめ", "Quick reference", "早見表"}
    report = json.loads((docs_build / "report.json").read_text(encoding="utf-8"))
    assert report["counts"]["queries"] == 7 and report["counts"]["rejected"] == 0
    assert report["counts"]["by_match"]["anchor"] == 5


def test_the_build_is_the_html_pipeline_on_the_rendered_page(docs_build: Path) -> None:
    source = (DOCS / "guide" / "setup.md").read_bytes()
    article = parse_article(page_from_markdown(source), "guide/setup.md")
    corpus = [r for r in _lines(docs_build / "corpus.jsonl") if r["article_id"] == "guide/setup.md"]
    assert [(s.id, s.heading, s.text) for s in article.sections] == [
        (r["id"], r["heading"], r["text"]) for r in corpus
    ]


def test_a_markdown_build_is_byte_identical_on_rerun(docs_build: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert main(["build", str(DOCS), "--out", str(again), "-q", "-j", "2"]) == 0
    for name in ("corpus.jsonl", "golden.jsonl", "qrels.trec", "report.json"):
        assert (again / name).read_bytes() == (docs_build / name).read_bytes(), name


def test_a_single_markdown_file_is_read(tmp_path: Path) -> None:
    out = tmp_path / "one"
    assert main(["build", str(DOCS / "ja" / "port.md"), "--out", str(out), "-q"]) == 0
    assert {q["qid"] for q in _lines(out / "golden.jsonl")} == {"port.md#q0", "port.md#q1"}


def test_beside_html_pages_markdown_files_are_notes_not_pages(tmp_path: Path) -> None:
    """An HTML crawl with a README.md (samples/site has CASES.md) builds as before."""
    mixed = tmp_path / "mixed"
    (mixed / "guide").mkdir(parents=True)
    (mixed / "README.md").write_text("# Notes on this crawl\n\n## How it was made\n\nwget\n")
    (mixed / "guide" / "setup.html").write_text(
        "<html><body><h1>T</h1><h2>A</h2><p>x</p></body></html>", encoding="utf-8"
    )
    out = tmp_path / "mixed-out"
    assert main(["build", str(mixed), "--out", str(out), "-q"]) == 1  # no query: outputs written
    assert {r["article_id"] for r in _lines(out / "corpus.jsonl")} == {"guide/setup.html"}
    report = json.loads((out / "report.json").read_text())
    assert report["passed_over"] == [{"path": "mixed", "kind": "Markdown", "files": 1}]


def test_a_docs_tree_with_a_template_is_read_as_markdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """MkDocs keeps theme overrides (overrides/main.html) beside the docs: the tree holds more
    Markdown pages, so it is read as Markdown and the template is passed over, saying so."""
    docs = tmp_path / "docs"
    for source in DOCS.rglob("*.md"):
        target = docs / source.relative_to(DOCS)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source.read_bytes())
    (docs / "overrides").mkdir()
    (docs / "overrides" / "main.html").write_text('{% extends "base.html" %}\n')
    out = tmp_path / "docs-out"
    assert main(["build", str(docs), "--out", str(out)]) == 0
    assert "passed over in docs: 1 HTML file (the tree holds more Markdown pages" in (
        capsys.readouterr().err
    )
    golden = {q["qid"] for q in _lines(out / "golden.jsonl")}
    plain = tmp_path / "plain-out"
    assert main(["build", str(DOCS), "--out", str(plain), "-q"]) == 0
    assert golden == {q["qid"] for q in _lines(plain / "golden.jsonl")} != set()
    report = json.loads((out / "report.json").read_text())
    assert report["passed_over"] == [{"path": "docs", "kind": "HTML", "files": 1}]


def test_an_html_build_does_not_import_markdown_it(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from qrelsmith.cli import main\n"
        f"assert main(['build', {str(ROOT / 'samples' / 'site')!r}, '--out', "
        f"{str(tmp_path / 'o')!r}, '-q', '-j', '1']) == 0\n"
        "print('markdown_it' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert done.stdout.strip() == "False"


def test_a_faq_written_as_a_list_keeps_its_indented_answers_as_text() -> None:
    """``- **Q…?**`` then an answer indented four spaces is the list item's second paragraph
    (CommonMark's list continuation: the item's content starts two columns in), not code; an
    indented code block (four columns past the item's content, or after a paragraph outside a
    list) stays code."""
    fixture = Path(__file__).parent / "fixtures" / "faq" / "faq-list.md"
    page = page_from_markdown(fixture.read_bytes())
    html = page.decode("utf-8")
    assert html.count("<pre><code>ss -ltnp | grep 8080\n</code></pre>") == 2
    assert "<p>No: run the installer without administrator rights;" in html
    options = BuildOptions(sources=["table", "faq"])
    article = parse_article(page, "faq-list.md", options)
    assert "ss -ltnp" not in article.sections[1].text
    assert [(c.query, c.answer) for c in article.candidates[:2]] == [
        (
            "Which port does Lantern listen on?",
            "Lantern listens on port 8080 by default; change it with the port flag or the "
            "LANTERN_PORT variable.",
        ),
        (
            "Do I need administrator rights to install?",
            "No: run the installer without administrator rights; it installs into your home "
            "folder.",
        ),
    ]
    assert article.candidates[2].answer.startswith("List the listening sockets")
    queries, _ = article_queries(article, options)
    assert [(q.query, dict(q.relevant)) for q in queries] == [
        ("Which port does Lantern listen on?", {"faq-list.md#1": 2}),
        ("Do I need administrator rights to install?", {"faq-list.md#0": 2}),
    ]
