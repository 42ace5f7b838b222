"""Article root -> its quick-reference table and rows.

A table is the quick-reference table when its header names a query column and a section
reference column (keywords per language, configurable), or, where headers don't say, when one
column's cells match the article's headings. The first such table wins; tables before it
(comparison tables, data) are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, TypeVar
from urllib.parse import unquote

from lxml import etree

from .. import patterns
from ..config import BuildOptions
from ..models import QuickRefRow, QuickRefTable, TableMiss, TableMissReason
from ..text import fold_case, fold_space, text_of
from .reading import Element, cleaned, dropped, without_permalinks
from .sections import BLOCK_TAGS

ROLES = ("query", "answer", "reference")

Detection = Literal["headers", "headings"]


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    anchors: tuple[str, ...]
    header: bool
    offsite: bool = False  # links to another page: navigation, never a section reference


#: The section ids a cell names among the article's headings, from its text and in-page links
#: (by link, equality or containment; never fuzzily). The matcher's answer, handed in by
#: article.py: quickref, an earlier stage, does not import matching.
CellTargets = Callable[[str, Sequence[str]], Sequence[str]]


def _links(element: Element) -> tuple[tuple[str, ...], bool]:
    """The in-page ids a cell links to, and whether it links anywhere else. A fragment is
    percent-decoded, as a browser finds its element: Markdown renderers and Hugo write
    ``#%E8%A8%AD%E5%AE%9A`` for a link to the id ``設定``."""
    if not len(element):  # a text-only cell, the common case: no XPath query
        return (), False
    hrefs = [h.strip() for h in _LINKS(element) if isinstance(h, str) and h.strip()]
    anchors = tuple(unquote(h[1:]) for h in hrefs if h.startswith("#") and len(h) > 1)
    return anchors, any(not h.startswith("#") for h in hrefs)


_ROWS = etree.XPath("./tr|./thead/tr|./tbody/tr|./tfoot/tr")
#: How many rows ``_ROWS`` finds, without a union to sort or an element per row for Python.
_ROW_COUNT = etree.XPath("count(tr) + count(thead/tr) + count(tbody/tr) + count(tfoot/tr)")
_ROW_GROUPS = ("thead", "tbody", "tfoot")
_HEAD_ROWS = etree.XPath("./thead/tr")
_CELLS = etree.XPath("./td|./th")
_LINKS = etree.XPath(".//a/@href")


def _rows(table: Element) -> int:
    return int(_ROW_COUNT(table))


def cell_of(element: Element) -> Cell:
    """A table cell's text (block breaks and <br> become spaces) and the #ids it links to."""
    chunks: list[str] = []
    for node in element.iter():
        if node is not element and isinstance(node.tag, str) and node.tag in BLOCK_TAGS:
            chunks.append(" ")
        if node.text and isinstance(node.tag, str):
            chunks.append(node.text)
        if node is not element and node.tail:
            chunks.append(node.tail)
    anchors, offsite = _links(element)
    return Cell(fold_space("".join(chunks)), anchors, element.tag == "th", offsite)


def rough_cell_of(element: Element) -> Cell:
    """A cell read cheaply (every text node joined by a space): enough to compare with headings,
    whose comparison key ignores spaces; used to recognise a table before reading it exactly."""
    anchors, offsite = _links(element)
    return Cell(fold_space(" ".join(element.itertext())), anchors, element.tag == "th", offsite)


class _Rough:
    """A cell of a table being recognised, read (``rough_cell_of``) when first compared: the
    first rows of a docs page's tables hold ~15 cells, of which recognition compares ~4."""

    __slots__ = ("element", "_cell")

    def __init__(self, element: Element) -> None:
        self.element = element
        self._cell: Cell | None = None

    @property
    def header(self) -> bool:
        return bool(self.element.tag == "th")

    @property
    def cell(self) -> Cell:
        if self._cell is None:
            self._cell = rough_cell_of(self.element)
        return self._cell


_T = TypeVar("_T")


def _span(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), patterns.MAX_SPAN))
    except ValueError:
        return 1


def table_grid(
    table: Element, read: Callable[[Element], _T], max_rows: int | None = None
) -> tuple[list[list[_T]], int]:
    """The table's rows as a grid of ``read``'s cells (``cell_of``; a spanning cell read once
    and repeated) and how many leading rows are in <thead>.

    ``max_rows`` reads only the first rows: enough to recognise a table.
    """
    rows = _ROWS(table)[:max_rows]
    head_rows = len(_HEAD_ROWS(table))
    grid: list[list[_T]] = []
    carried: dict[int, tuple[_T, int]] = {}  # column -> (cell, rows still to fill)
    for row in rows:
        line: list[_T] = []
        cells = iter(_CELLS(row))
        column = 0
        while True:
            if column in carried:
                cell, remaining = carried[column]
                line.append(cell)
                if remaining <= 1:
                    del carried[column]
                else:
                    carried[column] = (cell, remaining - 1)
                column += 1
                continue
            element = next(cells, None)
            if element is None:
                break
            cell = read(element)
            rowspan = _span(element.get("rowspan"))
            for _ in range(_span(element.get("colspan"))):
                if rowspan > 1:
                    carried[column] = (cell, rowspan - 1)
                line.append(cell)
                column += 1
        grid.append(line)
    return grid, head_rows


def _keyword_pattern(keyword: str) -> str:
    # Short Latin keywords ("see", "more", "ver") only count as whole words.
    if keyword.isascii():
        return rf"(?<![a-z]){re.escape(keyword)}(?![a-z])"
    return re.escape(keyword)


#: A header keyword: (its case-folded text, its role, its own regex).
_Keyword = tuple[str, str, re.Pattern[str]]


@lru_cache(maxsize=16)
def _role_regex(
    keywords: tuple[tuple[str, ...], ...],
) -> tuple[re.Pattern[str], list[_Keyword]]:
    """One alternation of every keyword, longest first, and (keyword, role, its own regex) per
    group."""
    role_of: dict[str, str] = {}
    for role, words in zip(ROLES, keywords, strict=True):
        for word in words:
            key = fold_case(word)
            if key:
                role_of.setdefault(key, role)
    ordered = sorted(role_of, key=lambda k: (-len(k), k))
    regex = re.compile("|".join(f"({_keyword_pattern(k)})" for k in ordered))
    return regex, [(k, role_of[k], re.compile(_keyword_pattern(k))) for k in ordered]


#: (options, their keywords) per id of the options: the keyword lists, made tuples once per
#: options rather than for each table (hashing them to find the compiled regexes costs too).
_KEYWORDS: dict[int, tuple[BuildOptions, tuple[tuple[str, ...], ...]]] = {}


def _keywords(options: BuildOptions) -> tuple[tuple[str, ...], ...]:
    entry = _KEYWORDS.get(id(options))
    if entry is None or entry[0] is not options:  # the entry holds them: their id is theirs
        if len(_KEYWORDS) >= 64:
            _KEYWORDS.clear()
        keywords = (
            tuple(options.query_headers),
            tuple(options.answer_headers),
            tuple(options.reference_headers),
        )
        entry = _KEYWORDS[id(options)] = (options, keywords)
    return entry[1]


def header_roles(cells: Sequence[Cell], options: BuildOptions) -> dict[str, int]:
    """Role -> column from header keywords; the longest keyword decides a cell's role."""
    if not cells:
        return {}
    regex, groups = _role_regex(_keywords(options))
    roles: dict[str, int] = {}
    for column, cell in enumerate(cells):
        text = fold_case(cell.text)
        found = [groups[m.lastindex - 1] for m in regex.finditer(text) if m.lastindex]
        if found:
            role = max(found, key=lambda keyword_role: len(keyword_role[0]))[1]
            roles.setdefault(role, column)
    return roles


@dataclass(frozen=True, slots=True)
class _Evidence:
    """A table's best column for recognition by headings: its share of cells naming a heading
    (0 when it cannot qualify), the column, the first data row, the cells naming a heading
    (those read), the data rows and the distinct sections named."""

    share: float
    column: int
    start: int
    hits: int
    rows: int
    sections: int


def _heading_evidence(
    grid: Sequence[Sequence[_Rough]],
    head_rows: int,
    targets_of: CellTargets,
    minimum: float,
    exhaustive: bool = False,
) -> _Evidence | None:
    """The best column of ``grid`` by cells naming headings, or None (too narrow, too short).

    A column stops being read once it can no longer reach ``minimum``, unless ``exhaustive``:
    then its ``hits`` count every cell (to tell a user how close a table came).
    """
    width = min((len(row) for row in grid), default=0)
    if width < 2:
        return None
    first = head_rows or (1 if grid and all(c.header for c in grid[0]) else 0)
    best: _Evidence | None = None
    for start in sorted({first, 1}):
        data = grid[start:]
        if len(data) < patterns.MIN_TABLE_ROWS:
            continue
        allowed_misses = len(data) * (1 - minimum)
        for column in range(width):
            hits = misses = 0
            targets: set[str] = set()
            for row in data:
                cell = row[column].cell
                found = [] if cell.offsite else targets_of(cell.text, cell.anchors)
                if found:
                    hits += 1
                    targets.update(found)
                else:
                    misses += 1
                    if misses > allowed_misses and not exhaustive:
                        break
            qualifies = misses <= allowed_misses and len(targets) >= 2
            share = hits / len(data) if qualifies else 0.0
            # The first column with the highest share wins; among columns that cannot
            # qualify, the one naming most headings is the closest.
            closer = share == best.share == 0 and hits > best.hits if best else True
            if best is None or share > best.share or closer:
                best = _Evidence(share, column, start, hits, len(data), len(targets))
    return best


def _by_headings(
    evidence: _Evidence | None, grid: Sequence[Sequence[_Rough]], minimum: float
) -> tuple[dict[str, int], int] | None:
    """(roles, first data row) when one column's cells mostly match headings.

    The evidence is strict: a cell counts when it names a heading by link, equality or
    containment (not fuzzily), does not link to another page, and the column points at two
    sections at least. Docs sites put navigation tables (Prev | Up | Next, linking to sibling
    pages whose titles resemble the headings) and data tables at the top of pages; with fuzzy
    evidence 349 of the 1,941 pages of the benchmark crawl got a false quick-reference table.
    """
    if evidence is None or evidence.share == 0 or evidence.share < minimum:
        return None
    width = min(len(row) for row in grid)
    others = [c for c in range(width) if c != evidence.column]
    roles = {"query": others[0], "reference": evidence.column}
    if len(others) > 1:
        roles["answer"] = others[1]
    return roles, evidence.start


_KANA_OR_HAN = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")
_HANGUL = re.compile("[\uac00-\ud7af]")
_LABEL_TAGS = ("h3", "h4", "h5", "h6", "p", "div", "strong", "b", "dt")


def default_name(header: Sequence[Cell]) -> str:
    """The table name used when the page gives none, by the script of the header row."""
    text = " ".join(cell.text for cell in header)
    if text.isascii():  # most headers: neither search can match (one C pass, not two)
        return patterns.DEFAULT_TABLE_NAMES["other"]
    if _HANGUL.search(text):
        return patterns.DEFAULT_TABLE_NAMES["ko"]
    if _KANA_OR_HAN.search(text):
        return patterns.DEFAULT_TABLE_NAMES["ja"]
    return patterns.DEFAULT_TABLE_NAMES["other"]


def _label(element: Element) -> str | None:
    """The text of a label element: a minor heading, or a short bold/colon-ended line."""
    if element.tag not in _LABEL_TAGS:
        return None
    text = text_of(element)
    if not text or len(text) > patterns.TABLE_LABEL_MAX_CHARS:
        return None
    children = [c for c in element if isinstance(c.tag, str)]
    bold = (
        len(children) == 1
        and children[0].tag in ("strong", "b")
        and not (element.text or "").strip()
    )
    if element.tag in ("h3", "h4", "h5", "h6", "strong", "b", "dt") or bold or text[-1] in ":：":
        return text.rstrip(":：").strip()
    return None


def table_name(table: Element, header: Sequence[Cell], options: BuildOptions) -> str:
    """The caption, else a label right before the table (or its wrapper), else a default."""
    return given_name(table, options) or default_name(header)


def given_name(table: Element, options: BuildOptions) -> str | None:
    """The name the page gives the table: its caption, else a label right before it (or its
    wrapper); None when it gives none (the closest table of report.json is not given a
    default name it does not have)."""
    selectors = options.permalink_selectors
    caption = table.find("caption")
    if caption is not None and text_of(without_permalinks(caption, selectors)):
        return text_of(caption)
    node: Element | None = table
    while node is not None:
        previous = node.getprevious()
        while previous is not None and (
            not isinstance(previous.tag, str) or previous.tag in options.drop_tags
        ):
            previous = previous.getprevious()
        if previous is not None:
            return _label(without_permalinks(previous, selectors))
        parent = node.getparent()
        node = parent if parent is not None and parent.tag in ("div", "figure") else None
    return None


def _text(element: Element) -> str:
    """The element's text in one C call (``itertext`` makes a Python string per text node)."""
    return str(etree.tostring(element, method="text", encoding=str, with_tail=False))


def _first_row(table: Element) -> Element | None:
    """The table's own first row (as ``_ROWS`` counts rows), found without an XPath query when
    it sits where rows belong: a nested table's rows come after it, inside one of its cells."""
    row = next(table.iter("tr"), None)
    if row is None:
        return None
    parent = row.getparent()
    if parent is table or (
        parent is not None and parent.tag in _ROW_GROUPS and parent.getparent() is table
    ):
        return row
    rows = _ROWS(table)  # rows wrapped in other markup are not the table's: ask XPath
    return rows[0] if rows else None


@dataclass(frozen=True, slots=True)
class _HeaderRow:
    """A table's first row as ``_header_cells`` read it: its cells' texts (cleaned) and the
    keywords the row holds as substrings (``_roles_named``'s first step; None when the row is
    too long to be a header, where they were not looked for)."""

    texts: list[str]
    keywords: list[_Keyword] | None


def _header_cells(table: Element, options: BuildOptions) -> tuple[list[Cell], _HeaderRow | None]:
    """The first row's cells, text only, when the row names a query and a reference role at
    all (one regex pass over the row: most tables of a docs page stop here); and the first
    row as read (``_HeaderRow``), None for a table of one row."""
    row = _first_row(table)
    if row is None or (
        next(row.itersiblings("tr"), None) is None and _rows(table) < 2
    ):  # a table of one row has no data
        return [], None
    cells = [c for c in cleaned(row, options) if c.tag in ("td", "th")]
    texts = [fold_space(_text(c)) for c in cells]
    row_text = " ".join(texts)
    if len(row_text) > patterns.HEADER_ROW_MAX_CHARS:
        return [], _HeaderRow(texts, None)
    regex, groups = _role_regex(_keywords(options))
    # The case folding of the joined texts is the join of the folded texts: NFKC never
    # composes across a space, and case folding goes character by character.
    row_text = fold_case(row_text)
    # The regex tries every keyword at every position (their word-boundary lookarounds keep
    # re from skipping ahead): a substring test per keyword first, ~10x cheaper, lets through
    # every row the regex could accept.
    keywords = [group for group in groups if group[0] in row_text]
    first = _HeaderRow(texts, keywords)
    if not {"query", "reference"} <= {group[1] for group in keywords}:
        return [], first
    named = {groups[m.lastindex - 1][1] for m in regex.finditer(row_text) if m.lastindex}
    if not {"query", "reference"} <= named:
        return [], first
    return [Cell(text_of(c), (), c.tag == "th") for c in cells], first


def _tables(root: Element, options: BuildOptions) -> tuple[list[Element], int]:
    """The article's tables outside dropped elements, in document order (one walk), and how
    many of them come before the second split heading: the intro, or a first "Quick
    reference" section. Recognising a table by its cells costs a match per cell; docs pages
    carry many data tables further down, which an author's quick-reference table never is.
    """
    tables: list[Element] = []
    near_top = 0
    headings = 0
    for element in root.iter("table", f"h{options.section_level}"):
        is_table = element.tag == "table"
        if (is_table or headings < patterns.QUICKREF_MAX_SECTION) and dropped(
            element, options.drop_tags
        ):
            continue
        if is_table:
            tables.append(element)
            near_top += headings < patterns.QUICKREF_MAX_SECTION
        else:
            headings += 1
    return tables, near_top


def _remembered(targets_of: CellTargets) -> CellTargets:
    """``targets_of`` asked once per cell text and links: spanned cells repeat, and the
    diagnosis of the closest table reads again the cells recognition read."""
    seen: dict[tuple[str, tuple[str, ...]], Sequence[str]] = {}

    def remembered(text: str, anchors: Sequence[str]) -> Sequence[str]:
        key = (text, tuple(anchors))
        found = seen.get(key)
        if found is None:
            found = seen[key] = targets_of(text, anchors)
        return found

    return remembered


def _roles_named(
    header: Sequence[Cell], options: BuildOptions, present: list[_Keyword] | None = None
) -> set[str]:
    """The roles a header row names, as ``header_roles`` reads them (the longest keyword in a
    cell decides), by a substring test per keyword first: the one alternation of all keywords
    costs about a millisecond on a data table's header, which almost every docs page has.
    ``present``: the keywords the row holds, where ``_header_cells`` has looked for them."""
    if present is not None and not present:
        return set()  # no keyword in the row, none in a cell
    texts = [fold_case(cell.text) for cell in header]
    if present is None:  # a keyword in no cell is not in the row: one test of the row each
        row = " ".join(texts)
        present = [group for group in _role_regex(_keywords(options))[1] if group[0] in row]
    roles: set[str] = set()
    for text in texts:
        named = [(k, r) for k, r, regex in present if k in text and regex.search(text)]
        if named:
            roles.add(max(named, key=lambda keyword_role: len(keyword_role[0]))[1])
    return roles


def _miss(
    tables: Sequence[Element],
    closest: tuple[int, Element, list[list[_Rough]], int] | None,
    options: BuildOptions,
    targets_of: CellTargets | None,
    first_row: _HeaderRow | None = None,
) -> TableMiss:
    """Why no table was taken, with the closest one: the near-top table naming most headings,
    else the first table. Runs only on articles without a table, on one table. ``first_row``:
    the first table's first row where recognition read it (cleaned, as read here)."""
    if not tables:
        return TableMiss(reason="no_table")
    if closest is not None and targets_of is not None:
        _, table, rough, head_rows = closest
        evidence = _heading_evidence(
            rough, head_rows, targets_of, options.heading_column_share, exhaustive=True
        )
        header = [r.cell for r in rough[evidence.start - 1]] if evidence and evidence.start else []
        reason: TableMissReason = "few_headings_named"
        keywords: list[_Keyword] | None = None
    else:
        table, evidence = tables[0], None
        if first_row is not None:
            header = [Cell(text, (), False) for text in first_row.texts]
            keywords = first_row.keywords
        else:
            keywords = None
            row = _first_row(table)
            if row is not None:
                without_permalinks(row, options.permalink_selectors)
            # the cells' text in one C call each: no links, no block breaks needed to name them
            header = (
                [] if row is None else [Cell(fold_space(_text(c)), (), False) for c in _CELLS(row)]
            )
        reason = "no_query_or_reference_header"
    roles = _roles_named(header, options, keywords)
    return TableMiss(
        reason=reason,
        caption=given_name(table, options),
        header=[cell.text for cell in header],
        roles=[role for role in ROLES if role in roles],
        named=evidence.hits if evidence else 0,
        rows=evidence.rows if evidence else _rows(table),
        sections=evidence.sections if evidence else 0,
    )


def find_table(
    root: Element,
    options: BuildOptions,
    outline: Callable[[], CellTargets],
) -> tuple[QuickRefTable, Element] | TableMiss:
    """The article's quick-reference table and its element, or why there is none.

    ``outline`` gives what the cells name among the article's headings (``CellTargets``); it
    is only called when no table's header names its columns, since only recognition by cell
    contents needs it.
    """
    found: tuple[Element, list[list[Cell]], dict[str, int], int, Detection] | None
    found = None
    tables, near_top = _tables(root, options)
    first_row: _HeaderRow | None = None  # the first table's first row, for a miss
    for position, table in enumerate(tables):
        cells, row = _header_cells(table, options)
        if position == 0:
            first_row = row
        roles = header_roles(cells, options)
        if "query" in roles and "reference" in roles:
            grid, head_rows = table_grid(cleaned(table, options), cell_of)
            found = (table, grid, roles, max(head_rows, 1), "headers")
            break
    closest: tuple[int, Element, list[list[_Rough]], int] | None = None  # hits, table, grid
    targets_of: CellTargets | None = None
    if found is None:
        share = options.heading_column_share
        for table in tables[:near_top]:
            if _rows(table) < patterns.MIN_TABLE_ROWS:  # navigation bars: too few rows
                continue
            cleaned(table, options)
            rough, head_rows = table_grid(table, _Rough, patterns.RECOGNITION_ROWS)
            targets_of = targets_of or _remembered(outline())
            evidence = _heading_evidence(rough, head_rows, targets_of, share)
            recognised = _by_headings(evidence, rough, share)
            if recognised:
                found = (
                    table,
                    table_grid(table, cell_of)[0],
                    recognised[0],
                    recognised[1],
                    "headings",
                )
                break
            if evidence and evidence.hits and (closest is None or evidence.hits > closest[0]):
                closest = (evidence.hits, table, rough, head_rows)
    if found is None:
        return _miss(tables, closest, options, targets_of, first_row)
    table, grid, roles, start, detected_by = found
    rows: list[QuickRefRow] = []
    for number, line in enumerate(grid[start:]):

        def at(role: str, line: list[Cell] = line) -> Cell | None:
            column = roles.get(role)
            return line[column] if column is not None and column < len(line) else None

        query, answer, reference = at("query"), at("answer"), at("reference")
        if not any(cell.text for cell in line):
            continue
        rows.append(
            QuickRefRow(
                row=number,
                query=query.text if query else "",
                answer=answer.text if answer else "",
                reference=reference.text if reference else "",
                reference_anchors=list(reference.anchors) if reference else [],
                offsite=any(cell.offsite for cell in line),
            )
        )
    header = grid[start - 1] if 0 < start <= len(grid) else []
    model = QuickRefTable(
        name=table_name(table, header, options),
        columns=roles,
        detected_by=detected_by,
        rows=rows,
    )
    return model, table
