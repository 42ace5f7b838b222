"""Answer evidence spans (evidence.py): containment, the best window, answer-elsewhere, and
their use by check, align and the review sheet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qrelsmith import article_queries, parse_article
from qrelsmith.audit.sheet import SPAN_CLOSE, SPAN_OPEN, evidence_cell
from qrelsmith.cli import main
from qrelsmith.config import AuditOptions
from qrelsmith.evaluate.check import check_build
from qrelsmith.labelling.evidence import (
    ANSWER_ELSEWHERE,
    ANSWER_ELSEWHERE_CONFIDENCE,
    EVIDENCE_MIN_SCORE,
    ArticleText,
    contained,
    find_evidence,
    folded_positions,
    whole_document_span,
)
from qrelsmith.models import Section
from qrelsmith.store.buildfolder import load_build

SAMPLE = Path(__file__).parent.parent / "samples" / "site"


def _page(rows: list[tuple[str, str, str]], sections: list[tuple[str, str]]) -> str:
    table = "".join(f"<tr><td>{q}</td><td>{a}</td><td>{r}</td></tr>" for q, a, r in rows)
    body = "".join(f"<h2>{h}</h2><p>{t}</p>" for h, t in sections)
    return (
        "<article><table><tr><th>Question</th><th>Answer</th><th>Section</th></tr>"
        f"{table}</table>{body}</article>"
    )


def _queries(rows: list[tuple[str, str, str]], sections: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    article = parse_article(_page(rows, sections), "page.html")
    queries, _ = article_queries(article)
    return article, queries


@pytest.fixture(scope="module")
def sample_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("evidence") / "out"
    assert main(["build", str(SAMPLE), "--out", str(out), "-q"]) == 0
    return out


def test_every_span_of_the_sample_build_is_its_section_text_cut_at_its_offsets(
    sample_build: Path,
) -> None:
    corpus = {
        record["id"]: record["text"]
        for record in map(json.loads, (sample_build / "corpus.jsonl").read_text().splitlines())
    }
    queries = [
        json.loads(line) for line in (sample_build / "golden.jsonl").read_text().splitlines()
    ]
    spans = [q["evidence"] for q in queries if "evidence" in q]
    for query in queries:
        span = query.get("evidence")
        if span is None:
            continue
        assert corpus[span["section"]][span["start"] : span["end"]] == span["text"]
        assert span["text"] and span["end"] > span["start"]
        assert span["score"] >= EVIDENCE_MIN_SCORE or ANSWER_ELSEWHERE in query["flags"]
    # most of the sample's answers are summaries of their section: most get a span there
    own = [q for q in queries if "evidence" in q and q["evidence"]["section"] in q["relevant"]]
    assert len(spans) >= 0.8 * len(queries) and len(own) >= 0.8 * len(queries)
    # absent, not null, when none is found
    assert any("evidence" not in q for q in queries)
    assert '"evidence":null' not in (sample_build / "golden.jsonl").read_text()


def test_containment_folds_width_case_and_space_and_keeps_the_offsets_of_the_text() -> None:
    text = "RDP は既定で ＴＣＰ の 3389 番で待ち受けます。"
    span = contained("tcp の3389", text)
    assert span.score == 1.0 and text[span.start : span.end] == "ＴＣＰ の 3389"
    folded, where = folded_positions("Ａ b")
    assert folded == "ab" and where == [0, 2]
    # a character that folds to two ("㎏" -> "kg") maps both pieces back to itself
    assert folded_positions("x ㎏ y") == ("xkgy", [0, 2, 2, 4])
    text = "重さは 5㎏ までです。"
    span = contained("5 kg", text)
    assert span.score == 1.0 and text[span.start : span.end] == "5㎏"


def test_containment_keeps_latin_word_boundaries() -> None:
    assert contained("No", "Node is a runtime.").score == 0.0
    span = contained("No", "Node? No, it is not.")
    assert (span.start, span.end) == (6, 8)


def test_a_paraphrased_answer_gets_the_sentence_that_says_it() -> None:
    article, [query] = _queries(
        [("Which port does SSH use?", "SSH listens on port 22 by default on every host", "SSH")],
        [
            (
                "SSH",
                "Keys are safer than passwords. By default the SSH server listens on port 22. "
                "Change it in sshd_config.",
            ),
            ("HTTP", "Web servers use port 80."),
        ],
    )
    evidence = query.evidence
    assert evidence is not None and evidence.section == "page.html#0"
    assert evidence.text == "By default the SSH server listens on port 22."
    assert EVIDENCE_MIN_SCORE <= evidence.score < 1
    assert ANSWER_ELSEWHERE not in query.flags


def test_an_answer_found_nowhere_has_no_evidence() -> None:
    _, [query] = _queries(
        [("What does it cost?", "Nothing, it is free software", "Price")],
        [("Price", "Ask the vendor for a quote."), ("Install", "Run the installer.")],
    )
    assert query.evidence is None
    assert "evidence" not in query.model_dump_json()


def test_a_checkable_answer_only_another_section_holds_lowers_the_confidence() -> None:
    rows = [("RDP port?", "TCP 3389", "Firewall"), ("Open the firewall?", "", "Firewall")]
    sections = [
        ("Port", "RDP listens on TCP 3389 unless the registry says otherwise."),
        ("Firewall", "Allow the port in the inbound rules."),
    ]
    _, [query, empty] = _queries(rows, sections)
    assert query.match == "exact"
    assert ANSWER_ELSEWHERE in query.flags
    assert query.confidence == ANSWER_ELSEWHERE_CONFIDENCE
    assert query.evidence is not None and query.evidence.section == "page.html#0"
    assert query.evidence.text == "TCP 3389"
    assert empty.evidence is None and ANSWER_ELSEWHERE not in empty.flags
    # the same value in the labelled section: nothing to doubt
    sections[1] = ("Firewall", "Allow TCP 3389 in the inbound rules.")
    _, [query, _] = _queries(rows, sections)
    assert ANSWER_ELSEWHERE not in query.flags and query.confidence == 0.99
    assert query.evidence is not None and query.evidence.section == "page.html#1"


def test_a_prose_answer_elsewhere_is_no_doubt() -> None:
    # no checkable value: prose is reworded, so its place says nothing of the label
    _, [query] = _queries(
        [("Why a firewall?", "It keeps strangers out", "Firewall")],
        [("Intro", "A firewall keeps strangers out."), ("Firewall", "Open the inbound rules.")],
    )
    assert ANSWER_ELSEWHERE not in query.flags and query.confidence == 0.99
    # and outside the labelled sections only the whole answer is looked for, not a window
    assert query.evidence is None


def _build(tmp_path: Path, html: str) -> Path:
    site, out = tmp_path / "site", tmp_path / "out"
    site.mkdir()
    (site / "page.html").write_text(html, encoding="utf-8")
    assert main(["build", str(site), "--out", str(out), "-q"]) == 0
    return out


def test_check_names_the_section_that_holds_the_answer(tmp_path: Path) -> None:
    out = _build(
        tmp_path,
        _page(
            [("RDP port?", "TCP 3389", "Firewall")],
            [
                ("Port", "RDP listens on TCP 3389 unless the registry says otherwise."),
                ("Firewall", "Allow the port in the inbound rules."),
            ],
        ),
    )
    [suspect] = check_build(load_build(out), {}, AuditOptions())
    kinds = {signal.kind: signal.detail for signal in suspect.signals}
    assert kinds["answer-elsewhere"] == "answer found in page.html#0"
    assert "low-confidence" in kinds


def test_the_review_sheet_marks_the_span_in_its_section(sample_build: Path) -> None:
    build = load_build(sample_build)
    query = next(q for q in build.by_qid.values() if q.evidence and q.evidence.score < 1)
    assert query.evidence is not None
    cell = evidence_cell(build, query)
    assert f"{SPAN_OPEN}{query.evidence.text}{SPAN_CLOSE}" in cell
    assert cell.startswith("#")
    assert evidence_cell(build, query.model_copy(update={"evidence": None})) == ""


ALIGN_PAGE = _page(
    [("Which port does SSH use?", "port 22", "SSH")],
    [
        (
            "SSH",
            "Keys are safer than passwords and should be used everywhere you can. "
            "The server listens on port 22 unless sshd_config says otherwise.",
        ),
        ("HTTP", "Web servers use port 80 for plain traffic and 443 for TLS."),
    ],
)


def _align(tmp_path: Path, html: str) -> dict[str, str]:
    out = _build(tmp_path, html)
    chunks = tmp_path / "chunks.jsonl"
    texts = {
        "c1": "SSH Keys are safer than passwords and should be used everywhere you can.",
        "c2": "The server listens on port 22 unless sshd_config says otherwise.",
        "c3": "HTTP Web servers use port 80 for plain traffic and 443 for TLS.",
    }
    chunks.write_text(
        "".join(
            json.dumps({"id": cid, "path": "page.html", "text": t}) + "\n"
            for cid, t in texts.items()
        ),
        encoding="utf-8",
    )
    aligned = tmp_path / "aligned"
    assert main(["align", str(out), "--chunks", str(chunks), "--out", str(aligned)]) == 0
    lines = (aligned / "qrels.trec").read_text(encoding="utf-8").split()
    return {lines[i + 2]: lines[i + 3] for i in range(0, len(lines), 4)}


def test_align_gives_grade_2_to_the_chunk_holding_the_span_only(tmp_path: Path) -> None:
    assert _align(tmp_path, ALIGN_PAGE) == {"c1": "1", "c2": "2", "c3": "1"}


def test_align_without_a_span_keeps_the_section_rule(tmp_path: Path) -> None:
    no_answer = ALIGN_PAGE.replace("<td>port 22</td>", "<td></td>")
    assert _align(tmp_path, no_answer) == {"c1": "2", "c2": "2", "c3": "1"}


def test_one_shared_word_is_no_evidence() -> None:
    # "not" is half of "not found": the score passes, but one word in common is chance
    _, [query] = _queries(
        [("What does 404 mean?", "not found", "Status codes")],
        [("Status codes", "GET should not change state."), ("Other", "Nothing here.")],
    )
    assert query.evidence is None


def test_a_single_plain_word_gets_no_span_but_a_value_does() -> None:
    sections = [("Tiles", "Set it to false to hide the badge; port 8080 is the default.")]
    _, [word, value] = _queries(
        [("Show the badge?", "false", "Tiles"), ("Port?", "8080", "Tiles")], sections
    )
    assert word.evidence is None
    assert value.evidence is not None and value.evidence.text == "8080"


_LONG = (
    "Python versions are numbered A.B.C or A.B: A is the major version number, incremented "
    "only for really major changes in the language. B is the minor version number, "
    "incremented for less earth-shattering changes. C is the micro version number, "
    "incremented for each bugfix release. See PEP 6 for more information about bugfix "
    "releases."
)


@pytest.mark.parametrize(
    "answer",
    [
        _LONG,
        _LONG.replace("releases.", "releases") + " x",  # a one-letter word after the cut
        "Yes.",
        "No",
        "true",
        "max_size",
        "Yes, pdb.",
        "重さは 3 ㎏ です。" * 40,  # folding widens a character
        "スナップショットは日ごとに七つ、週ごとに四つ残ります。" * 20,  # no space to cut at
        "「" + "あ" * 400 + "」",
        "CAtlArray:: ~ CAtlArray " * 30,
        "a " * 200 + "word",
    ],
)
def test_an_answer_that_is_its_whole_document_gets_the_span_find_evidence_gives(
    answer: str,
) -> None:
    # the shortcut for a FAQ page's answers (a document of their own) decides only what
    # find_evidence would: the whole text, or nothing it is sure of
    section = Section(id="a#faq-a0", article_id="a", index=0, heading="", text=answer)
    span = whole_document_span(answer, section)
    expected, _ = find_evidence(answer, [section], [], ArticleText([section]))
    assert span is None or span == expected
    if answer == _LONG:
        assert span == expected and span is not None and span.end == len(answer)
