"""The dev set's scorer (``../shared/devset/score.py``) with the semantic fallback on.

score.py calls ``qrelsmith.match_table(rows, article)`` with the default options; this runs
the same script, unchanged, with ``match_table`` given ``semantic = true`` (the ``[semantic]``
extra), so both halves' figures with and without ``--semantic`` come from one scorer:

    python benchmarks/score_semantic.py --half A -v      # any score.py arguments
"""

from __future__ import annotations

import functools
import runpy
import sys
from pathlib import Path

import qrelsmith
from qrelsmith.config import BuildOptions

SCORER = Path(__file__).resolve().parents[2] / "shared" / "devset" / "score.py"


def main() -> None:
    """Run score.py with the semantic fallback on, passing it this script's arguments."""
    qrelsmith.match_table = functools.partial(  # type: ignore[assignment]
        qrelsmith.match_table, options=BuildOptions(semantic=True)
    )
    sys.argv = [str(SCORER), *sys.argv[1:]]
    runpy.run_path(str(SCORER), run_name="__main__")


if __name__ == "__main__":
    main()
