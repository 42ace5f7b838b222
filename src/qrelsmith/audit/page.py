"""``audit.html``: one self-contained review page (works offline, from ``file://``).

The page's HTML, CSS and JavaScript are package files inlined into one document; the rows go in
a ``<script type="application/json">`` block with ``<``, ``>``, ``&`` and U+2028/9 escaped, so
crawled text can neither close the block nor run. The script renders it with ``textContent``
only (the answer's span is a ``<mark>`` element whose text is set so, cut from the section's
text by offsets), and a Content-Security-Policy allows just the page's own script and style (by
hash), so a script that slipped through would still not run.

A section's text goes to the page cut at its sub-headings (corpus.jsonl ``subheadings``):
parts of level 0 (its own text) and 3-6 (a sub-heading's text), shown as paragraphs and
headings. The offsets the script uses are computed here, in UTF-16 code units of each part (a
JavaScript string's indices; the build's are code points): the answer's span as pieces of the
parts it crosses (``span_marks``), the sub-heading it lies under, and the sub-heading the
table's reference names (``named_part``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from ..labelling.matching import HeadingIndex, SectionHeadings
from ..models import AuditSample, CorpusRecord
from ..store.buildfolder import Build
from ..store.files import write_text
from ..store.layout import article_of, section_number
from .sheet import COLUMNS

_JSON_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
_MARKERS = re.compile(r"__(CSS|JS|DATA|STYLE_HASH|SCRIPT_HASH)__")


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def script_json(value: object) -> str:
    """JSON safe inside a ``<script>`` element: no ``</script>``, ``<!--`` or line separators."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return re.sub("[<>&\u2028\u2029]", lambda match: _JSON_ESCAPES[match.group()], text)


def csp_hash(source: str) -> str:
    """A Content-Security-Policy source expression allowing exactly this inline code."""
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


#: A part of a section's text as the page shows it: its level (0: text, 3-6: a sub-heading's
#: text) and its start and end in the text (code points).
Part = tuple[int, int, int]


def text_parts(record: CorpusRecord) -> list[Part]:
    """A section's text cut at its sub-headings, in order: the text before the first, each
    sub-heading, the text after it ... The one space that joins two parts is left out, and
    parts with no text. A sub-heading that does not stand in the text where it says (or before
    the previous one ends) stays in the text around it."""
    text, bounds, done = record.text, [], 0
    for sub in record.subheadings:
        if sub.at < done or not text.startswith(sub.text, sub.at):
            continue
        bounds += [(0, done, sub.at), (sub.level, sub.at, sub.at + len(sub.text))]
        done = sub.at + len(sub.text)
    bounds.append((0, done, len(text)))
    parts = []
    for level, start, end in bounds:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            parts.append((level, start, end))
    return parts


def js_length(text: str) -> int:
    """``text.length`` in JavaScript: UTF-16 code units (a character beyond U+FFFF counts 2)."""
    return len(text.encode("utf-16-le")) // 2


def span_marks(text: str, parts: Sequence[Part], start: int, end: int) -> list[list[int]]:
    """``text[start:end]`` as ``[part, start, end]`` pieces, one per part it crosses, the
    offsets in UTF-16 code units of that part's text (what the page's script slices)."""
    marks = []
    for number, (_, low, high) in enumerate(parts):
        first, last = max(low, start), min(high, end)
        if first < last:
            lead = js_length(text[low:first])
            marks.append([number, lead, lead + js_length(text[first:last])])
    return marks


def heading_above(parts: Sequence[Part], number: int) -> int | None:
    """The sub-heading part that part ``number`` is (or lies under), if any."""
    return next((n for n in range(number, -1, -1) if parts[n][0]), None)


def named_part(reference: str, record: CorpusRecord, parts: Sequence[Part]) -> int | None:
    """The sub-heading part of ``record`` that ``reference`` names: the matcher's pick (default
    options) among the section's heading and its sub-headings each taken alone; None when it
    picks the section's own heading or none of them."""
    headings = [(None, record.heading)] + [
        (number, record.text[low:high]) for number, (level, low, high) in enumerate(parts) if level
    ]
    if len(headings) == 1 or not reference.strip():
        return None
    index = HeadingIndex(SectionHeadings(str(n), (text,)) for n, (_, text) in enumerate(headings))
    picked = index.match(reference).section_ids
    return headings[int(picked[0])][0] if len(picked) == 1 else None


def section_view(record: CorpusRecord) -> dict[str, object]:
    """A section as the page shows it: its number, heading and text in parts."""
    parts = [[level, record.text[low:high]] for level, low, high in text_parts(record)]
    return {"id": record.id, "n": section_number(record.id), "heading": record.heading,
            "parts": parts}  # fmt: skip


def evidence_view(record: CorpusRecord, start: int, end: int) -> dict[str, object]:
    """The answer's span ``text[start:end]`` of a section, as the page marks it: the pieces
    (``span_marks``) and the sub-heading part it starts under (None: none)."""
    parts = text_parts(record)
    marks = span_marks(record.text, parts, start, end)
    under = heading_above(parts, marks[0][0]) if marks else None
    return {"section": record.id, "marks": marks, "under": under}


def named_parts(reference: str, records: Sequence[CorpusRecord]) -> dict[str, int]:
    """Section id -> the sub-heading part the reference names, for the sections where it
    names one (``named_part``)."""
    named = {}
    for record in records:
        number = named_part(reference, record, text_parts(record)) if record.subheadings else None
        if number is not None:
            named[record.id] = number
    return named


def page_data(
    build: Build, sample: AuditSample, rows: Sequence[dict[str, str]]
) -> dict[str, object]:
    """What the page needs: the sheet's rows, and every section of the articles they come from."""
    articles: dict[str, list[dict[str, object]]] = {}
    page_rows = []
    for row in rows:
        qid = row["qid"]
        article = article_of(qid)
        if article not in articles:
            articles[article] = [section_view(r) for r in build.sections_of(qid)]
        query = build.by_qid[qid]
        matched = list(query.relevant)
        evidence = query.evidence
        record = build.sections.get(evidence.section) if evidence is not None else None
        span = (
            evidence_view(record, evidence.start, evidence.end)
            if evidence is not None and record is not None
            else None
        )
        labelled = [build.sections[sid] for sid in matched if sid in build.sections]
        page_rows.append(
            {
                "cells": row,
                "article": article,
                "matched": matched,
                "evidence": span,
                "named": named_parts(query.reference or "", labelled),
            }
        )
    return {
        "sample_id": sample.sample_id,
        "columns": list(COLUMNS),
        "rows": page_rows,
        "articles": articles,
    }


def review_html(data: dict[str, object]) -> str:
    """The whole page as one HTML document."""
    css, js = _asset("review.css"), _asset("review.js")
    values = {
        "CSS": css,
        "JS": js,
        "DATA": script_json(data),
        "STYLE_HASH": csp_hash(css),
        "SCRIPT_HASH": csp_hash(js),
    }
    # One pass, so text substituted in (crawled data) is never scanned for markers again.
    return _MARKERS.sub(lambda match: values[match.group(1)], _asset("review.html"))


def write_page(
    path: Path, build: Build, sample: AuditSample, rows: Sequence[dict[str, str]]
) -> None:
    """Write ``audit.html``."""
    write_text(path, review_html(page_data(build, sample, rows)))
