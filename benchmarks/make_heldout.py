"""Lay the held-out pages out as the dev set is laid out, one folder per part.

The pages (``benchmarks/heldout/raw/<writer>/<lang>-<slug>.html``) were written for this
purpose by writers who never read the matcher, its tests or the dev set
(benchmarks/heldout/README.md). In each page the first table of the article is its
quick-reference table; a row's reference is the cell holding its one in-page link
(``href="#id"``), and that id is its truth. A row the writer marked ``data-truth="elsewhere"``
answers nothing of this page (its cells say so): its truth is no section, and any label on it
is wrong.

``parts.json`` names the pages of each part (what each part has been used for is in the
README). Written per part, and for all pages in ``all/``, like ``../shared/devset/``:
``pages/`` (the pages, the marker attribute removed), ``pages_nolinks/`` (every in-page link
unwrapped to its text: the matcher works from the text), ``truth.jsonl`` (one row per table
row: the dev set's fields, and ``elsewhere`` and ``offsite``, whether a cell links to another
page). A page that breaks the rules above (a row with no link or two, a link naming no
heading) is reported and left out, so a writer's slip never becomes a wrong truth.

    python benchmarks/make_heldout.py --out /tmp/heldout      # then score.py /tmp/heldout/all
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import lxml.html

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_devset_set import score_helpers  # noqa: E402

HERE = Path(__file__).resolve().parent
HELDOUT = HERE / "heldout"
DEVSET = HERE.parents[1] / "shared" / "devset"
MARK = "data-truth"


def text(element: Any) -> str:
    """An element's text, whitespace folded (as score.py folds it)."""
    return " ".join(element.text_content().split())


def quick_table(doc: Any, roots: tuple[str, ...]) -> Any:
    """The article's first table (score.py's root: first <article>, else <main>, else <body>)."""
    root = next((el for tag in roots for el in doc.iter(tag)), doc)
    return next(root.iter("table"), None)


def rows_of(table: Any, page: str, outline: Any, raw: bytes) -> tuple[list[dict[str, Any]], str]:
    """The table's body rows as truth records, or an error naming the first broken row."""
    _, h2s, heading_at = outline(raw)
    records: list[dict[str, Any]] = []
    for number, tr in enumerate(table.iter("tr")):
        cells = [c for c in tr if c.tag in ("td", "th")]
        if not cells or tr.getparent().tag == "thead" or all(c.tag == "th" for c in cells):
            continue  # a header row
        links = [a for a in tr.iter("a") if (a.get("href") or "").startswith("#")]
        elsewhere = tr.get(MARK) == "elsewhere"
        if elsewhere:
            if links:
                return [], f"row {number}: marked elsewhere but links in the page"
            holder = next((c for c in cells if next(c.iter("a"), None) is not None), cells[-1])
            anchor = None
        else:
            if len(links) != 1:
                return [], f"row {number}: {len(links)} in-page links"
            holder = next(c for c in cells if links[0] in c.iter("a"))
            anchor = unquote(links[0].get("href")[1:])
            if anchor not in heading_at:
                return [], f"row {number}: #{anchor} names no heading"
        at = heading_at.get(anchor, (None, ""))[0] if anchor is not None else None
        records.append(
            {
                "page": page,
                "row_text": text(holder),
                "query": text(cells[0]),
                "cells": [text(c) for c in cells],
                "cell_text": text(holder),
                "truth_anchor": anchor,
                "truth_h2": text(h2s[at]) if at is not None and at >= 0 else None,
                "elsewhere": elsewhere,
                # a cell links to another page, as the build's table reader sees it
                "offsite": any(
                    not h.strip().startswith("#") for h in tr.xpath(".//a/@href") if h.strip()
                ),
                "lang": (tr.getroottree().getroot().get("lang") or "und").split("-")[0],
                "match": "elsewhere" if elsewhere else "heldout",
                "block_kind": "table",
                "source": page.split("__")[0],
            }
        )
    return records, "" if records else "no body rows"


def without_links(raw: bytes) -> bytes:
    """The page with every in-page link unwrapped to its text (the dev set's pages_nolinks)."""
    doc = lxml.html.fromstring(raw)
    for a in list(doc.iter("a")):
        if (a.get("href") or "").startswith("#"):
            a.drop_tag()
    return lxml.html.tostring(doc, encoding="utf-8", doctype="<!DOCTYPE html>")


def lay_out(raw: Path, parts: dict[str, list[str]], out: Path, devset: Path) -> list[str]:
    """Write each part's folder and ``all/``; the lines to report (pages left out, counts)."""
    helpers = score_helpers(devset)
    outline, roots = helpers["outline"], helpers["ROOTS"]
    part_of = {page: part for part, pages in parts.items() for page in pages}
    truth: dict[str, list[dict[str, Any]]] = {part: [] for part in (*parts, "all")}
    said: list[str] = []
    for part in truth:
        for folder in ("pages", "pages_nolinks"):
            (out / part / folder).mkdir(parents=True, exist_ok=True)
    for path in sorted(raw.glob("*/*.html")):
        page = f"{path.parent.name}__{path.name}"
        if page not in part_of:
            said.append(f"left out {page}: in no part of parts.json")
            continue
        original = path.read_bytes()
        doc = lxml.html.fromstring(original)
        table = quick_table(doc, roots)
        records, error = (
            rows_of(table, page, outline, original)
            if table is not None
            else ([], "no table in the article")
        )
        if error:
            said.append(f"left out {page}: {error}")
            continue
        for tr in doc.iter("tr"):
            tr.attrib.pop(MARK, None)
        page_bytes = lxml.html.tostring(doc, encoding="utf-8", doctype="<!DOCTYPE html>")
        for part in (part_of[page], "all"):
            (out / part / "pages" / page).write_bytes(page_bytes)
            (out / part / "pages_nolinks" / page).write_bytes(without_links(page_bytes))
            truth[part].extend(records)
    for part, records in truth.items():
        with (out / part / "truth.jsonl").open("w", encoding="utf-8") as stream:
            for record in records:
                stream.write(json.dumps(record, ensure_ascii=False) + "\n")
        pages = len({r["page"] for r in records})
        elsewhere = sum(1 for r in records if r["elsewhere"])
        said.append(f"{part}: {pages} pages, {len(records)} rows ({elsewhere} answered elsewhere)")
    return said


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", type=Path, default=HELDOUT / "raw")
    parser.add_argument("--parts", type=Path, default=HELDOUT / "parts.json")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--devset", type=Path, default=DEVSET, help="for score.py's outline")
    args = parser.parse_args()
    parts = json.loads(args.parts.read_text(encoding="utf-8"))
    for line in lay_out(args.raw, parts, args.out, args.devset):
        print(line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
