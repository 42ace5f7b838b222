"""Carry a build's qrels over to the user's own chunks (LangChain / LlamaIndex exports).

A chunk ``{"id", "text", "url" or "path"}`` is first tied to its article by path or URL, then
compared with each of the article's sections (heading + text) by character overlap: both sides
are NFKC-normalised, case-folded and stripped of whitespace (``text.squashed``), and a chunk
character counts as found in a section when it lies inside a run of SHINGLE characters that
also occurs in the section. With that:

- ``share(s)``  = chunk characters found in section s / chunk characters,
- ``cover(s)``  = chunk characters found in section s / section characters,
- the chunk belongs to the article when at least MIN_ARTICLE_SHARE of it is found in the
  article's sections; otherwise it maps to nothing and is reported;
- for a query of that article, the chunk takes the highest grade of the sections it is
  *mostly made of* (share >= MAJORITY_SHARE) or *mostly covers* (cover >= COVER_SHARE), and
  grade 1 (same article) when there is none. So a small piece of the answer section is 2, a big
  chunk that holds the whole answer section is 2, and a chunk that is mostly another section
  with a corner of the answer section is 1.

A query with an answer span (golden.jsonl ``evidence``) in one of its grade-2 sections is
graded by the span instead, in that section: the chunks that hold part of the span get grade 2
(whatever their share), the other chunks that section would make 2 get grade 1; its other
grade-2 sections keep the rule above. A chunk holds part of the span when one of the section's
characters inside the span lies in a run of SHINGLE characters (or of the whole chunk, when it
is shorter) that the chunk also holds, compared in ``evidence.folded_positions`` form. A query
whose span no chunk holds, or whose span lies outside its grade-2 sections (an audit corrected
the label, or the answer was found in another section), is graded by the rule above.

Queries whose grade-2 sections no chunk takes over are dropped (no target left) and reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import DataError
from ..ingest import spaceless_id
from ..labelling.evidence import folded_positions
from ..labelling.labels import NAMED, SAME_ARTICLE, named, named_in
from ..models import (
    AlignCounts,
    AlignReport,
    AlignResult,
    AlignThresholds,
    ChunkMapping,
    CorpusRecord,
    Evidence,
    UnmappedChunk,
)
from ..store.buildfolder import Build, Qrels
from ..store.files import StagedFolder, read_jsonl, write_json
from ..store.formats import write_regraded
from ..store.layout import ALIGN_REPORT
from ..text import squashed

#: Characters in a shingle: 8 is about two Japanese words or one long English word, long
#: enough that shared boilerplate ("です。", "the ") does not count as overlap.
SHINGLE = 8

#: A chunk is in an article when half its characters are found in the article's sections; the
#: rest may be navigation, code or a title that the build dropped.
MIN_ARTICLE_SHARE = 0.5

#: "Mostly made of": the section is at least half of the chunk.
MAJORITY_SHARE = 0.5

#: "Mostly covers": the chunk holds at least half of the section (so a big chunk that holds the
#: whole answer section still takes its grade).
COVER_SHARE = 0.5


def _shingles(text: str) -> set[str]:
    if len(text) <= SHINGLE:
        return {text} if text else set()
    return {text[i : i + SHINGLE] for i in range(len(text) - SHINGLE + 1)}


def _url_key(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:  # a malformed IPv6 literal or port ("http://[bad"): the text itself
        return url.split("://", 1)[-1].split("#", 1)[0]
    return f"{parts.netloc}{parts.path}" + (f"?{parts.query}" if parts.query else "")


def _article_lookup(corpus: Sequence[CorpusRecord]) -> dict[str, str]:
    keys: dict[str, str] = {}
    for record in corpus:
        article = record.article_id
        for key in (article, record.path, record.url):
            if key:
                keys[key] = article
                if "://" in key:
                    keys[_url_key(key)] = article
    return keys


def find_article(chunk: dict[str, Any], keys: dict[str, str]) -> str | None:
    """The article a chunk comes from: exact path/URL/id, then the longest path suffix."""
    for field in ("path", "url", "source", "file_path"):
        value = chunk.get(field) or (chunk.get("metadata") or {}).get(field)
        if not value:
            continue
        value = str(value).replace("\\", "/")
        for candidate in (value, _url_key(value) if "://" in value else value.lstrip("./")):
            if candidate in keys:
                return keys[candidate]
        tail = _url_key(value) if "://" in value else value
        suffixes = [k for k in keys if "://" not in k and tail.endswith("/" + k.lstrip("/"))]
        if suffixes:
            return keys[max(suffixes, key=len)]
    return None


def map_chunk(
    chunk_id: str, text: str, article: str, sections: Sequence[tuple[str, str]]
) -> ChunkMapping:
    """Overlap of one chunk with the (id, heading + text) sections of its article."""
    chunk = squashed(text)
    if not chunk:
        return ChunkMapping(id=chunk_id, article_id=article, reason="empty text")
    found_any = bytearray(len(chunk))
    share: dict[str, float] = {}
    cover: dict[str, float] = {}
    width = min(SHINGLE, len(chunk))
    for section_id, section_text in sections:
        target = squashed(section_text)
        grams = (
            _shingles(target)
            if width == SHINGLE
            else {target[i : i + width] for i in range(max(len(target) - width + 1, 0))}
        )
        found = bytearray(len(chunk))
        for start in range(len(chunk) - width + 1):
            if chunk[start : start + width] in grams:
                found[start : start + width] = b"\x01" * width
        count = sum(found)
        if count:
            share[section_id] = round(count / len(chunk), 4)
            cover[section_id] = round(min(count / max(len(target), 1), 1.0), 4)
            for position, hit in enumerate(found):
                if hit:
                    found_any[position] = 1
    in_article = sum(found_any) / len(chunk)
    if in_article < MIN_ARTICLE_SHARE:
        return ChunkMapping(
            id=chunk_id,
            article_id=article,
            share=share,
            cover=cover,
            reason=f"only {in_article:.0%} of its text is in {article}",
        )
    main = max(share, key=lambda s: (share[s], s))
    return ChunkMapping(
        id=chunk_id, article_id=article, main_section=main, share=share, cover=cover
    )


def chunk_grade(mapping: ChunkMapping, section_grades: dict[str, int]) -> int:
    """The chunk's grade for one query, from that query's section grades (see module doc)."""
    grades = [
        section_grades.get(section, 0)
        for section in mapping.share
        if mapping.share[section] >= MAJORITY_SHARE or mapping.cover[section] >= COVER_SHARE
    ]
    return max(grades + [SAME_ARTICLE])


def span_held(chunk: str, section: tuple[str, list[int]], evidence: Evidence) -> bool:
    """True when the chunk (in ``folded_positions`` form) holds part of the evidence span of a
    section (its ``folded_positions``); see the module doc."""
    folded, where = section
    inside = [i for i, offset in enumerate(where) if evidence.start <= offset < evidence.end]
    if not chunk or not inside:
        return False
    width = min(SHINGLE, len(chunk))
    grams = {chunk[i : i + width] for i in range(len(chunk) - width + 1)}
    first, last = inside[0], inside[-1]
    for start in range(max(first - width + 1, 0), min(last, len(folded) - width) + 1):
        if folded[start : start + width] in grams:
            return True
    return False


def span_grades(
    mappings: Sequence[ChunkMapping],
    judged: dict[str, int],
    evidence: Evidence | None,
    folded_chunks: dict[str, str],
    section_text: dict[str, str],
) -> dict[str, int] | None:
    """Chunk grades for one query by its answer span, or None when the span does not decide
    (none, outside the grade-2 sections, or held by no chunk)."""
    if evidence is None or judged.get(evidence.section) != NAMED:
        return None
    section = folded_positions(section_text[evidence.section])
    holding = {m.id for m in mappings if span_held(folded_chunks.get(m.id, ""), section, evidence)}
    if not holding:
        return None
    rest = {**judged, evidence.section: SAME_ARTICLE}
    return {m.id: NAMED if m.id in holding else chunk_grade(m, rest) for m in mappings}


def _chunk_id(chunk: dict[str, Any]) -> str:
    return spaceless_id(str(chunk.get("id") or chunk.get("id_") or ""))


def _chunk_text(chunk: dict[str, Any]) -> str:
    return str(chunk.get("text") or chunk.get("page_content") or "")


def read_chunks(source: str) -> list[dict[str, Any]]:
    """The chunks of a JSON lines file (``-`` for stdin); a DataError when it holds none."""
    # read_jsonl takes a path; /dev/stdin is one on the systems we support
    chunks = list(read_jsonl("/dev/stdin" if source == "-" else source))
    if not chunks:
        raise DataError(f"{source}: no chunks")
    return chunks


def align(build: Build, chunks: Iterable[dict[str, Any]]) -> AlignResult:
    """Map chunks to sections and write the build's qrels over chunk ids."""
    keys = _article_lookup(build.corpus)
    sections: dict[str, list[tuple[str, str]]] = {}
    for record in build.corpus:
        sections.setdefault(record.article_id, []).append(
            (record.id, f"{record.heading}\n{record.text}")
        )
    mappings: list[ChunkMapping] = []
    seen: dict[str, int] = {}
    folded_chunks: dict[str, str] = {}
    for number, chunk in enumerate(chunks, 1):
        chunk_id = _chunk_id(chunk)
        if not chunk_id:
            mappings.append(ChunkMapping(id="", reason="chunk without id"))
            continue
        if chunk_id in seen:  # qrels over it would judge two texts as one document
            raise DataError(
                f"chunk id {chunk_id!r} is used twice (chunks {seen[chunk_id]} and {number}): "
                "ids must be unique"
            )
        seen[chunk_id] = number
        article = find_article(chunk, keys)
        if article is None:
            mappings.append(ChunkMapping(id=chunk_id, reason="url/path matches no article"))
            continue
        mapping = map_chunk(chunk_id, _chunk_text(chunk), article, sections[article])
        mappings.append(mapping)
        if mapping.reason is None:
            folded_chunks[chunk_id] = folded_positions(_chunk_text(chunk))[0]

    articles = build.article_ids()
    by_article: dict[str, list[ChunkMapping]] = {}
    for mapping in mappings:
        if mapping.reason is None and mapping.article_id:
            by_article.setdefault(mapping.article_id, []).append(mapping)
    qrels: Qrels = {}
    dropped: list[str] = []
    section_text = {record.id: record.text for record in build.corpus}
    for qid, judged in build.qrels.items():
        article_chunks = by_article.get(articles[qid], [])
        query = build.by_qid.get(qid)
        graded = span_grades(
            article_chunks,
            judged,
            query.evidence if query is not None else None,
            folded_chunks,
            section_text,
        ) or {m.id: chunk_grade(m, judged) for m in article_chunks}
        if NAMED in graded.values():
            qrels[qid] = graded
        else:
            dropped.append(qid)
    if not any(m.reason is None for m in mappings):
        raise DataError(
            f"none of the {len(mappings)} chunks maps to a section of {build.folder}: are they "
            "chunks of another site, or of an older crawl? (url or path must name a page of "
            "the build)"
        )
    if not qrels:
        raise DataError(
            f"no query of {build.folder} keeps a chunk holding its section: the golden set "
            "over these chunks would be empty"
        )
    return AlignResult(qrels=qrels, mappings=mappings, dropped_queries=dropped)


def chunk_corpus(
    chunks: Sequence[dict[str, Any]], result: AlignResult, build: Build
) -> list[CorpusRecord]:
    """corpus.jsonl records for every chunk with an id, by article.

    A chunk that maps to nothing stays in the corpus, unjudged: a run over the chunks
    retrieves it, and it must not then show as "not in the corpus"."""
    mappings = {m.id: m for m in result.mappings if m.id}
    records = []
    for chunk in chunks:
        chunk_id = _chunk_id(chunk)
        mapping = mappings.get(chunk_id)
        if mapping is None:
            continue
        text = _chunk_text(chunk)
        if mapping.reason is None and mapping.main_section is not None:
            section = build.sections[mapping.main_section]
            # the chunk's own text: the section's sub-heading offsets do not hold in it
            update = {"id": chunk_id, "text": text, "subheadings": []}
            records.append(section.model_copy(update=update))
            continue
        path, url = chunk.get("path"), chunk.get("url")
        records.append(
            CorpusRecord(
                id=chunk_id,
                article_id=mapping.article_id or str(path or url or ""),
                path=str(path or ""),
                url=str(url) if url else None,
                title="",
                heading="",
                text=text,
            )
        )
    records.sort(key=lambda r: r.article_id)
    return records


def write_aligned(
    out: str | Path, build: Build, chunks: Sequence[dict[str, Any]], result: AlignResult
) -> AlignReport:
    """Write corpus.jsonl, golden.jsonl, qrels.trec, queries.tsv, beir/ and align_report.json."""
    folder = Path(out)
    corpus = chunk_corpus(chunks, result, build)
    order = {record.id: i for i, record in enumerate(corpus)}
    queries = []
    rows = []
    for qid, graded in result.qrels.items():
        ranked = sorted(graded, key=lambda c: order.get(c, 0))
        rows += [(qid, chunk_id, graded[chunk_id]) for chunk_id in ranked]
        query = build.by_qid.get(qid)
        if query is not None:
            relevant = named_in({chunk_id: graded[chunk_id] for chunk_id in ranked})
            queries.append(
                query.model_copy(
                    update={
                        "relevant": named(relevant),
                        "same_article": sum(1 for g in graded.values() if g == SAME_ARTICLE),
                    }
                )
            )
    with StagedFolder(folder, what="align") as staged:  # swapped in whole, as a build is
        write_regraded(staged.path, corpus, queries, rows)
        report = _report(result)
        write_json(staged.path / ALIGN_REPORT, report)
        staged.commit(keep=lambda name: True)  # the user's own files stay
    return report


def _report(result: AlignResult) -> AlignReport:
    unmapped = [m for m in result.mappings if m.reason is not None]
    report = AlignReport(
        rule="grade = highest grade of the sections with share >= MAJORITY_SHARE or "
        "cover >= COVER_SHARE, else 1; with an answer span in a grade-2 section: 2 for the "
        "chunks holding the span, 1 for that section's other chunks; unmapped below "
        "MIN_ARTICLE_SHARE",
        thresholds=AlignThresholds(
            shingle=SHINGLE,
            min_article_share=MIN_ARTICLE_SHARE,
            majority_share=MAJORITY_SHARE,
            cover_share=COVER_SHARE,
        ),
        counts=AlignCounts(
            chunks=len(result.mappings),
            mapped=len(result.mappings) - len(unmapped),
            unmapped=len(unmapped),
            queries=len(result.qrels),
            dropped_queries=len(result.dropped_queries),
        ),
        unmapped=[UnmappedChunk(id=m.id, reason=m.reason or "") for m in unmapped],
        dropped_queries=result.dropped_queries,
        chunks=[m for m in result.mappings if m.reason is None],
    )
    return report
