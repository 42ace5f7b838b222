"""``qrelsmith export KIND DIR --out OUT``: a build in another tool's layout.

The kinds, their help and their own options come from ``export.EXPORT_KINDS``; this module
only turns them into subcommands and reads the build folder.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..export import EXPORT_KINDS, export
from ..export.records import ExportKind, export_source
from ..store.buildfolder import load_build
from ..store.owners import refuse_foreign
from ..store.versions import latest_review
from .options import FORMATTER, refuse_input_as_output, say


def register(subparsers: Any) -> None:  # argparse._SubParsersAction
    """Add ``export`` and its kinds (``EXPORT_KINDS``)."""
    export_parser = subparsers.add_parser(
        "export",
        help="write a build in another tool's layout (Hugging Face / MTEB, Pyserini, Ragas, "
        "DeepEval, LlamaIndex, AutoRAG, ir_datasets)",
        description="Write a build in another tool's layout.",
        epilog="examples:\n  qrelsmith export hf out --out out-hf --license cc-by-4.0 --language en"
        "\n  qrelsmith export pyserini out --out out-pyserini",
        formatter_class=FORMATTER,
    )
    kinds = export_parser.add_subparsers(dest="export_kind", metavar="KIND", required=True)
    for name, kind in EXPORT_KINDS.items():
        _register_kind(kinds, name, kind)


def _register_kind(kinds: Any, name: str, kind: ExportKind) -> None:
    parser = kinds.add_parser(
        name,
        help=kind.help,
        description=kind.description,
        epilog=kind.epilog,
        formatter_class=FORMATTER,
    )
    parser.add_argument("dir", type=Path, metavar="DIR", help="a build folder or versions/vN")
    parser.add_argument("--out", "-o", required=True, type=Path, metavar="OUT", help="folder")
    parser.add_argument(
        "--ascii-ids",
        action="store_true",
        help="ids in printable ASCII: non-ASCII characters and '%%' percent-encoded (UTF-8; "
        "urllib.parse.unquote reverses it), for tools that read files in the locale's encoding",
    )
    for option in kind.options:
        extra: dict[str, Any] = {"required": option.required, "help": option.help}
        if option.repeat:
            extra["action"] = "append"
        if option.choices:
            extra["choices"] = option.choices
        if option.default is not None:
            extra["default"] = option.default
        if option.metavar:
            extra["metavar"] = option.metavar
        parser.add_argument(option.flag, **extra)
    parser.set_defaults(func=run_export)


def check_out(out: Path, source: Path) -> None:
    """UsageError for an ``--out`` that cannot be the dataset folder: a file, or the folder
    exported (or one holding it), which the swap of the export would replace."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder: give the dataset's folder")
    refuse_input_as_output(
        out,
        [source],
        lambda source: (
            f"--out {out} is the folder exported ({source}) or holds it: give another folder"
        ),
        holding=True,
    )


def run_export(args: argparse.Namespace) -> int:
    """``export KIND``."""
    kind = EXPORT_KINDS[args.export_kind]
    check_out(args.out, args.dir)
    refuse_foreign(args.out, f"export {args.export_kind}")
    build = load_build(args.dir)
    source = export_source(
        build,
        options={option.dest: getattr(args, option.dest) for option in kind.options},
        ascii_ids=args.ascii_ids,
    )
    if build.queries:  # the review that measured these labels, for the card
        review = latest_review(source.root, source.version, build.golden_sha256)
        source = replace(source, review=review)
    say(f"wrote {args.out}: {export(args.export_kind, args.out, source)}")
    return 0
