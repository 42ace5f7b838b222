"""Label quality of reference -> section matching on real pages, side by side with yardsticks.

The dev set (``../shared/devset/``: 168 real ja/ko/es documentation pages, 1,386 references whose
section is known from the page's own in-page links) is scored for four predictors on the same
rows, the pages with their in-page links unwrapped (``pages_nolinks/``), so only the text can
decide:

- **seed**: the seed study's method (NFKC containment, then difflib ratio >= 0.5);
- **ratio rules**: the rules qrelsmith shipped before the word-aware matcher (exact, then
  containment, then rapidfuzz ratio >= 60 with a 5-point margin), rebuilt here as a yardstick;
- **qrelsmith, per reference**: ``qrelsmith.match_reference`` on each row alone (what
  ``../shared/devset/score.py`` scores);
- **qrelsmith, table order**: ``qrelsmith.match_table`` on each page's rows together, with each
  row's other cells (the query, the answer: score.py's ``cells`` without the reference cell),
  as a build decides a quick-reference table's rows.

Two truths: **link** (the predicted section holds the element the author linked to, by id) and
**heading** (its heading text equals the truth's H2 text, score.py's rule; the dev set's H2
text lost inline markup such as ``<T>`` in a few rows, so this one under-counts). Precision is
right among the rows given one section, coverage the rows given a section, right the share of
all rows. The last lines time parsing against matching over the same pages.

    python benchmarks/bench_matching.py                      # the table
    python benchmarks/bench_matching.py --misses             # + every wrong and abstained row
    python benchmarks/bench_matching.py --gate 99.6 89.7 --gate-table 99.4 91.9   # CI floors
"""

from __future__ import annotations

import argparse
import collections
import difflib
import json
import re
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rapidfuzz import fuzz

import qrelsmith
from qrelsmith.labelling.matching import HeadingIndex
from qrelsmith.models import Article
from qrelsmith.text import heading_key

DEFAULT_DEVSET = Path(__file__).resolve().parents[2] / "shared" / "devset"
LANGUAGES = ("ja", "ko", "es")


@dataclass
class Page:
    """One dev-set page: its rows (in the page's order), parsed article and link truth."""

    name: str
    rows: list[dict[str, object]]
    article: Article
    section_of_anchor: dict[str, str]


@dataclass
class Tally:
    """Right / wrong / abstained rows of one predictor, overall and per language."""

    counts: collections.Counter[tuple[str, str]] = field(default_factory=collections.Counter)
    misses: list[str] = field(default_factory=list)

    def add(self, language: str, outcome: str) -> None:
        self.counts[(language, outcome)] += 1
        self.counts[("all", outcome)] += 1

    def figures(self, language: str = "all") -> tuple[float, float, float, int]:
        """(precision, coverage, right, rows) in percent."""
        right, wrong = self.counts[(language, "right")], self.counts[(language, "wrong")]
        rows = right + wrong + self.counts[(language, "abstain")]
        given = right + wrong
        return (
            100 * right / given if given else 0.0,
            100 * given / rows if rows else 0.0,
            100 * right / rows if rows else 0.0,
            rows,
        )


def _plain(text: str) -> str:
    """Whitespace-folded NFKC without invisible format characters (score.py's comparison)."""
    text = "".join(
        ch for ch in unicodedata.normalize("NFKC", text) if unicodedata.category(ch) != "Cf"
    )
    return re.sub(r"\s+", " ", text).strip()


def load(devset: Path) -> list[Page]:
    """Parse every page once; rows whose truth is an excluded section are left out (score.py)."""
    rows = [json.loads(line) for line in (devset / "truth.jsonl").open(encoding="utf-8")]
    by_page: dict[str, list[dict[str, object]]] = collections.defaultdict(list)
    for row in rows:
        if row.get("truth_h2"):
            by_page[str(row["page"])].append(row)
    pages = []
    for name in sorted(by_page):
        article = qrelsmith.parse_article((devset / "pages_nolinks" / name).read_bytes(), path=name)
        excluded = {_plain(x.heading) for x in article.excluded}
        kept = [r for r in by_page[name] if _plain(str(r["truth_h2"])) not in excluded]
        anchors: dict[str, str] = {}
        for section in article.sections:  # a browser follows #id to its first element
            for anchor in section.anchors:
                anchors.setdefault(anchor, section.id)
        pages.append(Page(name, kept, article, anchors))
    return pages


# --------------------------------------------------------------------------- predictors
# Each takes a page and returns, per row, the predicted section ids (empty: abstained).

Predictor = Callable[[Page], list[list[str]]]


def _nospace(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).casefold())


def _headings(article: Article) -> list[tuple[str, str]]:
    """(section id, heading) for every H2 and subheading, in page order."""
    return [(s.id, h) for s in article.sections for h in (s.heading, *s.subheadings)]


def seed_method(page: Page) -> list[list[str]]:
    """The seed study's matcher: NFKC containment, then the best difflib ratio >= 0.5."""
    candidates = [(sid, _nospace(h)) for sid, h in _headings(page.article)]
    out = []
    for row in page.rows:
        reference = _nospace(str(row["row_text"]))
        hits = {sid for sid, h in candidates if reference == h} or {
            sid for sid, h in candidates if reference and (reference in h or h in reference)
        }
        if len(hits) == 1:
            out.append([hits.pop()])
            continue
        if hits or not reference or not candidates:
            out.append([])
            continue
        sid, best = max(
            candidates, key=lambda c: difflib.SequenceMatcher(None, reference, c[1]).ratio()
        )
        ok = difflib.SequenceMatcher(None, reference, best).ratio() >= 0.5
        out.append([sid] if ok else [])
    return out


def ratio_rules(page: Page) -> list[list[str]]:
    """qrelsmith's rules before the word-aware matcher: exact, contains, ratio >= 60 (margin 5)."""
    candidates = [(sid, heading_key(h)) for sid, h in _headings(page.article)]
    out = []
    for row in page.rows:
        key = heading_key(str(row["row_text"]))
        exact = {sid for sid, h in candidates if h == key}
        contained = {
            sid
            for sid, h in candidates
            if (len(key) >= 2 and key in h) or (h and h in key and len(h) >= 0.5 * len(key))
        }
        for found in (exact, contained):
            if found:
                out.append([found.pop()] if len(found) == 1 else [])
                break
        else:
            best: dict[str, float] = {}
            for sid, h in candidates:
                best[sid] = max(best.get(sid, 0.0), fuzz.ratio(key, h))
            ranked = sorted(best.items(), key=lambda item: -item[1])
            if (
                key
                and ranked
                and ranked[0][1] >= 60
                and (len(ranked) == 1 or ranked[0][1] - ranked[1][1] >= 5)
            ):
                out.append([ranked[0][0]])
            else:
                out.append([])
    return out


def per_reference(page: Page) -> list[list[str]]:
    """``qrelsmith.match_reference`` on each row alone."""
    index = HeadingIndex.from_article(page.article)
    return [index.match(str(row["row_text"]), ()).section_ids for row in page.rows]


def other_cells(row: dict[str, object]) -> tuple[str, ...]:
    """The row's cells other than the reference's own (query, answer): what score.py passes."""
    cells = row.get("cells") or []
    own, reference = row.get("cell_text"), row["row_text"]
    assert isinstance(cells, list)
    return tuple(str(c) for c in cells if c and c != own and c != reference)


def table_order(page: Page) -> list[list[str]]:
    """``qrelsmith.match_table`` on the page's rows together, in the page's order, with the
    rows' other cells (content evidence)."""
    rows = [(str(row["row_text"]), (), other_cells(row)) for row in page.rows]
    return [m.section_ids for m in qrelsmith.match_table(rows, page.article)]


PREDICTORS: dict[str, Predictor] = {
    "seed (containment, difflib >= 0.5)": seed_method,
    "ratio rules (before this matcher)": ratio_rules,
    "qrelsmith, per reference": per_reference,
    "qrelsmith, table order": table_order,
}


# --------------------------------------------------------------------------- scoring


def score(pages: Sequence[Page], predictor: Predictor, truth: str) -> Tally:
    """Tally one predictor against the ``link`` or ``heading`` truth."""
    tally = Tally()
    for page in pages:
        headings = {s.id: s.heading for s in page.article.sections}
        for row, predicted in zip(page.rows, predictor(page), strict=True):
            language = str(row["lang"])
            if not predicted:
                tally.add(language, "abstain")
                tally.misses.append(
                    f"ABSTAIN {page.name} {row['row_text']!r} want {row['truth_h2']!r}"
                )
                continue
            if truth == "link":
                ok = predicted == [page.section_of_anchor.get(str(row.get("truth_anchor")))]
            else:
                ok = len(predicted) == 1 and _plain(headings[predicted[0]]) == _plain(
                    str(row["truth_h2"])
                )
            tally.add(language, "right" if ok else "wrong")
            if not ok:
                got = [headings.get(p, p) for p in predicted]
                tally.misses.append(
                    f"WRONG {page.name} {row['row_text']!r} -> {got} want {row['truth_h2']!r}"
                )
    return tally


def table(results: dict[str, Tally]) -> str:
    """The side-by-side table: precision / coverage / right per language and overall."""
    columns = [*LANGUAGES, "all"]
    head = "| predictor | " + " | ".join(f"{c}: P / cov / right" for c in columns) + " |"
    lines = [head, "|---|" + "---:|" * len(columns)]
    for name, tally in results.items():
        cells = []
        for column in columns:
            precision, coverage, right, _ = tally.figures(column)
            cells.append(f"{precision:.1f} / {coverage:.1f} / {right:.1f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    rows = {c: results[next(iter(results))].figures(c)[3] for c in columns}
    lines.append("rows: " + ", ".join(f"{c} {n}" for c, n in rows.items()))
    return "\n".join(lines)


def timing(devset: Path, pages: Sequence[Page]) -> str:
    """Parsing against matching over the same pages, in one process, best of three."""
    raw = [(devset / "pages_nolinks" / p.name).read_bytes() for p in pages]
    parse_s = match_s = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for data, page in zip(raw, pages, strict=True):
            qrelsmith.parse_article(data, path=page.name, anchors=False)
        parse_s = min(parse_s, time.perf_counter() - start)
        start = time.perf_counter()
        for page in pages:
            table_order(page)
        match_s = min(match_s, time.perf_counter() - start)
    references = sum(len(p.rows) for p in pages)
    return (
        f"time over {len(pages)} pages, {references} references: parse {parse_s:.3f} s, "
        f"match (table order, index included) {match_s:.3f} s = {100 * match_s / parse_s:.0f}% "
        f"of parsing, {1000 * match_s / references:.2f} ms a reference"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("devset", nargs="?", type=Path, default=DEFAULT_DEVSET)
    parser.add_argument("--truth", choices=("link", "heading", "both"), default="both")
    parser.add_argument("--misses", action="store_true", help="list every wrong and abstained row")
    parser.add_argument(
        "--gate",
        nargs=2,
        type=float,
        metavar=("PRECISION", "RIGHT"),
        help="exit 1 when qrelsmith (per reference, link truth) falls below these percentages",
    )
    parser.add_argument(
        "--gate-table",
        nargs=2,
        type=float,
        metavar=("PRECISION", "RIGHT"),
        help="the same for qrelsmith in table order (the figure a build gets)",
    )
    parser.add_argument("--no-timing", action="store_true")
    args = parser.parse_args(argv)
    if not (args.devset / "truth.jsonl").is_file():
        print(f"error: no dev set at {args.devset} (truth.jsonl missing)", file=sys.stderr)
        return 2
    pages = load(args.devset)
    truths = ("link", "heading") if args.truth == "both" else (args.truth,)
    gate_tallies: dict[str, Tally] = {}
    for truth in truths:
        results = {name: score(pages, predictor, truth) for name, predictor in PREDICTORS.items()}
        print(f"\ntruth: {truth}\n" + table(results))
        if args.misses:
            for mode in ("qrelsmith, per reference", "qrelsmith, table order"):
                for line in results[mode].misses:
                    print(f"  [{mode.split(', ')[1]}] " + line)
        if truth == "link":
            gate_tallies = {
                "per reference": results["qrelsmith, per reference"],
                "table order": results["qrelsmith, table order"],
            }
    if not args.no_timing:
        print("\n" + timing(args.devset, pages))
    failed = False
    for mode, floors, predictor in (
        ("per reference", args.gate, per_reference),
        ("table order", args.gate_table, table_order),
    ):
        if not floors:
            continue
        tally = gate_tallies.get(mode) or score(pages, predictor, "link")
        precision, _, right, _ = tally.figures()
        floor_precision, floor_right = floors
        if precision < floor_precision or right < floor_right:
            print(
                f"FAIL {mode}: precision {precision:.2f}% (floor {floor_precision}), "
                f"right {right:.2f}% (floor {floor_right})",
                file=sys.stderr,
            )
            failed = True
        else:
            print(
                f"gate ok, {mode}: precision {precision:.2f}% >= {floor_precision}, "
                f"right {right:.2f}% >= {floor_right}"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
