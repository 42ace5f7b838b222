"""The FAQ query source (sources/faq.py): its forms, its labels and what it skips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qrelsmith import article_queries, parse_article
from qrelsmith.cli import main
from qrelsmith.config import BuildOptions
from qrelsmith.models import Article
from qrelsmith.patterns import LINK_CLOSE, LINK_OPEN
from qrelsmith.sources.faq import (
    FAQ_JSONLD_MAX_CHARS,
    FAQ_JSONLD_MAX_DEPTH,
    points_elsewhere,
    question_key,
)

FAQ = BuildOptions(sources=["table", "faq"])

BODY = """<h2>Installing</h2><p>Run the installer; it needs no administrator rights and writes
nothing outside your home folder.</p>
<h2>Snapshots</h2><p>rsnap keeps seven daily snapshots and four weekly ones and removes older
snapshots after each run.</p>
<h2>Restoring</h2><p>Mount the backup disk and copy the file back from the snapshot folder.</p>"""


def _page(faq: str, head: str = "", title: str = "rsnap") -> str:
    return (
        f"<html><head><title>{title}</title>{head}</head><body><article><h1>{title}</h1>"
        f"{BODY}{faq}</article></body></html>"
    )


def _build(page: str, options: BuildOptions = FAQ) -> tuple[Article, list, list]:
    article = parse_article(page, "p.html", options)
    queries, rejected = article_queries(article, options)
    return article, queries, rejected


def _asked(queries: list) -> list[tuple[str, dict[str, int]]]:
    return [(q.query, dict(q.relevant)) for q in queries]


FORMS = {
    "headings": "<h2>FAQ</h2><h3>How many snapshots does rsnap keep?</h3><p>Seven daily "
    "snapshots and four weekly ones.</p>",
    "q-paragraphs": "<h2>FAQ</h2><p>Q. How many snapshots does rsnap keep?</p><p>A. Seven "
    "daily snapshots and four weekly ones.</p>",
    "q-colon": "<h2>よくある質問</h2><p>Q：How many snapshots does rsnap keep?</p><p>Seven "
    "daily snapshots and four weekly ones.</p>",
    "details": "<h2>Frequently asked questions</h2><details><summary>How many snapshots does "
    "rsnap keep?</summary><p>Seven daily snapshots and four weekly ones.</p></details>",
    "dl": "<h2>FAQ</h2><dl><dt>How many snapshots does rsnap keep?</dt><dd>Seven daily "
    "snapshots and four weekly ones.</dd></dl>",
    "pregunta": "<h2>Preguntas frecuentes</h2><p>Pregunta: How many snapshots does rsnap "
    "keep?</p><p>Respuesta: Seven daily snapshots and four weekly ones.</p>",
    "bold": "<h2>FAQ</h2><p><strong>How many snapshots does rsnap keep?</strong></p><p>Seven "
    "daily snapshots and four weekly ones.</p>",
    "bold-lead": "<h2>FAQ</h2><p><strong>How many snapshots does rsnap keep?</strong>\nSeven "
    "daily snapshots and four weekly ones.</p>",
    "bold-q": "<h2>FAQ</h2><p><b>Q:</b> How many snapshots does rsnap keep?</p><p><b>A:</b> "
    "Seven daily snapshots and four weekly ones.</p>",
    "a-fullwidth": "<h2>よくある質問</h2><p>Q　How many snapshots does rsnap keep?</p><p>A　Seven "
    "daily snapshots and four weekly ones.</p>",
    "kotae": "<h2>よくある質問</h2><p>Q：How many snapshots does rsnap keep?</p><p>答：Seven "
    "daily snapshots and four weekly ones.</p>",
    "korean": "<h2>자주 묻는 질문</h2><p>질문: How many snapshots does rsnap keep?</p><p>답: Seven "
    "daily snapshots and four weekly ones.</p>",
    "a-inline": "<h2>FAQ</h2><p>Q. How many snapshots does rsnap keep?<br>A　Seven daily "
    "snapshots and four weekly ones.</p>",
    "faqs": "<h2>FAQs</h2><h3>How many snapshots does rsnap keep?</h3><p>Seven daily "
    "snapshots and four weekly ones.</p>",
}


@pytest.mark.parametrize("form", FORMS)
def test_each_in_article_form_gives_the_question_labelled_to_its_body_section(form: str) -> None:
    article, queries, rejected = _build(_page(FORMS[form]))
    assert _asked(queries) == [("How many snapshots does rsnap keep?", {"p.html#1": 2})]
    query = queries[0]
    assert query.qid == "p.html#faq-q0" and query.kind == "faq" and query.match == "faq-body"
    assert query.answer == "Seven daily snapshots and four weekly ones."
    assert 0 < query.confidence <= 0.75 and not rejected
    assert [e.heading for e in article.excluded] == [article.excluded[0].heading]  # kept out


def test_the_table_source_alone_reads_no_faq() -> None:
    article, queries, rejected = _build(_page(FORMS["headings"]), BuildOptions())
    assert queries == [] and rejected == [] and article.candidates == []


def test_question_marks_are_read_only_in_faq_sections() -> None:
    notes = "<h2>Notes</h2><p>Q. Where are snapshots kept?</p><p>On the backup disk.</p>"
    article, _, _ = _build(_page(notes))
    assert article.candidates == []  # no FAQ section at all
    article, _, _ = _build(_page(notes + FORMS["headings"]))
    assert [c.query for c in article.candidates] == ["How many snapshots does rsnap keep?"]


def test_an_answer_that_names_no_section_is_no_query() -> None:
    faq = "<h2>FAQ</h2><h3>Can rsnap back up to the cloud?</h3><p>Not yet.</p>"
    _, queries, rejected = _build(_page(faq))
    assert queries == [] and [r.reason for r in rejected] == ["no_confident_section"]


def test_a_question_twice_and_a_question_without_answer_are_skipped_with_reasons() -> None:
    faq = (
        "<h2>FAQ</h2><p>Q. How many snapshots does rsnap keep?</p><p>Seven daily snapshots "
        "and four weekly ones.</p><p>Q. How many snapshots does rsnap keep?</p><p>Seven.</p>"
        "<p>Q. Is there a mobile app?</p>"
    )
    _, queries, rejected = _build(_page(faq))
    assert len(queries) == 1
    assert [(r.row, r.reason, r.kind) for r in rejected] == [
        (1, "duplicate_question", "faq"),
        (2, "no_answer", "faq"),
    ]


def _ld(data: object) -> str:
    """A JSON-LD block as sites write it: "</" escaped, so that a script in an answer does
    not end the block."""
    text = json.dumps(data).replace("</", "<\\/")
    return f'<script type="application/ld+json">{text}</script>'


def _faq_page(*questions: tuple[str, str]) -> dict[str, object]:
    return {
        "@type": "FAQPage",
        "mainEntity": [
            {"@type": "Question", "name": q, "acceptedAnswer": {"@type": "Answer", "text": a}}
            for q, a in questions
        ],
    }


def test_json_ld_in_a_graph_makes_answer_documents_without_the_question() -> None:
    data = {
        "@graph": [
            {"@type": "Organization"},
            _faq_page(
                ("How do I descale it?", "Boil <b>vinegar</b> and water.<script>x()</script>")
            ),
        ]
    }
    visible = "<h2>Questions</h2><h3>How do I descale it?</h3><p>Boil vinegar and water.</p>"
    article, queries, _ = _build(_page(visible, _ld(data)))
    assert _asked(queries) == [("How do I descale it?", {"p.html#faq-a0": 2})]
    documents = {s.id: s for s in article.sections}
    assert documents["p.html#faq-a0"].text == "Boil vinegar and water."
    assert queries[0].match == "faq-page" and queries[0].confidence == 1.0
    assert not any("descale it" in s.text or "descale it" in s.heading for s in article.sections)


def test_microdata_questions_become_answer_documents() -> None:
    faq = (
        '<div itemscope itemtype="https://schema.org/FAQPage"><div itemscope itemprop='
        '"mainEntity" itemtype="https://schema.org/Question"><div itemprop="name">¿Cuánto '
        'cuesta el envío?</div><div itemscope itemprop="acceptedAnswer" itemtype="https://'
        'schema.org/Answer"><p itemprop="text">Gratis desde 40 euros.</p></div></div></div>'
    )
    article, queries, _ = _build(_page(faq))
    assert _asked(queries) == [("¿Cuánto cuesta el envío?", {"p.html#faq-a0": 2})]
    assert not any("Cuánto" in s.text for s in article.sections)


@pytest.mark.parametrize(
    ("block", "reason"),
    [
        ('{"@type": "FAQPage", "mainEntity": [', "json-ld unreadable"),
        ("[" * (FAQ_JSONLD_MAX_DEPTH + 1) + "]" * (FAQ_JSONLD_MAX_DEPTH + 1), "json-ld too deep"),
        ("[" * 100_000 + "]" * 100_000, "json-ld too deep"),
        ('{"x": "' + "a" * FAQ_JSONLD_MAX_CHARS + '"}', "json-ld too large"),
    ],
)
def test_bad_json_ld_is_left_out_with_a_reason_and_nothing_else_is_lost(
    block: str, reason: str
) -> None:
    good = _ld(_faq_page(("How do I descale it?", "Boil vinegar and water.")))
    head = f'<script type="application/ld+json">{block}</script>{good}'
    article, queries, _ = _build(_page(FORMS["headings"], head))
    assert [note.reason for note in article.notes] == [reason]
    assert [q.query for q in queries] == [
        "How do I descale it?",
        "How many snapshots does rsnap keep?",
    ]
    assert [s.heading for s in article.sections[:3]] == ["Installing", "Snapshots", "Restoring"]


def test_a_faq_page_makes_each_answer_a_document() -> None:
    page = (
        "<html><head><title>Programming FAQ</title></head><body><main><h1>Programming FAQ</h1>"
        "<h2>General</h2><h3>Is there a debugger?</h3><p>Yes, pdb.</p>"
        "<h3>How do I run a script?</h3><p>Type python and the script's name.</p>"
        "<h2>Contents</h2><p>Not a question.</p></main></body></html>"
    )
    article, queries, _ = _build(page)
    assert _asked(queries) == [
        ("Is there a debugger?", {"p.html#faq-a0": 2}),
        ("How do I run a script?", {"p.html#faq-a1": 2}),
    ]
    assert [(s.id, s.heading, s.text) for s in article.sections] == [
        ("p.html#1", "Contents", "Not a question."),
        ("p.html#faq-a0", "", "Yes, pdb."),
        ("p.html#faq-a1", "", "Type python and the script's name."),
    ]
    assert [s.index for s in article.sections] == [1, 2, 3]


@pytest.mark.parametrize("title", ["rsnap FAQ", "rsnap FAQs"])
def test_a_page_titled_faq_or_faqs_is_a_faq_page(title: str) -> None:
    page = (
        f"<html><head><title>{title}</title></head><body><main><h1>{title}</h1>"
        "<h2>Is there a debugger?</h2><p>Yes, pdb.</p></main></body></html>"
    )
    _, queries, _ = _build(page)
    assert _asked(queries) == [("Is there a debugger?", {"p.html#faq-a0": 2})]


def test_a_question_written_in_a_document_of_its_article_is_no_query() -> None:
    faq = "<h2>FAQ</h2><h3>Installing</h3><p>Run the installer; no administrator rights.</p>"
    _, queries, rejected = _build(_page(faq))
    assert queries == [] and [r.reason for r in rejected] == ["question_in_document"]


def test_question_keys_fold_case_punctuation_and_markers() -> None:
    assert question_key("Q. How do I X?") == question_key("how do i x") == "howdoix"


def _site(tmp_path: Path, pages: dict[str, str]) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    for name, text in pages.items():
        (site / name).write_text(text, encoding="utf-8")
    return site


def test_a_question_asked_on_two_pages_is_kept_once(tmp_path: Path) -> None:
    site = _site(tmp_path, {"a.html": _page(FORMS["headings"]), "b.html": _page(FORMS["dl"])})
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q", "--sources", "table,faq"]) == 0
    golden = [json.loads(line) for line in (out / "golden.jsonl").read_text("utf-8").splitlines()]
    assert [q["qid"] for q in golden] == ["a.html#faq-q0"]
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert [(r["path"], r["reason"], r["candidates"]) for r in report["rejected"]] == [
        ("b.html", "near_duplicate", ["a.html#faq-q0"])
    ]
    assert report["sources"]["faq"] == {
        "articles": 2,
        "candidates": 2,
        "queries": 1,
        "rejected": 1,
        "reasons": {"near_duplicate": 1},
    }
    assert report["counts"]["by_match"]["faq-body"] == 1
    assert "qrels" in str(out / "qrels.trec") and "a.html#faq-q0 0 a.html#1 2" in (
        out / "qrels.trec"
    ).read_text("utf-8")


def test_a_build_without_a_query_gives_one_answer_in_build_check_and_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = _site(tmp_path, {"a.html": _page("")})
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "--sources", "table,faq"]) == 1
    why = (
        "sources tried: table: no quick-reference table (1 without any table); faq: no FAQ "
        "question (no FAQ section, FAQ page, FAQPage JSON-LD or microdata Question)"
    )
    said = capsys.readouterr().err.splitlines()
    assert said[-1] == (
        f"error: no query built from {site} (1 article): {why}; {out} holds the corpus and "
        "report.json, and no test set"
    )
    assert (out / "corpus.jsonl").exists() and (out / "golden.jsonl").read_text() == ""
    assert main(["check", str(out)]) == 1
    assert capsys.readouterr().err == f"error: no query in {out}: {why}\n"
    assert main(["validate", str(out)]) == 1
    assert f"queries.tsv is empty: no query in {out}: {why}" in capsys.readouterr().out


def test_sources_are_checked_against_the_registry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = _site(tmp_path, {"a.html": _page(FORMS["headings"])})
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "--sources", "table,blog"]) == 2
    assert "unknown source 'blog' (sources: table, faq)" in capsys.readouterr().err
    assert not out.exists()
    assert BuildOptions(sources=["faq", "table", "faq"]).sources == ["faq", "table"]


def test_a_section_that_does_not_write_the_answer_is_no_label() -> None:
    # BM25 finds the pair's topic (snapshots), but the section holds none of the answer:
    # on the review sample such labels were wrong 12 times in 28 (docs/sources.md)
    faq = (
        "<h2>FAQ</h2><h3>How many snapshots does rsnap keep?</h3><p>Snapshots: twelve monthly "
        "archives, rotated by the archiver tool overnight.</p>"
    )
    _, queries, rejected = _build(_page(faq))
    assert queries == [] and [r.reason for r in rejected] == ["answer_not_in_section"]


def test_a_question_and_its_answer_in_one_paragraph() -> None:
    faq = (
        "<h2>FAQ</h2><p>Q: How many snapshots does rsnap keep?<br>A: Seven daily snapshots and "
        "four weekly ones.</p>"
    )
    article, queries, _ = _build(_page(faq))
    assert [(c.query, c.answer) for c in article.candidates] == [
        ("How many snapshots does rsnap keep?", "Seven daily snapshots and four weekly ones.")
    ]
    assert _asked(queries) == [("How many snapshots does rsnap keep?", {"p.html#1": 2})]


def test_source_ids_keep_their_article() -> None:
    from qrelsmith.store.layout import article_of, source_document_id, source_query_id

    assert source_query_id("a/b.html", "faq", 3) == "a/b.html#faq-q3"
    assert source_document_id("a/b.html", "faq", 0) == "a/b.html#faq-a0"
    assert article_of("a/b.html#faq-q3") == article_of("a/b.html#faq-a0") == "a/b.html"
    assert article_of("a/b.html#q3") == article_of("a/b.html#3") == "a/b.html"


def test_audit_draws_faq_queries_from_their_own_stratum(tmp_path: Path) -> None:
    site = _site(tmp_path, {"a.html": _page(FORMS["headings"])})
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q", "--sources", "table,faq"]) == 0
    sample = json.loads((out / "audit" / "sample.json").read_text("utf-8"))
    assert sample["strata"]["faq"] == {"population": 1, "sampled": 1}
    assert [row["stratum"] for row in sample["rows"]] == ["faq"]


def test_the_dataset_card_counts_queries_by_source(tmp_path: Path) -> None:
    site = _site(tmp_path, {"a.html": _page(FORMS["headings"])})
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-q", "--sources", "table,faq"]) == 0
    hf = tmp_path / "hf"
    export = ["export", "hf", str(out), "--out", str(hf), "--license", "mit"]
    assert main([*export, "--language", "en", "--format", "jsonl"]) == 0
    card = (hf / "README.md").read_text("utf-8")
    assert "Queries by source: table: 0 queries of 0 found; faq: 1 queries of 1 found." in card


def test_a_markup_question_shown_in_an_accordion_leaves_the_body() -> None:
    data = _faq_page(("How do I descale it?", "Boil vinegar and water."))
    shown = (
        '<h2>Help</h2><div class="accordion"><div><strong>How do I descale it?</strong></div>'
        "<div>Boil vinegar and water.</div></div>"
    )
    article, queries, _ = _build(_page(shown, _ld(data)))
    assert [q.qid for q in queries] == ["p.html#faq-q0"]
    assert not any("descale it" in s.text for s in article.sections)


def _answers(faq: str) -> list[tuple[str, str]]:
    article, _, _ = _build(_page(faq))
    return [(c.query, c.answer) for c in article.candidates]


SEVEN = "Seven daily snapshots and four weekly ones."


def test_answer_markers_are_left_out_but_words_that_begin_like_them_are_kept() -> None:
    asked = "<h2>よくある質問</h2><p>Q. 何世代残りますか？</p>"
    assert _answers(asked + "<p>A 日ごとに7世代です。</p>") == [
        ("何世代残りますか？", "日ごとに7世代です。")
    ]
    assert _answers(asked + "<p>答えは7世代です。</p>") == [
        ("何世代残りますか？", "答えは7世代です。")
    ]
    assert _answers(asked + "<p>回答期限はありません。</p>") == [
        ("何世代残りますか？", "回答期限はありません。")
    ]
    english = "<h2>FAQ</h2><p>Q. How many snapshots does rsnap keep?</p>"
    assert _answers(english + "<p>A daily one, kept a week.</p>") == [
        ("How many snapshots does rsnap keep?", "A daily one, kept a week.")
    ]


def test_bold_paragraphs_that_do_not_ask_are_questions_only_as_a_run_of_titles() -> None:
    titles = (
        "<h2>FAQ</h2><p><b>Snapshots kept</b></p><p>Seven daily snapshots and four weekly "
        "ones.</p><p><b>Restoring</b></p><p>Mount the backup disk and copy the file back.</p>"
    )
    assert [q for q, _ in _answers(titles)] == ["Snapshots kept", "Restoring"]
    # one bold line alone is emphasis, not a question
    alone = "<h2>FAQ</h2><p><b>Snapshots kept</b></p><p>Seven daily snapshots.</p>"
    assert _answers(alone) == []
    # under question headings, bold lines are an answer's
    headed = (
        "<h2>FAQ</h2><h3>How many snapshots does rsnap keep?</h3><p><strong>Note</strong></p>"
        f"<p>{SEVEN}</p><p><strong>Warning</strong></p><p>Older ones are removed.</p>"
    )
    assert _answers(headed) == [
        ("How many snapshots does rsnap keep?", f"Note {SEVEN} Warning Older ones are removed.")
    ]
    # where some bold lines ask, the others are an answer's
    mixed = (
        "<h2>FAQ</h2><p><b>How many snapshots does rsnap keep?</b></p><p><b>Daily</b></p>"
        f"<p>{SEVEN}</p><p><b>Weekly</b></p><p>Four.</p>"
    )
    assert _answers(mixed) == [
        ("How many snapshots does rsnap keep?", f"Daily {SEVEN} Weekly Four.")
    ]


def test_bold_questions_are_read_only_in_faq_sections() -> None:
    notes = f"<h2>Notes</h2><p><b>How many snapshots does rsnap keep?</b></p><p>{SEVEN}</p>"
    assert _answers(notes + FORMS["bold"].replace("How many", "How often")) == [
        ("How often snapshots does rsnap keep?", SEVEN)
    ]


CHROME = {
    "share text": "<p>Share this article</p><p>rsnap keeps seven daily snapshots.</p>",
    "share text ja": "<p>この記事をシェア</p><p>スナップショット</p>",
    "related heading": "<h3>Related posts</h3><ul><li><a href='/a'>rsnap snapshots</a></li></ul>",
    "share links": "<p><a href='https://twitter.com/intent/tweet?u=x'>Twitter</a> · "
    "<a href='https://www.facebook.com/sharer/sharer.php?u=x'>Facebook</a></p>",
    "share class": "<div class='sharedaddy sd-sharing-enabled'><h3>共有:</h3>"
    "<p><a href='/x'>X</a> and weekly snapshots</p></div>",
    "related class": "<div id='jp-relatedposts' class='jp-relatedposts'><p>rsnap weekly</p></div>",
    "helpful": "<h3>Was this helpful?</h3><p><a href='?y'>Yes</a> <a href='?n'>No</a></p>",
    "aside": "<aside><p>Subscribe</p></aside><p>Weekly snapshots are rotated.</p>",
    "rule": "<hr><p>Made with love by the rsnap authors</p>",
}


@pytest.mark.parametrize("chrome", CHROME)
def test_the_last_answer_ends_where_the_page_chrome_begins(chrome: str) -> None:
    faq = f"<h2>FAQ</h2><h3>How many snapshots does rsnap keep?</h3><p>{SEVEN}</p>"
    assert _answers(faq + CHROME[chrome]) == [("How many snapshots does rsnap keep?", SEVEN)]
    bold = f"<h2>FAQ</h2><p><b>How many snapshots does rsnap keep?</b></p><p>{SEVEN}</p>"
    assert _answers(bold + CHROME[chrome]) == [("How many snapshots does rsnap keep?", SEVEN)]


def test_what_only_looks_like_chrome_stays_in_the_answer() -> None:
    # ids come from headings ("share" in a question's slug), lists of links answer questions,
    # and a paragraph that opens with "Share" and goes on is an answer's
    faq = (
        "<h2>FAQ</h2><div id='how-do-i-share-snapshots'><h3>How do I share snapshots?</h3>"
        "<p>Copy the snapshot folder.</p><ul><li><a href='/a'>Restoring</a></li>"
        "<li><a href='/b'>Snapshots</a></li></ul><p>Share on the network drive and mount it "
        "on the other machine, then copy the folder.</p></div>"
    )
    assert _answers(faq) == [
        (
            "How do I share snapshots?",
            "Copy the snapshot folder. Restoring Snapshots Share on the network drive and mount "
            "it on the other machine, then copy the folder.",
        )
    ]


def test_an_answer_that_only_points_elsewhere_is_no_label() -> None:
    # the review's kept wrong label (samples/faq-review-2.csv, datatype99.md#faq-q3): the
    # Troubleshooting section holds the same pointer, not the answer
    faq = (
        "<h2>Troubleshooting</h2><p>rsnap fails on network disks. Solution: see rsnap's "
        "README.</p><h2>FAQ</h2><h3>Why not just use rsync?</h3><p>See rsnap's README.</p>"
    )
    _, queries, rejected = _build(_page(faq))
    assert queries == [] and [r.reason for r in rejected] == ["answer_not_in_section"]
    # a pointer that goes on to answer is an answer
    faq = (
        "<h2>FAQ</h2><h3>How many snapshots does rsnap keep?</h3><p>See Snapshots: rsnap "
        "keeps seven daily snapshots and four weekly ones.</p>"
    )
    _, queries, _ = _build(_page(faq))
    assert [dict(q.relevant) for q in queries] == [{"p.html#1": 2}]


FIXTURES = Path(__file__).parent / "fixtures" / "faq"


def _fixture(name: str) -> tuple[Article, list, list]:
    return _build((FIXTURES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("name", "summaries", "kept"),
    [
        ("ja-tutorial.html", ["結論", "おわりに"], "最後に実行するコマンド"),
        ("ko-tutorial.html", ["결론", "맺음말"], "2단계: 개정 수락"),
        ("es-tutorial.html", ["Conclusión", "Para terminar"], "Para terminar la instalación"),
        ("en-post.html", ["Final thoughts", "Wrapping up"], "Wrapping up a session"),
    ],
)
def test_closing_summaries_are_excluded_and_steps_named_like_them_are_kept(
    name: str, summaries: list[str], kept: str
) -> None:
    article, _, _ = _fixture(name)
    excluded = [e.heading for e in article.excluded]
    assert [h for h in excluded if h in summaries] == summaries
    assert kept in [s.heading for s in article.sections]


def test_faq_headings_with_a_qualifier_are_faq_sections_and_mere_questions_are_not() -> None:
    _, queries, rejected = _fixture("ko-tutorial.html")
    asked = {q.query: q.locator for q in queries} | {r.query: r.reference for r in rejected}
    # the second FAQ's bold pairs are read, out of the corpus
    assert asked["개정 하나만 거부할 수 있나요?"].startswith("section '추가 자주 묻는 질문'")
    assert "라이브러리는 어디에서 다운로드하나요?" in asked
    # "질문 목록" (a list of questions) is content: its question heading is no FAQ pair
    assert "문서를 열려면 어떻게 하나요?" not in asked
    article, _, _ = _fixture("ko-tutorial.html")
    assert "질문 목록" in [s.heading for s in article.sections]
    assert "추가 자주 묻는 질문" in [e.heading for e in article.excluded]
    for name, heading in [
        ("ja-tutorial.html", "その他のよくある質問"),
        ("es-tutorial.html", "Más preguntas frecuentes"),
        ("en-post.html", "More FAQs"),
        ("en-post.html", "Additional questions"),
    ]:
        article, _, _ = _fixture(name)
        assert heading in [e.heading for e in article.excluded]
        assert any(c.locator.startswith(f"section {heading!r}") for c in article.candidates)
    article, _, _ = _fixture("en-post.html")
    assert "Questions about pricing" in [s.heading for s in article.sections]
    assert not any("pricing" in c.locator for c in article.candidates)


def test_question_numbers_and_markers_are_left_out_of_the_query_text() -> None:
    article, _, _ = _fixture("en-post.html")  # "1. …", "2) …", "Q3 - …", "Q5:", "Ｑ４．…"
    assert [c.query for c in article.candidates] == [
        "Which port does Lantern listen on?",
        "How do I configure nginx in front of Lantern?",
        "Why does Lantern log the proxy's address?",
        "Where are the release notes?",
        "Can I run two instances?",
    ]
    article, _, _ = _fixture("ja-tutorial.html")  # "Q1:", "Q2：", "Q3.", "質問4：", "Q.", "Q6："
    assert [c.query for c in article.candidates] == [
        "PDF のページ サイズは変更できますか?",
        "ライブラリはどこからダウンロードできますか?",
        "入力ファイルのディレクトリはどう指定しますか?",
        "ドキュメントはどこで入手できますか?",
        "JDK は何が必要ですか?",
        "出力する PDF の既定のページ サイズは何ですか？",
    ]
    # ... and so are the answers' numbered markers ("A1:", "答6：", "R1:")
    assert [c.answer[:6] for c in article.candidates] == [
        "はい、ページ",
        "ライブラリは",
        "設定方法はこ",
        "ドキュメント",
        "JDK 8 ",
        "既定のページ",
    ]
    article, _, _ = _fixture("es-tutorial.html")
    assert [c.answer.split()[0] for c in article.candidates] == ["La", "Consulta", "Cree", "Visita"]
    # a number that is the question's own stays, and a numbered question is the same question
    numbered = _answers("<h2>FAQ</h2><h3>1.5 GB is enough for rsnap?</h3><p>Yes.</p>")
    assert numbered == [("1.5 GB is enough for rsnap?", "Yes.")]
    assert question_key("2) How many snapshots?") == question_key("How many snapshots?")


LINKED = f"{LINK_OPEN}{{}}{LINK_CLOSE}"


@pytest.mark.parametrize(
    "answer",
    [
        "設定方法はこちらの記事を参照してください。",
        "インストール手順はここ",
        "ドキュメントは入手可能です" + LINKED.format("ここ") + ".",
        "はい。詳しくは公式ドキュメントをご覧ください。",
        "자세한 내용은 이 글을 참고하세요.",
        "다운로드 페이지는 " + LINKED.format("여기"),
        "Consulta la guía de instalación.",
        "Visita el " + LINKED.format("foro de soporte") + ".",
        "Puede descargarla desde" + LINKED.format("aquí") + ".",
        "See rsnap's README.",
        "For more information, see the " + LINKED.format("instances guide") + ".",
        "The documentation is available here.",
        "Check out this post.",
        LINKED.format("Installation guide"),
        "https://example.com/rsnap/install",
    ],
)
def test_an_answer_that_points_elsewhere_is_read_as_a_pointer(answer: str) -> None:
    assert points_elsewhere(answer)


@pytest.mark.parametrize(
    "answer",
    [
        "See Snapshots: rsnap keeps seven daily snapshots and four weekly ones.",
        "Yes, download it from the " + LINKED.format("releases page") + ".",
        "Yes: run the installer without administrator rights (" + LINKED.format("guide") + ").",
        "はい、無料トライアルは here から利用できます。",
        "設定が正しいか確認してください。",
        "JDK 8 以降があれば使えます。インストール手順は"
        + LINKED.format("こちら")
        + "でも確認できます。",
        "예, 해당 개정의 Reject 메서드를 호출하면 그 개정만 거부됩니다.",
        "Puede descargar la última versión de la biblioteca para .NET desde"
        + LINKED.format("aquí")
        + ".",
        "No. Standard CI continues to skip ignored tests. See the local testing section.",
        "Yes.",
    ],
)
def test_a_short_answer_that_holds_a_link_is_an_answer(answer: str) -> None:
    assert not points_elsewhere(answer)


def test_a_pointer_answer_gets_no_body_label_and_real_answers_with_links_keep_theirs() -> None:
    # "ドキュメントは入手可能です[ここ]" found ドキュメント in a step about the documents'
    # folder on a reviewed page (samples/faq-review-3.csv, 15517227056.md#faq-q4)
    article, queries, rejected = _fixture("ja-tutorial.html")
    assert [c.points_elsewhere for c in article.candidates] == [
        False,
        True,
        True,
        True,
        False,
        False,
    ]
    assert _asked(queries) == [
        ("PDF のページ サイズは変更できますか?", {"p.html#3": 2}),
        ("JDK は何が必要ですか?", {"p.html#1": 2}),
        ("出力する PDF の既定のページ サイズは何ですか？", {"p.html#3": 2}),
    ]
    assert [(r.query, r.reason) for r in rejected] == [
        ("ライブラリはどこからダウンロードできますか?", "answer_not_in_section"),
        ("入力ファイルのディレクトリはどう指定しますか?", "answer_not_in_section"),
        ("ドキュメントはどこで入手できますか?", "answer_not_in_section"),
    ]
    # "Consulta la guía de instalación", which a step also writes, is no label for that step
    article, queries, rejected = _fixture("es-tutorial.html")
    assert [c.points_elsewhere for c in article.candidates] == [False, True, False, True]
    assert [q.query for q in queries] == [
        "¿Desde qué número se cuentan las diapositivas?",
        "¿Cómo cargo una presentación?",
    ]
    assert ("¿Cómo instalo la biblioteca?", "answer_not_in_section") in [
        (r.query, r.reason) for r in rejected
    ]
    for name, pointers in [
        ("ko-tutorial.html", [False, True, False, True]),
        ("en-post.html", [False, True, False, True, True]),  # a link alone: a pointer
    ]:
        article, _, _ = _fixture(name)
        assert [c.points_elsewhere for c in article.candidates] == pointers


def test_an_answer_that_opens_with_the_word_question_stays_an_answer() -> None:
    # a reviewed page's answer (samples/faq-review-3.csv, 30086212.md) opened so and was read
    # as a question, leaving its question without an answer
    faq = (
        "<h2>よくある質問</h2><h3>4. サポートはどこで受けられますか?</h3><p>質問がある場合は、"
        "コミュニティ フォーラムで質問できます。</p><h3>質問5：無料ですか？</h3><p>はい。</p>"
        "<h3>P6: ¿Es gratis?</h3><p>Preguntas y respuestas: sí.</p>"
    )
    assert _answers(faq) == [
        (
            "サポートはどこで受けられますか?",
            "質問がある場合は、コミュニティ フォーラムで質問できます。",
        ),
        ("無料ですか？", "はい。"),
        ("¿Es gratis?", "Preguntas y respuestas: sí."),
    ]
