"""Small real pages of each site generator (tests/fixtures/generators/README.md says how each
was made), built with both query sources: golden files, and what each page must give.

Golden files are refreshed only on purpose:
    QRELSMITH_UPDATE_GOLDEN=1 python -m pytest tests/test_generators.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from qrelsmith.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "generators"
GOLDEN = Path(__file__).parent / "golden" / "generators"
GENERATORS = [
    "mkdocs",
    "material",
    "sphinx",
    "docusaurus",
    "hugo",
    "mslearn",
    "markup",
    "wordpress",
    "readme",
]
OUTPUTS = ["corpus.jsonl", "golden.jsonl", "qrels.trec"]


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for generator in GENERATORS:
        folder = tmp_path_factory.mktemp(generator)
        code = main(
            ["build", str(FIXTURES / generator), "--out", str(folder), "-q", "-j", "1"]
            + ["--sources", "table,faq"]
        )
        assert code == 0
        out[generator] = folder
    return out


@pytest.mark.parametrize("generator", GENERATORS)
@pytest.mark.parametrize("name", OUTPUTS)
def test_output_equals_golden_file(builds: dict[str, Path], generator: str, name: str) -> None:
    produced = (builds[generator] / name).read_bytes()
    expected = GOLDEN / generator / name
    if os.environ.get("QRELSMITH_UPDATE_GOLDEN"):
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_bytes(produced)
    assert produced == expected.read_bytes(), f"tests/golden/generators/{generator}/{name}"


def _lines(folder: Path, name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (folder / name).read_text("utf-8").splitlines()]


@pytest.mark.parametrize("generator", ["mkdocs", "material", "sphinx", "mslearn", "hugo"])
def test_the_page_chrome_stays_out_of_the_corpus(builds: dict[str, Path], generator: str) -> None:
    text = " ".join(str(r["text"]) for r in _lines(builds[generator], "corpus.jsonl"))
    for chrome in ("Keyboard Shortcuts", "Search", "Skip to", "Copyright", "Last modified"):
        assert chrome not in text, f"{generator}: {chrome!r} in the corpus"


@pytest.mark.parametrize("generator", GENERATORS)
def test_no_query_is_written_in_a_document_of_its_article(
    builds: dict[str, Path], generator: str
) -> None:
    corpus = _lines(builds[generator], "corpus.jsonl")
    for query in _lines(builds[generator], "golden.jsonl"):
        article = str(query["qid"]).partition("#")[0]
        texts = [str(r["text"]) for r in corpus if r["article_id"] == article]
        assert not any(str(query["query"]) in text for text in texts), query["qid"]


def test_faq_page_answers_are_documents_of_their_own(builds: dict[str, Path]) -> None:
    queries = {q["qid"]: q for q in _lines(builds["mkdocs"], "golden.jsonl")}
    asked = queries["faq.html#faq-q1"]
    assert asked["query"] == "Which platforms does rsnap run on?"
    assert asked["relevant"] == {"faq.html#faq-a1": 2} and asked["match"] == "faq-page"
    corpus = {r["id"]: r for r in _lines(builds["mkdocs"], "corpus.jsonl")}
    assert str(corpus["faq.html#faq-a1"]["text"]).startswith("Linux and macOS.")
    assert corpus["faq.html#faq-a1"]["heading"] == ""


@pytest.mark.parametrize(
    ("generator", "qid", "section"),
    [
        ("mkdocs", "index.html#faq-q0", "index.html#1"),  # keeps snapshots: Scheduling
        ("mkdocs", "index.html#faq-q1", "index.html#0"),  # administrator rights: Installing
        ("sphinx", "index.html#faq-q0", "index.html#1"),
        ("docusaurus", "troubleshooting.html#faq-q0", "troubleshooting.html#0"),
        ("hugo", "configuration.html#faq-q0", "configuration.html#0"),
        ("hugo", "configuration.html#faq-q1", "configuration.html#2"),
    ],
)
def test_in_article_pairs_are_labelled_to_the_body_section_holding_the_answer(
    builds: dict[str, Path], generator: str, qid: str, section: str
) -> None:
    query = {q["qid"]: q for q in _lines(builds[generator], "golden.jsonl")}[qid]
    assert query["relevant"] == {section: 2} and query["match"] == "faq-body"


def test_an_answer_that_names_nothing_gives_no_query(builds: dict[str, Path]) -> None:
    report = json.loads((builds["mkdocs"] / "report.json").read_text("utf-8"))
    left = [r for r in report["rejected"] if r["path"] == "index.html"]
    assert [(r["query"], r["reason"]) for r in left] == [
        ("Can rsnap back up to the cloud?", "answer_not_in_section")
    ]


def test_details_answers_leave_their_summary_out(builds: dict[str, Path]) -> None:
    query = _lines(builds["docusaurus"], "golden.jsonl")[0]
    assert query["query"] == "Why is my station shown as offline?"
    assert str(query["answer"]).startswith("The station did not answer")


@pytest.mark.parametrize(
    ("generator", "qid", "question", "section"),
    [
        ("wordpress", "rsnap-backup.html#faq-q0", "スナップショットは何世代残りますか？", "#1"),
        ("wordpress", "rsnap-backup.html#faq-q2", "消したファイルはどう戻しますか？", "#2"),
        ("wordpress", "troubleshooting.html#faq-q0", 'Lantern stops with "address in use"', "#1"),
        ("wordpress", "troubleshooting.html#faq-q2", "Two settings files", "#0"),
        ("readme", "README.md#faq-q0", "Does the installer need administrator rights?", "#0"),
        ("readme", "README.md#faq-q1", "How many snapshots does rsnap keep?", "#1"),
        ("readme", "README.md#faq-q2", "How do I get a deleted file back?", "#2"),
    ],
)
def test_bold_paragraph_questions_are_read_and_labelled(
    builds: dict[str, Path], generator: str, qid: str, question: str, section: str
) -> None:
    query = {q["qid"]: q for q in _lines(builds[generator], "golden.jsonl")}[qid]
    assert query["query"] == question and query["match"] == "faq-body"
    assert query["relevant"] == {qid.partition("#")[0] + section: 2}


@pytest.mark.parametrize(
    ("generator", "qid", "answer"),
    [
        (
            "wordpress",
            "rsnap-backup.html#faq-q2",
            "バックアップ用ディスクをマウントして、スナップショットのフォルダーからコピーして戻します。",
        ),
        (
            "wordpress",
            "troubleshooting.html#faq-q2",
            "The first file found wins: the one in the working folder. The two are never merged.",
        ),
        (
            "readme",
            "README.md#faq-q2",
            "Mount the backup disk, then copy the file back from the snapshot folder.",
        ),
    ],
)
def test_the_last_answer_ends_before_the_page_chrome(
    builds: dict[str, Path], generator: str, qid: str, answer: str
) -> None:
    # share text and buttons, "Was this helpful?", tags, related posts, a README's footer
    query = {q["qid"]: q for q in _lines(builds[generator], "golden.jsonl")}[qid]
    assert query["answer"] == answer


def test_a_markdown_faq_page_of_bold_questions_makes_answer_documents(
    builds: dict[str, Path],
) -> None:
    queries = {q["qid"]: q for q in _lines(builds["readme"], "golden.jsonl")}
    assert [q for q in queries if q.startswith("FAQ.md")] == [f"FAQ.md#faq-q{n}" for n in range(3)]
    assert queries["FAQ.md#faq-q1"]["relevant"] == {"FAQ.md#faq-a1": 2}
    corpus = {r["id"]: r for r in _lines(builds["readme"], "corpus.jsonl")}
    assert corpus["FAQ.md#faq-a1"]["text"] == "Not yet: it writes to a disk mounted on the machine."
