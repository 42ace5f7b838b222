"""The pages of the third FAQ precision review (samples/faq-review-3.csv), drawn by a rule fixed
before any page was read, and their kept ``faq-body`` labels listed for judging, scores left out.

The draw (``samples/faq-review-3-draw.json``) is the search tool's code index asked, in order, for
exact strings that open a FAQ section of a Markdown page and its first question, in English,
Japanese, Korean and Spanish ("## FAQ" + "### ", "## よくある質問" + "**", "## 자주 묻는 질문" +
"### Q", "## Preguntas frecuentes" + "### ¿" ...; ``find_string`` with no context, so the hits
were chosen before any text was seen), with every hit as the index answered it (its file id and
length). A hit is a page of the review when

- its id was not a hit of an earlier query;
- the file is at most ``max_chars`` characters (6,000: the pages were copied out of the index
  by hand, one ``read_file`` each);
- its title (the front matter's ``title``, or its first ``# `` heading) is none of the pages of
  the two earlier reviews (``excluded_titles``: their pages' first headings).

Pages are taken whole, query by query, hit by hit, until the pages give 40 kept labels or the
queries run out. The stored pages are the files ``read_file`` gave for each id, saved as
``<id>.md``; this script needs them (they are public repositories' text, not shipped here). A
hit that was read and found to be an earlier review's page was not stored: the draw file
records the title read.

    python benchmarks/faq_review_draw.py draw PAGES OUT          # OUT/<id>.md, OUT/draw.tsv
    qrelsmith build OUT --out REV --sources table,faq
    python benchmarks/faq_review_draw.py list REV                # kept labels, no scores
    python benchmarks/faq_review_draw.py score REV SHEET...      # kept labels, sheets' verdicts

``draw`` stops after the first ``--queries`` queries (default: all of the file's). ``draw.tsv``
lists each hit in order with what the rule made of it, and each page's language: by the script
of its text (50 Hangul letters or more: ko, 50 kana: ja, 50 other CJK ideographs: zh), else by
the FAQ heading that drew it (Spanish: es, else en).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
DRAW = HERE / "samples" / "faq-review-3-draw.json"

#: A page's language by the letters of its text: this many Hangul letters, kana or CJK
#: ideographs make it Korean, Japanese or Chinese (the drawn pages write hundreds of them, or
#: a handful in an English README's link to a translation).
SCRIPT_LETTERS = 50
SCRIPTS = (
    ("ko", re.compile(r"[\uac00-\ud7af]")),
    ("ja", re.compile(r"[\u3040-\u30ff]")),
    ("zh", re.compile(r"[\u4e00-\u9fff]")),
)
#: The Spanish FAQ heading: a Latin-script page drawn by it is Spanish.
SPANISH_HEADING = re.compile(r"^## Preguntas frecuentes", re.IGNORECASE)

_FRONT = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*$", re.S | re.M)
_FRONT_TITLE = re.compile(r"""^["']?title["']?[ \t]*:[ \t]*>?-?[ \t]*(.*)$""", re.M)
_H1 = re.compile(r"^# (.+?)[ \t]*$", re.M)


def page_titles(text: str) -> set[str]:
    """The names a page goes by: its front matter's title and its first ``# `` heading."""
    titles: set[str] = set()
    front = _FRONT.match(text)
    if front:
        found = _FRONT_TITLE.search(front.group(1))
        if found:
            value = found.group(1).strip()
            if not value:  # a folded scalar: the title is on the next line
                rest = front.group(1)[found.end() :].lstrip("\n")
                value = rest.splitlines()[0].strip() if rest else ""
            titles.add(value.strip("'\""))
        body = text[front.end() :]
    else:
        body = text
    heading = _H1.search(body)
    if heading:
        titles.add(heading.group(1).strip())
    return titles - {""}


def language(text: str, query: str) -> str:
    """ko, ja or zh by the page's letters, else es or en by the heading that drew it."""
    for name, letters in SCRIPTS:
        if len(letters.findall(text)) >= SCRIPT_LETTERS:
            return name
    return "es" if SPANISH_HEADING.match(query) else "en"


def draw(draw_file: dict[str, Any], pages: Path, queries: int | None) -> list[dict[str, Any]]:
    """Every hit of the first ``queries`` queries, in order, with the rule's verdict on it."""
    excluded = set(draw_file["excluded_titles"])
    seen: set[str] = set()
    rows: list[dict[str, Any]] = []
    for n, query in enumerate(draw_file["queries"][:queries], start=1):
        for hit in query["hits"]:
            row = {"query": n, "id": hit["id"], "chars": hit["chars"], "taken": "no"}
            rows.append(row)
            if hit["id"] in seen:
                row["why"] = "an earlier query's hit"
                continue
            seen.add(hit["id"])
            if hit["chars"] > draw_file["max_chars"]:
                row["why"] = f"over {draw_file['max_chars']} characters"
                continue
            page = pages / f"{hit['id']}.md"
            text = page.read_text(encoding="utf-8") if page.exists() else ""
            titles = page_titles(text) if text else {hit["title"]}
            earlier = sorted(titles & excluded)
            if earlier:
                row["why"] = f"an earlier review's page: {earlier[0]}"
                continue
            row.update(taken="yes", why="", language=language(text, query["string"]))
    return rows


def kept_labels(build: Path) -> list[dict[str, str]]:
    """The build's kept faq-body labels: question, answer, labelled section (no scores)."""
    sections = {}
    for line in (build / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        sections[record["id"]] = record
    labels = []
    for line in (build / "golden.jsonl").read_text(encoding="utf-8").splitlines():
        query = json.loads(line)
        if query.get("match") != "faq-body":
            continue
        (doc,) = [d for d, grade in query["relevant"].items() if grade == 2]
        labels.append(
            {
                "qid": query["qid"],
                "question": query["query"],
                "answer": query["answer"],
                "heading": sections[doc]["heading"],
                "section": sections[doc]["text"],
            }
        )
    return labels


VERDICTS = ("right", "partly", "wrong", "unjudged")


def scored(build: Path, sheets: list[Path]) -> tuple[list[dict[str, str]], dict[str, int]]:
    """The build's kept faq-body labels, each with the verdict the review sheets give its qid
    and labelled heading ("unjudged" when none judged that label), and the counts: kept
    labels by verdict, and ``pairs``, the in-article questions that have an answer (the
    questions found less the faq-page labels and those without an answer)."""
    verdicts = {}
    for sheet in sheets:
        with sheet.open(encoding="utf-8", newline="") as rows:
            for row in csv.DictReader(rows):
                verdicts[(row["qid"], row["labelled_heading"])] = row["verdict"]
    labels = kept_labels(build)
    for label in labels:
        label["verdict"] = verdicts.get((label["qid"], label["heading"]), "unjudged")
    counts = {verdict: 0 for verdict in VERDICTS}
    for label in labels:
        counts[label["verdict"]] += 1
    report = json.loads((build / "report.json").read_text(encoding="utf-8"))
    faq = report["sources"]["faq"]
    pages = report["counts"]["by_match"].get("faq-page", 0)
    counts["kept"] = len(labels)
    counts["pairs"] = faq["candidates"] - pages - faq["reasons"].get("no_answer", 0)
    return labels, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    taking = commands.add_parser("draw", help="write the drawn pages and draw.tsv")
    taking.add_argument("pages", type=Path, help="the stored pages, <id>.md each")
    taking.add_argument("out", type=Path, help="a new folder for the drawn pages")
    taking.add_argument("--queries", type=int, default=None, help="how many queries were drawn")
    listing = commands.add_parser("list", help="a build's kept faq-body labels, no scores")
    listing.add_argument("build", type=Path, help="qrelsmith build folder of the drawn pages")
    scoring = commands.add_parser("score", help="a build's kept labels with the sheets' verdicts")
    scoring.add_argument("build", type=Path, help="qrelsmith build folder of the reviewed pages")
    scoring.add_argument(
        "sheets", type=Path, nargs="+", help="review sheets (samples/faq-review*.csv)"
    )
    args = parser.parse_args(argv)
    if args.command == "score":
        labels, counts = scored(args.build, args.sheets)
        for label in labels:
            print(
                f"{label['verdict']:9} {label['qid']} | {label['question']} -> {label['heading']}"
            )
        tally = ", ".join(f"{verdict} {counts[verdict]}" for verdict in VERDICTS)
        print(f"kept {counts['kept']} of {counts['pairs']} in-article pairs: {tally}")
        return 0
    if args.command == "list":
        for label in kept_labels(args.build):
            print(f"== {label['qid']} | {label['question']}\n   A: {label['answer']}")
            print(f"   -> {label['heading']}\n      {label['section']}\n")
        return 0
    rows = draw(json.loads(DRAW.read_text(encoding="utf-8")), args.pages, args.queries)
    args.out.mkdir(parents=True, exist_ok=False)
    lines = ["query\tid\tchars\ttaken\tlanguage\twhy"]
    for row in rows:
        if row["taken"] == "yes":
            shutil.copyfile(args.pages / f"{row['id']}.md", args.out / f"{row['id']}.md")
        lines.append(
            f"{row['query']}\t{row['id']}\t{row['chars']}\t{row['taken']}"
            f"\t{row.get('language', '')}\t{row['why']}"
        )
    (args.out / "draw.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    taken = sum(row["taken"] == "yes" for row in rows)
    print(f"{taken} pages of {len(rows)} hits -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
