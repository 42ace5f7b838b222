"""Write a retrieval set from the dev set's truth: real pages, real queries, the author's links as
the labels -- for `baseline` and `eval` on something closer to the study's set than generated
text (docs/retrievers.md reproduces the study's tables on it).

The corpus is a qrelsmith build of the dev set's ``pages_nolinks/`` (its corpus.jsonl, copied).
Each row of ``truth.jsonl`` becomes a query: its ``query`` text (the row's other cells, or the
list item's text) with the section the author's link points to as grade 2 and the rest of that
article's sections as grade 1, as a build labels them. The truth section is found as the dev
set's own ``score.py`` finds it (its ``outline``: the H2 that holds the linked heading, counted
as the project's ids count them); rows whose truth is no corpus section (an excluded section, a
heading above the first H2, an anchor naming no heading) are left out, as score.py leaves them.

    PYTHONPATH=src python -m qrelsmith build /work/shared/devset/pages_nolinks --out /tmp/dev-build
    PYTHONPATH=src python benchmarks/make_devset_set.py --devset /work/shared/devset \\
        --build /tmp/dev-build --out /tmp/devset-set
"""

from __future__ import annotations

import argparse
import json
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any


def score_helpers(devset: Path) -> dict[str, Any]:
    """score.py's definitions above its first matcher (``outline``, ``ABOVE``): the part of
    the script that reads where a link points, run without its scoring."""
    source = (devset / "score.py").read_text(encoding="utf-8")
    source = source[: source.index("def seed_parse")]
    names: dict[str, Any] = {"__file__": str(devset / "score.py"), "__name__": "score"}
    import sys

    argv, sys.argv = sys.argv, [str(devset / "score.py"), str(devset)]
    try:
        exec(compile(source, "score.py", "exec"), names)  # noqa: S102 (the dev set's own code)
    finally:
        sys.argv = argv
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devset", required=True, type=Path)
    parser.add_argument("--build", required=True, type=Path, help="a build of pages_nolinks/")
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args()
    helpers = score_helpers(args.devset)
    outline, above = helpers["outline"], helpers["ABOVE"]
    sections: dict[str, list[str]] = defaultdict(list)
    with open(args.build / "corpus.jsonl", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            sections[record["article_id"]].append(record["id"])
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with open(args.devset / "truth.jsonl", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            rows[row["page"]].append(row)
    args.out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(args.build / "corpus.jsonl", args.out / "corpus.jsonl")
    kept = left = 0
    with (
        open(args.out / "queries.tsv", "w", encoding="utf-8") as queries,
        open(args.out / "qrels.trec", "w", encoding="utf-8") as qrels,
    ):
        for page, page_rows in sorted(rows.items()):
            _, _, heading_at = outline((args.devset / "pages_nolinks" / page).read_bytes())
            for number, row in enumerate(page_rows):
                at, _ = heading_at.get(row.get("truth_anchor"), (None, ""))
                target = f"{page}#{at}"
                text = " ".join(row["query"].split())
                if at is None or at == above or target not in sections[page] or not text:
                    left += 1
                    continue
                qid = f"{page}#t{number}"
                queries.write(f"{qid}\t{text}\n")
                for section in sections[page]:
                    qrels.write(f"{qid} 0 {section} {2 if section == target else 1}\n")
                kept += 1
    count = sum(map(len, sections.values()))
    print(f"{kept} queries ({left} rows left out), {count} sections -> {args.out}")


if __name__ == "__main__":
    main()
