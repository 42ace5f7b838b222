"""benchmarks/faq_review_draw.py: the third FAQ review's draw rule, and its files agreeing."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location(
    "faq_review_draw", ROOT / "benchmarks" / "faq_review_draw.py"
)
assert _SPEC and _SPEC.loader
draw_module = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(draw_module)

KOREAN = "자주 묻는 질문에 답합니다. " * 10
JAPANESE = "よくある質問にこたえます。" * 10


def test_the_rule_takes_new_small_pages_that_no_earlier_review_read(tmp_path: Path) -> None:
    pages = {
        "1": "---\ntitle: Old review page\n---\n\n## FAQ\n",  # excluded by its front matter
        "2": "# Another old page\n\n## FAQ\n",  # excluded by its first heading
        "4": f"---\ntitle: >\n  Fresh\n---\n\n## 자주 묻는 질문\n\n{KOREAN}",
        "5": "# Fresh README\n\n## Preguntas frecuentes\n\n### ¿Qué?\n",
        "6": f"# 新しいページ\n\n{JAPANESE}",
    }
    for name, text in pages.items():
        (tmp_path / f"{name}.md").write_text(text, encoding="utf-8")
    draw_file = {
        "max_chars": 100,
        "excluded_titles": ["Old review page", "Another old page", "Read, not stored"],
        "queries": [
            {
                "string": "## FAQ\n\n### ",
                "hits": [
                    {"id": "1", "chars": 30},
                    {"id": "2", "chars": 30},
                    {"id": "3", "chars": 500},  # too long: never read
                    {"id": "4", "chars": 90},
                    {"id": "7", "chars": 40, "title": "Read, not stored"},
                ],
            },
            {
                "string": "## Preguntas frecuentes\n\n### ¿",
                "hits": [
                    {"id": "4", "chars": 90},
                    {"id": "5", "chars": 50},
                    {"id": "6", "chars": 80},
                ],
            },
        ],
    }
    rows = draw_module.draw(draw_file, tmp_path, None)
    assert [(r["id"], r["taken"], r.get("language", "")) for r in rows] == [
        ("1", "no", ""),
        ("2", "no", ""),
        ("3", "no", ""),
        ("4", "yes", "ko"),
        ("7", "no", ""),
        ("4", "no", ""),
        ("5", "yes", "es"),
        ("6", "yes", "ja"),
    ]
    assert [r["why"] for r in rows if r["taken"] == "no"] == [
        "an earlier review's page: Old review page",
        "an earlier review's page: Another old page",
        "over 100 characters",
        "an earlier review's page: Read, not stored",
        "an earlier query's hit",
    ]
    assert [r["id"] for r in draw_module.draw(draw_file, tmp_path, 1) if r["taken"] == "yes"] == [
        "4"
    ]


def test_every_judged_label_is_on_a_page_the_shipped_draw_takes() -> None:
    draw_file = json.loads(
        (ROOT / "samples" / "faq-review-3-draw.json").read_text(encoding="utf-8")
    )
    small = {
        h["id"]
        for q in draw_file["queries"]
        for h in q["hits"]
        if h["chars"] <= draw_file["max_chars"]
    }
    earlier = {h["id"] for q in draw_file["queries"] for h in q["hits"] if "title" in h}
    with (ROOT / "samples" / "faq-review-3.csv").open(encoding="utf-8") as sheet:
        rows = list(csv.DictReader(sheet))
    pages = {row["qid"].split(".md#")[0] for row in rows}
    assert rows and pages <= small - earlier
    assert {row["verdict"] for row in rows} <= {"right", "partly", "wrong"}
    assert {row["kept"] for row in rows} == {"yes"}


def test_score_joins_kept_labels_to_verdicts_of_the_same_section(tmp_path: Path) -> None:
    build = tmp_path / "rev"
    build.mkdir()
    sections = [{"id": f"p.md#{n}", "heading": f"Step {n}", "text": "…"} for n in range(3)]
    (build / "corpus.jsonl").write_text(
        "".join(json.dumps(s) + "\n" for s in sections), encoding="utf-8"
    )
    queries = [
        {"qid": "p.md#faq-q0", "query": "A?", "answer": "a", "match": "faq-body"},
        {"qid": "p.md#faq-q1", "query": "B?", "answer": "b", "match": "faq-body"},
        {"qid": "p.md#faq-q2", "query": "C?", "answer": "c", "match": "faq-body"},
        {"qid": "f.md#faq-q0", "query": "D?", "answer": "d", "match": "faq-page"},
    ]
    for n, query in enumerate(queries):
        query["relevant"] = {f"p.md#{n}" if n < 3 else "f.md#faq-a0": 2}
    (build / "golden.jsonl").write_text(
        "".join(json.dumps(q) + "\n" for q in queries), encoding="utf-8"
    )
    report = {
        "counts": {"by_match": {"faq-page": 1, "faq-body": 3}},
        "sources": {"faq": {"candidates": 9, "reasons": {"no_answer": 1}}},
    }
    (build / "report.json").write_text(json.dumps(report), encoding="utf-8")
    sheet = tmp_path / "sheet.csv"
    with sheet.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["qid", "question", "labelled_heading", "verdict"])
        writer.writerow(["p.md#faq-q0", "A?", "Step 0", "right"])
        writer.writerow(["p.md#faq-q1", "B?", "Step 1", "wrong"])
        writer.writerow(["p.md#faq-q2", "C?", "Step 0", "right"])  # another section judged
    labels, counts = draw_module.scored(build, [sheet])
    assert [label["verdict"] for label in labels] == ["right", "wrong", "unjudged"]
    assert counts == {
        "right": 1,
        "partly": 0,
        "wrong": 1,
        "unjudged": 1,
        "kept": 3,
        "pairs": 7,
    }
