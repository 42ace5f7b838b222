"""``qrelsmith export KIND DIR --out OUT``: a build in another ecosystem's layout (``hf``)."""

from __future__ import annotations

import argparse
import os
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..audit.apply import read_review, versions
from ..buildfolder import load_build, read_document
from ..errors import DataError, UsageError
from ..export.hf import FORMATS, CardFacts, write_hf
from ..layout import GOLDEN, REPORT, VERSIONS_FOLDER
from ..models import Report, ReviewSummary
from .options import FORMATTER, say

HF_EPILOG = """examples:
  qrelsmith export hf out --out out-hf --license cc-by-4.0 --language ja --language en
  qrelsmith export hf out/versions/v1 --out out-hf --license mit --language en --format jsonl

Writes the layout MTEB's retrieval tasks load from the Hugging Face Hub or a folder: configs
corpus, queries and default (the qrels), each with a test split, as Parquet (needs
pip install 'qrelsmith[hf]') or JSON lines, and README.md, the dataset card: YAML header
(title, configs, languages, the licence you state, size category) and how the labels were
made, from report.json, with the review's precision when a review of these labels was
applied. Give a version folder (versions/vN) to export the reviewed labels. OUT is replaced
whole (its other entries, such as .git, kept). Load it with
datasets.load_dataset("out-hf", "corpus", split="test"), or push it with
huggingface-cli upload."""

#: Language codes as the Hub's card metadata takes them (ISO 639-1/639-3, optional region).
_LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")
#: A licence id, SPDX's or the Hub's (cc-by-4.0, mit, apache-2.0, openrail++, other): one token.
_LICENSE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+-]*$")


def register(subparsers: Any) -> None:  # argparse._SubParsersAction
    """Add ``export`` and its kinds (``EXPORT_KINDS``)."""
    export = subparsers.add_parser(
        "export",
        help="write a build in another ecosystem's layout (Hugging Face / MTEB)",
        description="Write a build in another ecosystem's layout.",
        epilog="example:\n  qrelsmith export hf out --out out-hf --license cc-by-4.0 --language en",
        formatter_class=FORMATTER,
    )
    kinds = export.add_subparsers(dest="export_kind", metavar="KIND", required=True)
    for name, (add, _) in EXPORT_KINDS.items():
        add(kinds, name)


def _add_hf(kinds: Any, name: str) -> None:
    parser = kinds.add_parser(
        name,
        help="Hugging Face dataset for MTEB: corpus, queries, qrels and a dataset card",
        description="Write a build as a Hugging Face dataset in MTEB's retrieval layout.",
        epilog=HF_EPILOG,
        formatter_class=FORMATTER,
    )
    parser.add_argument("dir", type=Path, metavar="DIR", help="a build folder or versions/vN")
    parser.add_argument("--out", "-o", required=True, type=Path, metavar="OUT", help="folder")
    parser.add_argument(
        "--license",
        required=True,
        metavar="ID",
        help="the dataset's licence as an SPDX or Hub licence id (cc-by-4.0, mit, other ...; "
        "one word): stated by you, never guessed from the pages",
    )
    parser.add_argument(
        "--language",
        required=True,
        action="append",
        metavar="CODE",
        help="a language of the pages (ISO 639-1, e.g. en); repeat for each",
    )
    parser.add_argument("--format", choices=FORMATS, default="parquet", help="default: parquet")
    parser.add_argument(
        "--name",
        help="the card's title, on one line (default: the build folder's name)",
    )
    parser.set_defaults(func=run_hf)


def _review(root: Path, version: str | None, golden_sha256: str) -> ReviewSummary | None:
    """The review the card reports: the exported version's own (the review that made it),
    else (the build's own labels) the latest review of the build's current golden.jsonl. A
    review of an earlier build into the same folder measured other labels: none applies."""
    if version:
        return read_review(root / VERSIONS_FOLDER / version)
    reviews = [
        review
        for folder in versions(root)
        if (review := read_review(folder)) and review.golden_sha256 == golden_sha256
    ]
    return reviews[-1] if reviews else None


def title(name: str | None) -> str:
    """The card's title on one line: whitespace (newlines included) folded to single spaces,
    control characters dropped, undecodable bytes of the command line shown as '?'."""
    folded = " ".join((name or "").split())
    folded = "".join(ch for ch in folded if unicodedata.category(ch) != "Cc")
    return folded.encode("utf-8", "replace").decode("utf-8")


def check_out(out: Path, source: Path) -> None:
    """UsageError for an ``--out`` that cannot be the dataset folder: a file, or the folder
    exported (or one holding it), which the swap of the export would replace."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder: give the dataset's folder")
    where, real = Path(os.path.realpath(out)), Path(os.path.realpath(source))
    if where == real or where in real.parents:
        raise UsageError(
            f"--out {out} is the folder exported ({source}) or holds it: give another folder"
        )


def run_hf(args: argparse.Namespace) -> int:
    """``export hf``."""
    bad = [code for code in args.language if not _LANGUAGE.match(code)]
    if bad:
        raise UsageError(f"--language {bad[0]!r} is not a language code such as en, ja or pt-BR")
    if not _LICENSE.match(args.license):
        raise UsageError(
            f"--license {args.license!r} is not a licence id such as cc-by-4.0, mit or other "
            "(one word of letters, digits, '.', '-', '+')"
        )
    check_out(args.out, args.dir)
    build = load_build(args.dir)
    if not build.queries:  # a dataset of documents and no question is no test set
        raise DataError(f"{build.folder / GOLDEN}: no queries to export")
    folder = build.folder
    version = folder.name if folder.parent.name == VERSIONS_FOLDER else None
    root = folder.parent.parent if version else folder
    if not (root / REPORT).is_file():
        raise DataError(f"no {REPORT} in {root}: the card states how the labels were made from it")
    facts = CardFacts(
        name=title(args.name) or title(root.resolve().name),
        license=args.license,
        languages=list(dict.fromkeys(args.language)),
        report=read_document(root / REPORT, Report, "a build report"),
        review=_review(root, version, build.golden_sha256),
        reviewed_version=version,
    )
    counts = write_hf(args.out, build.corpus, build.queries, facts, args.format)
    say(
        f"wrote {args.out}: corpus {counts['corpus']}, queries {counts['queries']}, "
        f"qrels {counts['default']} ({args.format}), README.md"
    )
    return 0


#: Export kinds: name -> (adds its subcommand, runs it).
EXPORT_KINDS: dict[str, tuple[Callable[[Any, str], None], Callable[[argparse.Namespace], int]]] = {
    "hf": (_add_hf, run_hf),
}
