"""samples/site a month later: five edits a docs team makes (the README's `qrelsmith diff`
walkthrough; tests/test_diff.py builds the same site).

    python samples/make_site_june.py site-june      # then: qrelsmith build site-june --out out-june
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent / "site"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    if old not in text:
        raise SystemExit(f"error: {path}: the text to edit is not there: {old!r}")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def make_site_june(sample: Path, site: Path) -> Path:
    """A copy of ``sample`` at ``site`` with the five edits; returns ``site``."""
    shutil.copytree(sample, site)
    joins = site / "en" / "sql-joins.html"
    # 1. A section inserted at the top: every later section is renumbered, nothing else.
    edit(
        joins,
        '<h2 id="sec-1">INNER JOIN</h2>',
        '<h2 id="sec-0">Sample tables</h2>\n  <p>Two tables, customers and orders, are used throughout.</p>\n  <h2 id="sec-1">INNER JOIN</h2>',
    )
    # 2. The text of a labelled section changes (row q3 names "anti-join").
    edit(
        joins,
        '<h2 id="sec-6">Finding rows with no match (anti-join)</h2>',
        '<h2 id="sec-6">Finding rows with no match (anti-join)</h2>\n  <p>Since version 16 the planner turns NOT IN into an anti-join as well.</p>',
    )
    # 3. A question is reworded (q4).
    edit(joins, "Every combination of sizes and colours", "Every pair of a size and a colour")
    # 4. A row's reference now names another section (q1): the label moves.
    edit(joins, "<td>LEFT JOIN and RIGHT JOIN</td></tr>", "<td>FULL OUTER JOIN</td></tr>")
    # 5. A new row (q5), and an article removed.
    edit(
        joins,
        "<td>CROSS JOIN and self joins</td></tr>",
        "<td>CROSS JOIN and self joins</td></tr>\n      <tr><td>Keep unmatched rows of both tables</td><td>A full outer join</td><td>FULL OUTER JOIN</td></tr>",
    )
    (site / "es" / "git-stash.html").unlink()
    return site


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python samples/make_site_june.py OUT_FOLDER")
    print(make_site_june(SAMPLE, Path(sys.argv[1])))
