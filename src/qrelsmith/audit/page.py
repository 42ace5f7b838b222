"""``audit.html``: one self-contained review page (works offline, from ``file://``).

The page's HTML, CSS and JavaScript are package files inlined into one document; the rows go in
a ``<script type="application/json">`` block with ``<``, ``>``, ``&`` and U+2028/9 escaped, so
crawled text can neither close the block nor run. The script renders it with ``textContent``
only (the answer's span is a ``<mark>`` element whose text is set so, cut from the section's
text by offsets), and a Content-Security-Policy allows just the page's own script and style (by
hash), so a script that slipped through would still not run.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from ..models import AuditSample
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


def page_data(
    build: Build, sample: AuditSample, rows: Sequence[dict[str, str]]
) -> dict[str, object]:
    """What the page needs: the sheet's rows, and every section of the articles they come from."""
    articles: dict[str, list[dict[str, str]]] = {}
    page_rows = []
    for row in rows:
        qid = row["qid"]
        article = article_of(qid)
        if article not in articles:
            articles[article] = [
                {"id": r.id, "n": section_number(r.id), "heading": r.heading, "text": r.text}
                for r in build.sections_of(qid)
            ]
        query = build.by_qid[qid]
        matched = list(query.relevant)
        evidence = query.evidence
        span = (
            {"section": evidence.section, "start": evidence.start, "end": evidence.end}
            if evidence is not None
            else None
        )
        page_rows.append({"cells": row, "article": article, "matched": matched, "evidence": span})
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
