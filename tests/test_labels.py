"""labels.py: query ids and grades, the one place they are decided."""

from __future__ import annotations

from qrelsmith.labelling.labels import (
    NAMED,
    SAME_ARTICLE,
    graded,
    named,
    named_in,
    qrels_rows,
    same_article_count,
    sections_by_article,
)
from qrelsmith.models import CorpusRecord, GoldenQuery, Origin
from qrelsmith.store.layout import article_of, query_id


def record(section_id: str) -> CorpusRecord:
    article = section_id.split("#")[0]
    return CorpusRecord(
        id=section_id, article_id=article, path=article, title="", heading="", text=""
    )


def test_a_query_id_names_its_article_and_row() -> None:
    assert query_id("ja/rdp-port.html", 3) == "ja/rdp-port.html#q3"
    assert article_of(query_id("example.com/a#b", 0)) == "example.com/a#b"  # a '#' in the id
    assert article_of("no-mark") == "no-mark"


def test_named_sections_grade_2_the_rest_of_the_article_1() -> None:
    assert (NAMED, SAME_ARTICLE) == (2, 1)
    assert named(["a#1", "a#0"]) == {"a#1": 2, "a#0": 2}
    assert named_in({"a#0": 1, "a#1": 2, "a#2": 2}) == ["a#1", "a#2"]
    assert same_article_count(4, ["a#1"]) == 3
    assert graded(["a#1"], ["a#0", "a#1", "a#2"]) == [("a#0", 1), ("a#1", 2), ("a#2", 1)]


def test_qrels_rows_follow_query_then_corpus_order_and_judge_only_the_article() -> None:
    corpus = [record(s) for s in ("a#0", "a#1", "b#0", "b#2")]
    by_article = sections_by_article(corpus)
    assert by_article == {"a": ["a#0", "a#1"], "b": ["b#0", "b#2"]}
    queries = [
        GoldenQuery(
            qid=query_id(article, 0),
            query="q",
            answer="",
            relevant=named([target]),
            same_article=1,
            table="t",
            reference="r",
            match="exact",
            confidence=0.99,
            origin=Origin(path=article, row=0),
        )
        for article, target in (("b", "b#2"), ("a", "a#0"))
    ]
    assert list(qrels_rows(queries, by_article)) == [
        ("b#q0", "b#0", 1),
        ("b#q0", "b#2", 2),
        ("a#q0", "a#0", 2),
        ("a#q0", "a#1", 1),
    ]
