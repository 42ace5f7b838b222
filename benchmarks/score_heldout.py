"""Score the labels on the held-out pages (benchmarks/heldout/: its README says what they are).

The pages are laid out per part in a temporary folder (``make_heldout.lay_out``). The rows whose
link names a heading are scored by the dev set's own scorer (``../shared/devset/score.py`` with
that folder as its DEVSET_DIR; with ``--semantic`` through ``score_semantic.py``), so the figures
mean what the dev set's mean: its last line per part is the table-order figure. score.py leaves
out the rows whose truth is no heading; here those are the rows the writers marked as answered
in another article, for which the right outcome is no label: this script adds their tally
(rejected / labelled), matching them as a build does (with the page's other rows, and knowing
which rows link to another page, which score.py does not pass). ``-v`` passes score.py's list of
every wrong and abstained row, and lists each labelled "elsewhere" row.

    python benchmarks/score_heldout.py                       # every part, and all pages
    python benchmarks/score_heldout.py --part sealed -v      # one part, row by row
    python benchmarks/score_heldout.py --semantic            # with the [semantic] encoder
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_matching import other_cells  # noqa: E402
from make_heldout import DEVSET, HELDOUT, lay_out  # noqa: E402

import qrelsmith  # noqa: E402
from qrelsmith.config import BuildOptions  # noqa: E402

HERE = Path(__file__).resolve().parent


def elsewhere_tally(folder: Path, options: BuildOptions, verbose: bool) -> tuple[int, int]:
    """(rejected, labelled) among the rows answered in another article, each page's rows
    matched together as a build matches its table."""
    pages: dict[str, list[dict[str, object]]] = collections.defaultdict(list)
    for line in (folder / "truth.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        pages[row["page"]].append(row)
    rejected = labelled = 0
    for page, rows in sorted(pages.items()):
        if not any(r["elsewhere"] for r in rows):
            continue
        article = qrelsmith.parse_article((folder / "pages_nolinks" / page).read_bytes(), path=page)
        heads = {s.id: s.heading for s in article.sections}
        table = [(str(r["row_text"]), (), other_cells(r)) for r in rows]
        offsite = [bool(r.get("offsite")) for r in rows]
        matches = qrelsmith.match_table(table, article, options, offsite)
        for row, match in zip(rows, matches, strict=True):
            if not row["elsewhere"]:
                continue
            if match.section_ids:
                labelled += 1
                if verbose:
                    got = ", ".join(heads.get(s, s) for s in match.section_ids)
                    print(f"WRONG elsewhere {page} {row['row_text']!r} -> {got!r} ({match.rule})")
            else:
                rejected += 1
    return rejected, labelled


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", help="one part of parts.json, or all (default: each, and all)")
    parser.add_argument("--semantic", action="store_true")
    parser.add_argument("-v", action="store_true", dest="verbose")
    parser.add_argument("--devset", type=Path, default=DEVSET, help="where score.py is")
    args = parser.parse_args()
    parts = json.loads((HELDOUT / "parts.json").read_text(encoding="utf-8"))
    names = [args.part] if args.part else [*parts, "all"]
    if any(name not in (*parts, "all") for name in names):
        parser.error(f"--part takes one of {', '.join((*parts, 'all'))}")
    script = HERE / "score_semantic.py" if args.semantic else args.devset / "score.py"
    status = 0
    with tempfile.TemporaryDirectory() as temporary:
        out = Path(temporary)
        for line in lay_out(HELDOUT / "raw", parts, out, args.devset):
            if line.startswith("left out"):
                print(line, file=sys.stderr)
        for name in names:
            print(f"== {name}", flush=True)
            command = [sys.executable, str(script), str(out / name)]
            result = subprocess.run([*command, *(["-v"] if args.verbose else [])], check=False)
            status = max(status, result.returncode)
            rejected, labelled = elsewhere_tally(
                out / name, BuildOptions(semantic=args.semantic), args.verbose
            )
            print(
                f"rows answered in another article: {rejected + labelled}, rejected "
                f"{rejected}, labelled (wrong) {labelled}",
                flush=True,
            )
    return status


if __name__ == "__main__":
    raise SystemExit(main())
