"""A build as a Hugging Face dataset in MTEB's retrieval layout, with its dataset card.

Three configs, each with one ``test`` split, as MTEB's retrieval loader reads them from the Hub
or a folder: ``corpus`` (``_id``, ``title``, ``text``; title = heading), ``queries`` (``_id``,
``text``) and ``default``, the qrels (``query-id``, ``corpus-id``, ``score``: 2 the named
section, 1 the rest of its article). Parquet (pyarrow, the ``[hf]`` extra) or JSON lines (no
extra). ``README.md`` is the dataset card: YAML header (configs, languages, the licence the
user states, size category, task) and a body that says how the labels were made, from
report.json and, when a review was applied, its precision, and -- when report.json has its
``overlap`` block -- how much of each query's words its sections hold. Nothing of this is
imported by ``build``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import DataError, UsageError
from ..labelling.overlap import queries_overlap
from ..models import OverlapReport, Report, ReviewSummary
from ..store.files import atomic_open_bytes, write_jsonl, write_text
from ..store.formats.goldenset import GoldenSet
from ..store.layout import REPORT
from .records import ExportSource

FORMATS = ("parquet", "jsonl")
SPLIT = "test"
CARD = "README.md"

#: config name -> folder; "default" holds the qrels, as MTEB's loader expects.
CONFIG_FOLDERS = {"corpus": "corpus", "queries": "queries", "default": "qrels"}

#: The entries of the dataset folder an export writes; any other (a Hub clone's .git and
#: .gitattributes, the user's own files) is carried over when the export is redone.
OWN_ENTRIES = frozenset({CARD, *CONFIG_FOLDERS.values()})

#: The Hub's size categories (upper bounds of the number of examples) as its card tags say them.
SIZE_CATEGORIES: tuple[tuple[int, str], ...] = (
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
    (100_000_000, "10M<n<100M"),
)


@dataclass(frozen=True)
class CardFacts:
    """What the card states that the records do not hold."""

    name: str
    license: str
    languages: Sequence[str]
    report: Report
    review: ReviewSummary | None = None
    reviewed_version: str | None = None
    #: the queries' word overlap: report.json's, or a reviewed version's own
    overlap: OverlapReport | None = None


def size_category(count: int) -> str:
    """The Hub's ``size_categories`` tag for ``count`` examples."""
    for bound, name in SIZE_CATEGORIES:
        if count < bound:
            return name
    return "n>100M"


def tables(records: GoldenSet) -> dict[str, list[dict[str, object]]]:
    """The rows of each config, in build order (the qrels: the set's shared graded rows)."""
    return {
        "corpus": [{"_id": r.id, "title": r.heading, "text": r.text} for r in records.corpus],
        "queries": [{"_id": q.qid, "text": q.query} for q in records.queries],
        "default": [
            {"query-id": qid, "corpus-id": doc, "score": grade} for qid, doc, grade in records.rows
        ],
    }


def data_path(config: str, fmt: str) -> str:
    """Where a config's test split lives, relative to the dataset folder."""
    return f"{CONFIG_FOLDERS[config]}/{SPLIT}.{fmt}"


#: Characters YAML does not allow unescaped (DEL, C1 controls but NEL, U+FFFE, U+FFFF); JSON
#: escapes the C0 controls itself.
_YAML_UNPRINTABLE = re.compile(r"[\x7f-\x84\x86-\x9f\ufffe\uffff]")


def _yaml(value: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar once the characters YAML wants
    # escaped are: no YAML library needed. One line whatever the value holds.
    quoted = json.dumps(value, ensure_ascii=False)
    return _YAML_UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def card_metadata(facts: CardFacts, fmt: str, counts: dict[str, int]) -> dict[str, object]:
    """The card's YAML header as data, in the order the Hub's ``DatasetCardData`` writes it."""
    return {
        "language": list(facts.languages),
        "license": facts.license,
        "multilinguality": "multilingual" if len(facts.languages) > 1 else "monolingual",
        "size_categories": [size_category(counts["corpus"])],
        "task_categories": ["text-retrieval"],
        "task_ids": ["document-retrieval"],
        "pretty_name": facts.name,
        "tags": ["mteb", "qrelsmith"],
        "configs": [
            {
                "config_name": config,
                "data_files": [{"split": SPLIT, "path": data_path(config, fmt)}],
            }
            for config in ("corpus", "queries", "default")
        ],
    }


def card_header(metadata: dict[str, object]) -> str:
    """The YAML header, through huggingface_hub's ``DatasetCardData`` when it is installed
    (the [hf] extra), so that it keeps to the Hub's own model; else written here, every
    free-text value JSON-quoted. Both read back as the same YAML."""
    try:
        from huggingface_hub import DatasetCardData
    except ImportError:
        return _plain_header(metadata)
    return str(DatasetCardData(**metadata).to_yaml())  # type: ignore[arg-type]


def _plain_header(metadata: dict[str, object]) -> str:
    languages = metadata["language"]
    assert isinstance(languages, list)
    lines = ["language:", *(f"- {_yaml(code)}" for code in languages)]
    lines += [
        f"license: {_yaml(str(metadata['license']))}",
        f"multilinguality: {metadata['multilinguality']}",
    ]
    for key in ("size_categories", "task_categories", "task_ids"):
        values = metadata[key]
        assert isinstance(values, list)
        lines += [f"{key}:", *(f"- {value}" for value in values)]
    lines.append(f"pretty_name: {_yaml(str(metadata['pretty_name']))}")
    lines += ["tags:", "- mteb", "- qrelsmith", "configs:"]
    configs = metadata["configs"]
    assert isinstance(configs, list)
    for config in configs:
        (data_file,) = config["data_files"]
        lines += [
            f"- config_name: {config['config_name']}",
            "  data_files:",
            f"  - split: {data_file['split']}",
            f"    path: {data_file['path']}",
        ]
    return "\n".join(lines) + "\n"


def difficulty(overlap: OverlapReport | None) -> list[str]:
    """The card's "Difficulty" section from report.json's ``overlap`` (none for an older build
    that has no such block): quartiles and band counts of the heading and text shares."""
    if overlap is None:
        return []
    shares = {"heading": overlap.heading, "text": overlap.text}
    bands = list(overlap.heading.bands)
    rows = [
        f"| {name} | {s.q1:.3f} | {s.median:.3f} | {s.q3:.3f} | "
        + " | ".join(str(s.bands.get(band, 0)) for band in bands)
        + " |"
        for name, s in shares.items()
    ]
    return [
        "## Difficulty",
        "",
        f"For each of the {overlap.queries} queries with a comparable word "
        f"({overlap.without_units} without one), the share of its distinct words (light "
        "stems; CJK and Hangul bigrams) found in the heading and in the text of its labelled "
        "sections: quartiles, and queries per band (none = 0, few < 1/3, some < 2/3, most < 1, "
        "all = 1).",
        "",
        "| share in | q1 | median | q3 | " + " | ".join(bands) + " |",
        "|---|---|---|---|" + "---|" * len(bands),
        *rows,
        "",
        "Authors write their questions with their own section's words, so the queries in the "
        "low bands are the ones that separate dense retrievers from word-matching ones: "
        "`qrelsmith eval --by overlap` and `--subset hard` evaluate them apart.",
        "",
    ]


def card(facts: CardFacts, fmt: str, counts: dict[str, int]) -> str:
    """The dataset card: YAML header and how the labels were made."""
    report = facts.report
    header = ["---", card_header(card_metadata(facts, fmt, counts)).rstrip("\n"), "---"]
    c = report.counts
    rules = ", ".join(f"{rule} {n}" for rule, n in c.by_match.items())
    body = [
        f"# {facts.name}",
        "",
        "A graded retrieval test set made with qrelsmith from the quick-reference tables that "
        "the authors of the pages wrote near their top (question | answer | section). Each "
        "table row is a query; the section the author named is its answer.",
        "",
        "## Data",
        "",
        f"- `corpus` ({counts['corpus']} documents): one section of a page (split at "
        "H2; code, FAQ, summary and reference sections left out); `title` is the heading.",
        f"- `queries` ({counts['queries']} queries): the question column of the tables.",
        f"- `default` ({counts['default']} judgements): the qrels, `score` 2 for the "
        "section(s) the author named, 1 for every other section of the same page; sections "
        "of other pages are unjudged (not known to be irrelevant).",
        f"- Split: `{SPLIT}` only. Format: {fmt}.",
        "",
        "## How the labels were made",
        "",
        f"{c.articles} pages, {c.rows} quick-reference rows; {c.queries} became queries and "
        f"{c.rejected} were rejected (no heading close enough, two headings tied, a vague or "
        f"empty reference). Each row's reference was matched to a heading by one of these "
        f"rules, strongest first: {rules} (anchor: an in-page link; exact: equal after "
        "normalisation; contains; fuzzy: word-aware similarity; order: the table's order "
        "decided).",
        "",
    ]
    if report.sources is not None:
        found = "; ".join(
            f"{kind}: {n.queries} queries of {n.candidates} found"
            for kind, n in report.sources.items()
        )
        body += [
            f"Queries by source: {found}. A FAQ question (source `faq`) in a page's FAQ "
            "section is labelled to the body section that holds its answer (rule faq-body); "
            "on a FAQ page or in FAQPage markup each answer is a document of its own, without "
            "its question (rule faq-page).",
            "",
        ]
    if facts.review is not None and facts.review.precision is not None:
        overall = facts.review.precision.overall
        where = (
            f"the corrections were applied (version `{facts.reviewed_version}`)"
            if facts.reviewed_version
            else "the labels here are the build's own, before its corrections"
        )
        body += [
            f"A reviewer checked a stratified sample: label precision {overall.value:.3f}, "
            f"95% Wilson interval [{overall.low:.3f}, {overall.high:.3f}] ({overall.n} rows "
            f"decided, weighted by sampling weight); {facts.review.changes} labels corrected "
            f"or flagged; {where}.",
            "",
        ]
    else:
        body += [
            "No human review was applied: the label precision is not measured.",
            "",
        ]
    body += [
        f"Built by {report.manifest.tool} {report.manifest.version}; inputs sha256 "
        f"`{report.manifest.inputs_sha256}`.",
        "",
        *difficulty(facts.overlap),
        "## Licence",
        "",
        f"`{facts.license}`, as stated by the publisher of this dataset.",
        "",
    ]
    return "\n".join(header) + "\n" + "\n".join(body)


def _write_parquet(path: Path, rows: list[dict[str, object]], config: str) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise UsageError(
            "Parquet needs pyarrow: pip install 'qrelsmith[hf]', or use --format jsonl"
        ) from exc
    schemas = {
        "corpus": pa.schema([("_id", pa.string()), ("title", pa.string()), ("text", pa.string())]),
        "queries": pa.schema([("_id", pa.string()), ("text", pa.string())]),
        "default": pa.schema(
            [("query-id", pa.string()), ("corpus-id", pa.string()), ("score", pa.int32())]
        ),
    }
    table = pa.Table.from_pylist(rows, schema=schemas[config])
    with atomic_open_bytes(path) as handle:
        pq.write_table(table, handle, compression="zstd")


#: Language codes as the Hub's card metadata takes them (ISO 639-1/639-3, optional region).
_LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")
#: A licence id, SPDX's or the Hub's (cc-by-4.0, mit, apache-2.0, openrail++, other): one token.
_LICENSE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+-]*$")


def title(name: str | None) -> str:
    """The card's title on one line: whitespace (newlines included) folded to single spaces,
    control characters dropped, undecodable bytes of the command line shown as '?'."""
    folded = " ".join((name or "").split())
    folded = "".join(ch for ch in folded if unicodedata.category(ch) != "Cc")
    return folded.encode("utf-8", "replace").decode("utf-8")


def facts_of(source: ExportSource) -> CardFacts:
    """The card's facts from the export's options (``license``, ``language``, ``name``) and
    the build's report and review; UsageError for a licence or language code that is none."""
    options = source.options
    languages = list(options.get("language") or [])
    bad = [code for code in languages if not _LANGUAGE.match(code)]
    if bad:
        raise UsageError(f"--language {bad[0]!r} is not a language code such as en, ja or pt-BR")
    license = str(options.get("license") or "")
    if not _LICENSE.match(license):
        raise UsageError(
            f"--license {license!r} is not a licence id such as cc-by-4.0, mit or other "
            "(one word of letters, digits, '.', '-', '+')"
        )
    if source.report is None:
        raise DataError(
            f"no {REPORT} in {source.root}: the card states how the labels were made from it"
        )
    return CardFacts(
        name=title(options.get("name")) or title(source.root.resolve().name),
        license=license,
        languages=list(dict.fromkeys(languages)),
        report=source.report,
        review=source.review,
        reviewed_version=source.version,
        overlap=source.report.overlap
        if source.version is None
        else queries_overlap(source.queries),
    )


def write(folder: Path, source: ExportSource) -> str:
    """The three configs and the card; returns the summary's counts."""
    fmt = str(source.options.get("format") or "parquet")
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r} (use {' or '.join(FORMATS)})")
    facts = facts_of(source)
    data = tables(source.records)
    for config, rows in data.items():
        target = folder / data_path(config, fmt)
        if fmt == "jsonl":
            write_jsonl(target, rows)
        else:
            _write_parquet(target, rows, config)
    counts = {config: len(rows) for config, rows in data.items()}
    write_text(folder / CARD, card(facts, fmt, counts))
    return (
        f"corpus {counts['corpus']}, queries {counts['queries']}, "
        f"qrels {counts['default']} ({fmt}), README.md"
    )
