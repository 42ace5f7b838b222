"""Answer evidence (evidence.py) on the dev set's table rows: spans, and what answer-elsewhere says.

The dev set's build gives few answers (most of its tables have no answer column), so this reads
the rows as bench_matching does: each row of a table with other cells, labelled as a build
labels a table (``HeadingIndex.match_rows``), its other cells taken in turn as the answer. For
the rows given one section it counts the spans found, how many lie in the labelled section,
and the rows marked ``answer-elsewhere`` — with how many of those labels are wrong by the link
truth (a useful mark finds wrong labels far above the base rate) and how often the marked
section is the right one.

    python benchmarks/bench_evidence.py
    python benchmarks/bench_evidence.py --marks      # + every answer-elsewhere row
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_matching import DEFAULT_DEVSET, load  # noqa: E402

from qrelsmith.labelling.evidence import ArticleText, find_evidence  # noqa: E402
from qrelsmith.labelling.matching import HeadingIndex  # noqa: E402
from qrelsmith.text import squashed  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devset", type=Path, default=DEFAULT_DEVSET)
    parser.add_argument("--marks", action="store_true")
    args = parser.parse_args(argv)

    pages = load(args.devset)
    labels = answers = spans = own = 0
    wrong_labels = marked = marked_wrong = marked_right_section = 0
    marks: list[str] = []
    seconds = 0.0
    for page in pages:
        index = HeadingIndex.from_article(page.article)
        matches = index.match_rows([(str(row["row_text"]), ()) for row in page.rows])
        text = ArticleText(page.article.sections)
        by_id = {s.id: s for s in page.article.sections}
        for row, match in zip(page.rows, matches, strict=True):
            if len(match.section_ids) != 1:
                continue
            labels += 1
            truth = page.section_of_anchor.get(str(row.get("truth_anchor")))
            wrong = match.section_ids != [truth]
            wrong_labels += wrong
            reference = squashed(str(row["row_text"]))
            cells = [str(c) for c in row.get("cells") or [] if squashed(str(c)) != reference]
            labelled = [by_id[match.section_ids[0]]]
            others = [s for s in page.article.sections if s.id != match.section_ids[0]]
            for cell in cells:
                if not cell.strip():
                    continue
                answers += 1
                started = time.perf_counter()
                evidence, elsewhere = find_evidence(cell, labelled, others, text)
                seconds += time.perf_counter() - started
                if evidence is None:
                    continue
                spans += 1
                own += evidence.section == labelled[0].id
                if elsewhere:
                    marked += 1
                    marked_wrong += wrong
                    marked_right_section += evidence.section == truth
                    marks.append(
                        f"{'WRONG' if wrong else 'right'} label {page.name} "
                        f"{row['row_text']!r}: answer {cell[:60]!r} found in "
                        f"{by_id[evidence.section].heading!r}, truth {row['truth_h2']!r}"
                    )
    print(
        f"{labels} rows given one section ({wrong_labels} wrong by link truth, "
        f"{100 * wrong_labels / max(labels, 1):.1f}%); {answers} other cells read as answers"
    )
    print(
        f"spans: {spans} of {answers} cells ({100 * spans / max(answers, 1):.1f}%), "
        f"{own} in the labelled section ({100 * own / max(spans, 1):.1f}% of the spans)"
    )
    print(
        f"answer-elsewhere: {marked} cells; {marked_wrong} of them on wrong labels; "
        f"the marked section is the right one for {marked_right_section}"
    )
    print(
        f"evidence time: {1000 * seconds:.1f} ms ({1000 * seconds / max(answers, 1):.2f} ms a cell)"
    )
    if args.marks:
        print("\n".join(marks))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
