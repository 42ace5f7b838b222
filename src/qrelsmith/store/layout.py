"""The build folder's contract: every file and folder name of a build, and the id grammar.

The one place these are spelled; every stage that writes or reads a build names its files
through these constants, and builds or reads an id through these functions. A bottom layer
beside ``models`` and ``patterns``: it imports nothing of qrelsmith.

A build folder (``qrelsmith build … --out DIR``)::

    DIR/
      corpus.jsonl             CORPUS        the sections (CorpusRecord)
      golden.jsonl             GOLDEN        the queries (GoldenQuery)
      qrels.trec               QRELS         TREC qrels: qid 0 docid grade
      queries.tsv              QUERIES       TREC topics: qid<TAB>text
      report.json              REPORT        counts, rejected rows, skipped pages, manifest
      beir/                    BEIR_FOLDER   the layout BEIR's GenericDataLoader reads:
        corpus.jsonl           BEIR_CORPUS
        queries.jsonl          BEIR_QUERIES
        qrels/test.tsv         BEIR_QRELS
      audit/                   AUDIT_FOLDER  the audit sample (a build's own entry):
        audit.csv              AUDIT_CSV       the review sheet
        audit.html             AUDIT_HTML      the same sheet as a page
        sample.json            AUDIT_SAMPLE    which queries were drawn, from what
        diff.json              DIFF            ``qrelsmith diff``: the changes, verdicts carried
        label-studio.json      LABEL_STUDIO_TASKS   ``audit sample --format label-studio``
        label-studio.xml       LABEL_STUDIO_CONFIG
        pool.csv               POOL_CSV        ``audit pool``: unjudged pooled pairs to judge
        pool.html              POOL_HTML       the same sheet as a page
        pool.json              POOL_SAMPLE     which pairs were drawn, from which runs
      versions/                VERSIONS_FOLDER ``audit apply``'s corrected versions:
        v1/ v2/ …              version_folder(n), version_number(name)
          (the golden set's files above), REVIEW (review.json), CHANGELOG
          (changelog.jsonl), CHANGES (CHANGES.md)
      align_report.json        ALIGN_REPORT  ``align``'s output folder: how the chunks map

Names under ``beir/`` are paths relative to the build folder; names of the audit and version
files are relative to their folder (``DIR / AUDIT_FOLDER / AUDIT_CSV``), since a Label Studio
export or a version folder can sit elsewhere.

Ids (formats.md): a section is ``<article_id>#<n>`` (``n`` its position among the article's
H2 headings), a query ``<article_id>#q<row>`` (``row`` the data row of the article's
quick-reference table). A query of another source takes its kind as a prefix,
``<article_id>#<kind>-q<n>`` (``n`` its position among the source's questions on the page),
and a document a source adds to the corpus (a FAQ answer) is ``<article_id>#<kind>-a<n>``.
"""

from __future__ import annotations

import re
from pathlib import Path

# --------------------------------------------------------------------------- the build folder

CORPUS = "corpus.jsonl"
GOLDEN = "golden.jsonl"
QRELS = "qrels.trec"
QUERIES = "queries.tsv"
REPORT = "report.json"

BEIR_FOLDER = "beir"
BEIR_CORPUS = f"{BEIR_FOLDER}/corpus.jsonl"
BEIR_QUERIES = f"{BEIR_FOLDER}/queries.jsonl"
BEIR_QRELS = f"{BEIR_FOLDER}/qrels/test.tsv"

#: The folder of a build that holds its audit sample (written by ``audit/``; a build's own
#: entry, replaced by each build unless its sheet holds verdicts).
AUDIT_FOLDER = "audit"
AUDIT_CSV = "audit.csv"
AUDIT_HTML = "audit.html"
AUDIT_SAMPLE = "sample.json"
DIFF = "diff.json"
LABEL_STUDIO_TASKS = "label-studio.json"
LABEL_STUDIO_CONFIG = "label-studio.xml"
POOL_CSV = "pool.csv"
POOL_HTML = "pool.html"
POOL_SAMPLE = "pool.json"

#: The folder of ``audit apply``'s corrected versions, ``versions/v1``, ``versions/v2`` …
VERSIONS_FOLDER = "versions"
VERSION_PREFIX = "v"
REVIEW = "review.json"
CHANGELOG = "changelog.jsonl"
CHANGES = "CHANGES.md"

#: What ``align`` writes beside the regraded golden set.
ALIGN_REPORT = "align_report.json"

#: Files that mark a folder as a qrelsmith build: its audit.html is not a page of the crawl, so
#: `qrelsmith build . --out out` run twice does not ingest its own review page.
BUILD_MARKERS = (GOLDEN, REPORT)

#: The lock beside a folder being written: ``.<name>.lock`` (``lock_name``).
LOCK_SUFFIX = ".lock"


def lock_name(name: str) -> str:
    """The hidden lock file beside the folder ``name``: ``.<name>.lock``."""
    return f".{name}{LOCK_SUFFIX}"


def version_folder(number: int) -> str:
    """The name of corrected version ``number`` inside ``versions/``: ``v<number>``."""
    return f"{VERSION_PREFIX}{number}"


def version_number(name: str) -> int | None:
    """The number of a version folder's name ``v<n>``, None for any other name."""
    digits = name[len(VERSION_PREFIX) :]
    if name.startswith(VERSION_PREFIX) and digits.isdigit():
        return int(digits)
    return None


def build_root(folder: Path) -> tuple[Path, str | None]:
    """A build folder or one of its ``versions/vN``: the build folder, and the version's name
    (None for the build itself)."""
    if folder.parent.name == VERSIONS_FOLDER:
        return folder.parent.parent, folder.name
    return folder, None


# --------------------------------------------------------------------------- ids

#: Between the article id and the section number in a section id.
SECTION_MARK = "#"
#: Between the article id and the row number in a query id.
QUERY_MARK = "#q"

#: Between a source's kind and the number in its query ids and document ids.
KIND_QUERY = "-q"
KIND_DOCUMENT = "-a"

#: A section id, query id or source document id, split into its article id and its tail
#: (greedy: an article id may itself hold a '#'; the tail never does).
_ID = re.compile(r"(.*)(#(?:q|[a-z]+-[qa])?\d+)", re.DOTALL)


def section_id(article_id: str, n: int) -> str:
    """The id of the ``n``-th H2 section (0-based, excluded ones counted) of an article."""
    return f"{article_id}{SECTION_MARK}{n}"


def section_number(section: str) -> str:
    """The ``n`` of a section id ``<article_id>#<n>`` (the id itself when it holds no '#',
    e.g. a chunk id an alignment took from the user's chunks)."""
    return section.rpartition(SECTION_MARK)[2]


def query_id(article_id: str, row: int) -> str:
    """The id of the query made from data row ``row`` of an article's quick-reference table."""
    return f"{article_id}{QUERY_MARK}{row}"


def source_query_id(article_id: str, kind: str, n: int) -> str:
    """The id of the ``n``-th question a query source other than the table found on a page:
    ``<article_id>#<kind>-q<n>`` (the table's keep ``query_id``'s ``#q<row>``)."""
    return f"{article_id}{SECTION_MARK}{kind}{KIND_QUERY}{n}"


def source_document_id(article_id: str, kind: str, n: int) -> str:
    """The id of the corpus document a query source made of its ``n``-th answer on a page:
    ``<article_id>#<kind>-a<n>``."""
    return f"{article_id}{SECTION_MARK}{kind}{KIND_DOCUMENT}{n}"


def article_of(id_: str) -> str:
    """The article id inside a query id ``<article_id>#q<row>`` or a section id
    ``<article_id>#<n>``; any other id (a run's own, a chunk's) is returned as it is."""
    parts = _ID.fullmatch(id_)
    return parts.group(1) if parts else id_


#: What ``ascii_id`` leaves as it is: printable ASCII but '%', its escape character.
_ASCII_KEPT = re.compile(r"[!-$&-~]")


def ascii_id(id_: str) -> str:
    """``id_`` in printable ASCII (``--ascii-ids``): every other character and '%' become
    their UTF-8 bytes percent-encoded, so ``urllib.parse.unquote`` gives ``id_`` back and tools
    that open files in the locale's encoding (ranx, ir_measures under ``LC_ALL=C`` or on
    Windows) read them. The marks ``#``, ``#q`` and '/' are kept: ``article_of`` still works."""
    return "".join(
        ch if _ASCII_KEPT.match(ch) else "".join(f"%{b:02X}" for b in ch.encode("utf-8"))
        for ch in id_
    )
