"""Precision of the optional semantic fallback (``--semantic``) on the dev set's rows it decides.

The rows are bench_matching's (``../shared/devset/``, links unwrapped, rows whose truth section
the build excludes left out), matched as a build matches a table (``qrelsmith.match_table``
with the rows' other cells); the rows that leaves unmatched or ambiguous go to
``semantic.resolve`` in one batch per page.
Truth is the link truth: the section holding the element the author linked to. Needs the
``[semantic]`` extra.

    python benchmarks/bench_semantic.py              # lexical, + semantic, the rows it decided
    python benchmarks/bench_semantic.py --sweep      # + precision and count by threshold and margin
    python benchmarks/bench_semantic.py --misses     # + every wrong row semantic decided
    python benchmarks/bench_semantic.py --why        # + why each row tried is left open
    python benchmarks/bench_semantic.py --half A     # one half of the sources (score.py's)
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_matching import DEFAULT_DEVSET, LANGUAGES, Page, load, other_cells  # noqa: E402

from qrelsmith import match_table  # noqa: E402
from qrelsmith.labelling import semantic  # noqa: E402
from qrelsmith.labelling.matching import HeadingIndex  # noqa: E402
from qrelsmith.labelling.matching.order import sections_between  # noqa: E402
from qrelsmith.labelling.semantic import SEMANTIC_REASONS, decide, section_similarities  # noqa: E402
from qrelsmith.models import Match  # noqa: E402

#: The dev set's halves for cross-validation, by source (``score.py --half``).
HALVES: dict[str, frozenset[str]] = {
    "A": frozenset({"cpp-ko", "aspnet-es"}),
    "B": frozenset({"vs-ja", "uwp-ko", "xamarin-es", "aspnet-ko"}),
}


def why_open(
    similarities: dict[str, float], allowed: set[str] | None, threshold: float, margin: float
) -> str:
    """Why the fallback leaves a row open (``semantic.decide``'s checks, first failing one
    first), or "taken"."""
    ranked = sorted(similarities.items(), key=lambda item: (-item[1], item[0]))
    if allowed is None:
        return "no order"
    if not ranked or ranked[0][1] < threshold:
        return "below threshold"
    if ranked[0][0] not in allowed:
        return "outside neighbours"
    if decide(similarities, allowed, threshold, margin) is None:
        return "within margin"
    return "taken"


def unresolved(page: Page) -> tuple[list[Match], list[int], list[set[str] | None]]:
    """The build's lexical decision per row (headings, order and content: ``match_table`` with
    the rows' other cells), the rows it leaves to the fallback, and per row the sections
    between its fixed neighbours (what the fallback's choice must agree with)."""
    rows = [(str(row["row_text"]), (), other_cells(row)) for row in page.rows]
    matches = match_table(rows, page.article)
    pending = [
        number
        for number, match in enumerate(matches)
        if not match.section_ids and match.reason in SEMANTIC_REASONS
    ]
    between = sections_between(HeadingIndex.from_article(page.article), matches)
    return list(matches), pending, between


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devset", type=Path, default=DEFAULT_DEVSET)
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--why", action="store_true")
    parser.add_argument("--half", choices=sorted(HALVES))
    args = parser.parse_args(argv)

    pages = load(args.devset)
    if args.half:
        pages = [p for p in pages if p.name.split("__")[0] in HALVES[args.half]]
    # lang, sims, truth, what, the sections between the row's fixed neighbours, and in a table
    # with no order what the encoder's own order decided
    tried: list[
        tuple[str, dict[str, float], str | None, str, set[str] | None, list[str] | None]
    ] = []
    lexical = collections.Counter[tuple[str, str]]()
    started = time.perf_counter()
    for page in pages:
        matches, pending, between = unresolved(page)
        decided = [m.section_ids for m in matches]
        # a table the rules give no order: the encoder's own clear choices, when they follow
        # the page (semantic.by_own_order)
        own: dict[int, list[str]] = {}
        if pending and all(allowed is None for allowed in between):
            references = [str(row["row_text"]) for row in page.rows]
            ordered = semantic.by_own_order(references, matches, page.article, pending)
            own = {n: ordered[n].section_ids for n in pending}
        scored = section_similarities(
            [str(page.rows[n]["row_text"]) for n in pending], page.article
        )
        for number, row in enumerate(page.rows):
            language = str(row["lang"])
            truth = page.section_of_anchor.get(str(row.get("truth_anchor")))
            if decided[number]:
                outcome = "right" if decided[number] == [truth] else "wrong"
            else:
                outcome = "abstain"
            for key in (language, "all"):
                lexical[(key, outcome)] += 1
        for number, similarities in zip(pending, scored, strict=True):
            row = page.rows[number]
            truth = page.section_of_anchor.get(str(row.get("truth_anchor")))
            what = f"{page.name} {row['row_text']!r} want {row['truth_h2']!r}"
            tried.append(
                (str(row["lang"]), similarities, truth, what, between[number], own.get(number))
            )
    seconds = time.perf_counter() - started

    def tally(threshold: float, margin: float) -> collections.Counter[tuple[str, str]]:
        counts = collections.Counter[tuple[str, str]]()
        for language, similarities, truth, _, allowed, _own in tried:
            match = decide(similarities, allowed, threshold, margin) if allowed else None
            if match is None:
                continue
            outcome = "right" if match.section_ids == [truth] else "wrong"
            counts[(language, outcome)] += 1
            counts[("all", outcome)] += 1
        return counts

    counts = collections.Counter[tuple[str, str]]()
    misses = []
    for language, similarities, truth, what, allowed, own in tried:
        match = decide(similarities, allowed) if allowed is not None else None
        section_ids = match.section_ids if match is not None else own or []
        if not section_ids:
            continue
        outcome = "right" if section_ids == [truth] else "wrong"
        counts[(language, outcome)] += 1
        counts[("all", outcome)] += 1
        if outcome == "wrong":
            misses.append(f"WRONG {what} got {section_ids}")

    print(
        f"semantic fallback (threshold {semantic.SEMANTIC_THRESHOLD}, margin "
        f"{semantic.SEMANTIC_MARGIN}) on the {len(tried)} rows the lexical rules leave "
        "unmatched or ambiguous (table order, link truth)"
    )
    print("| | " + " | ".join(f"{c}" for c in (*LANGUAGES, "all")) + " |")
    print("|---|" + "---:|" * (len(LANGUAGES) + 1))
    for name, table in (("lexical: P / cov / right", lexical), ("+ semantic", None)):
        cells = []
        for language in (*LANGUAGES, "all"):
            right = lexical[(language, "right")] + (
                counts[(language, "right")] if table is None else 0
            )
            wrong = lexical[(language, "wrong")] + (
                counts[(language, "wrong")] if table is None else 0
            )
            rows = sum(lexical[(language, o)] for o in ("right", "wrong", "abstain"))
            given = right + wrong
            cells.append(
                f"{100 * right / max(given, 1):.1f} / {100 * given / max(rows, 1):.1f} / "
                f"{100 * right / max(rows, 1):.1f}"
            )
        print(f"| {name} | " + " | ".join(cells) + " |")
    cells = []
    for language in (*LANGUAGES, "all"):
        right, wrong = counts[(language, "right")], counts[(language, "wrong")]
        tried_here = sum(1 for t in tried if language in ("all", t[0]))
        cells.append(f"{right}/{right + wrong} right of {tried_here} tried")
    print("| rows semantic decided | " + " | ".join(cells) + " |")
    print(f"encoder time (load + {len(pages)} pages' batches): {seconds:.1f} s")
    if args.sweep:
        print("\nthreshold margin: right/decided (precision)")
        for threshold in (0.3, 0.4, 0.5, 0.6, 0.7):
            line = []
            for margin in (0.0, 0.05, 0.1, 0.15, 0.2):
                swept = tally(threshold, margin)
                right, wrong = swept[("all", "right")], swept[("all", "wrong")]
                line.append(f"{margin:.2f}: {right}/{right + wrong}")
            print(f"  {threshold:.1f}  " + "  ".join(line))
    if args.why:
        print("\nwhy the rows tried are left open: rows (the encoder's first is the truth)")
        why = collections.Counter[tuple[str, bool]]()
        for _, similarities, truth, _, allowed, own in tried:
            first = min(similarities.items(), key=lambda item: (-item[1], item[0]), default=None)
            reason = (
                "taken by the table's own order"
                if own
                else why_open(
                    similarities, allowed, semantic.SEMANTIC_THRESHOLD, semantic.SEMANTIC_MARGIN
                )
            )
            why[(reason, first is not None and first[0] == truth)] += 1
        for reason in (
            "taken",
            "taken by the table's own order",
            "no order",
            "below threshold",
            "outside neighbours",
            "within margin",
        ):
            right = why[(reason, True)]
            print(f"  {reason}: {right + why[(reason, False)]} ({right})")
    if args.misses:
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
