"""Queries likely to be mislabelled or unanswerable, most suspicious first, to feed the audit.

Signals, each with a weight (``patterns.CHECK_WEIGHTS``; the suspicion of a query is the sum
of its signals' weights):
- ``other-article``: the baseline's top hit is a section of another article (the seed read 15
  such queries: 6 meant nothing out of context, 3 had a valid answer elsewhere);
- ``no-content``: the query has no content word once demonstratives, choice words and particles
  are removed ("どちらを選ぶか", "置くか置かないか");
- ``duplicate``: the same or a nearly identical query in another article;
- ``low-confidence``: the label's confidence (0-1, any rule) is below the audit's
  ``low_confidence``;
- ``near-tie``: a fuzzy or order match where another section's heading is almost as similar to
  the reference, by the matcher's own similarity (``matching.HeadingIndex``);
- ``answer-elsewhere``: the answer is a checkable value (a port, a code, a version: a number)
  that none of the labelled sections holds while another section does (``evidence.py``); the
  detail names that section.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from scipy import sparse

from ..config import AuditOptions
from ..labelling.evidence import ANSWER_ELSEWHERE
from ..labelling.matching import Form, HeadingIndex, SectionHeadings
from ..models import Signal, Suspect
from ..patterns import (
    CHECK_WEIGHTS,
    CHOICE_PATTERN,
    CONTENT_RUN,
    DEMONSTRATIVES,
    DUPLICATE_COSINE,
    DUPLICATE_NGRAMS,
    GUESSED_RULES,
    HANGUL_PARTICLES,
    NEAR_TIE_MARGIN,
    STOPWORDS,
    TIE_TOLERANCE,
)
from ..store.buildfolder import Build
from ..store.layout import article_of
from ..text import alphanumeric, fold_case
from .runs import Run

_CJK_WORD = re.compile(r"^[\u3040-\u30ff\u4e00-\u9fff]+$")


def _normalize(text: str) -> str:
    return fold_case(text).strip()


def has_no_content(query: str) -> bool:
    """True when the query is only demonstratives, choice words and particles."""
    text = CHOICE_PATTERN.sub(" ", _normalize(query))
    words = set(DEMONSTRATIVES) | set(STOPWORDS)
    # Japanese has no spaces: cut the listed words out of the string, longest first
    for word in sorted((w for w in words if _CJK_WORD.match(w)), key=len, reverse=True):
        text = text.replace(word, " ")
    for token in re.findall(r"\w+", text):
        for particle in ("",) + HANGUL_PARTICLES:
            stem = token[: -len(particle)] if particle and token.endswith(particle) else token
            if stem in words:
                break
        else:
            if CONTENT_RUN.search(token):
                return False
    return True


def duplicate_pairs(queries: dict[str, str]) -> list[tuple[str, str, float]]:
    """(qid, qid, cosine) of queries of different articles at or above DUPLICATE_COSINE."""
    from sklearn.feature_extraction.text import TfidfVectorizer  # slow import: only when used

    qids = list(queries)
    if len(qids) < 2:
        return []
    vectorizer = TfidfVectorizer(
        analyzer="char", ngram_range=DUPLICATE_NGRAMS, preprocessor=alphanumeric
    )
    try:
        matrix = sparse.csr_matrix(vectorizer.fit_transform([queries[q] for q in qids]))
    except ValueError:  # every query shorter than two characters
        return []
    similarity = sparse.triu(matrix @ matrix.T, k=1).tocoo()
    pairs = []
    for i, j, value in zip(similarity.row, similarity.col, similarity.data, strict=True):
        if value >= DUPLICATE_COSINE - TIE_TOLERANCE and article_of(qids[i]) != article_of(qids[j]):
            pairs.append((qids[i], qids[j], float(min(value, 1.0))))
    return pairs


def heading_index(sections: Sequence[tuple[str, str]]) -> HeadingIndex:
    """The matcher's index over an article's corpus sections, given as (id, heading)."""
    return HeadingIndex(SectionHeadings(section_id, (heading,)) for section_id, heading in sections)


def section_similarities(reference: str, index: HeadingIndex) -> list[float]:
    """The best similarity (0-1) of each section's heading to ``reference``, best first."""
    form = Form(reference)
    best: dict[str, float] = {}
    for position, target in enumerate(index.targets):
        score = index.similarity(form, position)[0]
        best[target.target_id] = max(score, best.get(target.target_id, 0.0))
    return sorted(best.values(), reverse=True)


def other_article_hits(build: Build, run: Run) -> dict[str, str]:
    """qid -> the run's top hit, for the queries whose top hit is a section of another
    article (the ``other-article`` signal; ``audit pool`` seeds the pool with these pairs)."""
    doc_article = {r.id: r.article_id or article_of(r.id) for r in build.corpus}
    articles = build.article_ids()
    found: dict[str, str] = {}
    for qid in build.topics:
        hits = run.get(qid) or []
        if hits:
            top = hits[0][0]
            if doc_article.get(top, article_of(top)) != articles.get(qid, article_of(qid)):
                found[qid] = top
    return found


def check_build(build: Build, run: Run, options: AuditOptions) -> list[Suspect]:
    """Suspect queries of ``build``, most suspicious first (ties by qid); ``low-confidence`` is
    below ``options.low_confidence``, the audit's."""
    sections: dict[str, list[tuple[str, str]]] = {}
    for record in build.corpus:
        sections.setdefault(record.article_id or article_of(record.id), []).append(
            (record.id, record.heading)
        )
    indexes: dict[str, HeadingIndex] = {}
    articles = build.article_ids()
    topics = build.topics
    signals: dict[str, list[Signal]] = {qid: [] for qid in topics}
    elsewhere = other_article_hits(build, run)

    for qid in topics:
        if qid in elsewhere:
            signals[qid].append(Signal(kind="other-article", detail=f"top hit {elsewhere[qid]}"))
        if has_no_content(topics[qid]):
            signals[qid].append(Signal(kind="no-content", detail="no content word out of context"))
        query = build.by_qid.get(qid)
        if query is None:
            continue
        if query.confidence < options.low_confidence:
            signals[qid].append(
                Signal(
                    kind="low-confidence",
                    detail=f"confidence {query.confidence:.2f} ({query.match})",
                )
            )
        if ANSWER_ELSEWHERE in query.flags and query.evidence is not None:
            signals[qid].append(
                Signal(
                    kind="answer-elsewhere",
                    detail=f"answer found in {query.evidence.section}",
                )
            )
        if query.match in GUESSED_RULES:
            article = articles.get(qid, "")
            if article not in indexes:
                indexes[article] = heading_index(sections.get(article, []))
            ranked = section_similarities(query.reference or "", indexes[article])
            if len(ranked) >= 2 and ranked[0] - ranked[1] < NEAR_TIE_MARGIN:
                signals[qid].append(
                    Signal(
                        kind="near-tie",
                        detail=f"best headings {ranked[0]:.2f} and {ranked[1]:.2f}",
                    )
                )

    for first, second, cosine in duplicate_pairs(topics):
        signals[first].append(Signal(kind="duplicate", detail=f"{second} ({cosine:.2f})"))
        signals[second].append(Signal(kind="duplicate", detail=f"{first} ({cosine:.2f})"))

    suspects = [
        Suspect(
            qid=qid,
            query=topics[qid],
            signals=found,
            suspicion=round(float(np.sum([CHECK_WEIGHTS[s.kind] for s in found])), 3),
        )
        for qid, found in signals.items()
        if found
    ]
    suspects.sort(key=lambda s: (-s.suspicion, s.qid))
    return suspects
