"""Queries likely to be mislabelled or unanswerable, most suspicious first, to feed the audit.

Signals, each with a weight (``CHECK_WEIGHTS``; the suspicion of a query is the sum
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
from ..patterns import AMBIGUITY_MARGIN, FUNCTION_WORDS, GUESSED_RULES, TIE_TOLERANCE
from ..store.buildfolder import Build
from ..store.layout import article_of
from ..text import alphanumeric, fold_case
from .runs import Run

#: Weights of the signals of `qrelsmith check` (a query's suspicion is the sum of its
#: signals'). A top hit elsewhere and an empty query are the causes the seed found most often
#: (of its 15 other-article queries, 6 meant nothing out of context, 3 had a valid answer
#: elsewhere); a duplicate is certain to be ambiguous for one of its articles; match doubts
#: are weaker.
CHECK_WEIGHTS: dict[str, float] = {
    "other-article": 2.0,
    "no-content": 3.0,
    "duplicate": 2.0,
    "low-confidence": 1.0,
    "near-tie": 1.5,
    "answer-elsewhere": 2.0,
}

#: Words that point at something outside the query or offer a choice: they carry no topic.
#: Japanese, English, Spanish and Korean (the seeds' languages).
DEMONSTRATIVES: tuple[str, ...] = (
    "どちら", "どっち", "どれ", "どこ", "どう", "それ", "これ", "あれ", "この", "その", "あの",
    "こちら", "そちら", "なに", "選ぶ", "使う", "する", "やる", "いい", "よい", "べき",
    "which", "this", "that", "these", "those", "it", "one", "or", "what", "choose", "use",
    "cuál", "cual", "esto", "eso", "este", "ese", "esta", "esa", "elegir", "usar", "qué", "que",
    "이것", "그것", "저것", "이거", "그거", "어느", "어떤", "무엇", "뭐", "선택",
)  # fmt: skip

#: Words removed before looking for a content word (same four languages): the function words
#: (FUNCTION_WORDS) and the endings, question and judgement words of a question.
STOPWORDS: tuple[str, ...] = FUNCTION_WORDS + (
    "ます", "です", "ない", "ですか", "ますか",
    "do", "how", "should", "i", "es", "cómo", "como", "mejor", "no", "not", "better", "best",
    "good",
    "할까", "하나", "해야", "하는", "할지", "쪽",
)  # fmt: skip

#: Korean particles and question endings stripped from the end of a word before the stopword
#: look-up ("선택할까" -> "선택", "무엇인가" -> "무엇").
HANGUL_PARTICLES: tuple[str, ...] = (
    "인가", "인지", "일까", "할까", "할지", "하나", "해야", "으로",
    "은", "는", "이", "가", "을", "를", "의", "와", "과", "로",
)  # fmt: skip

#: Yes-no choices with no subject: "置くか置かないか" (same verb, negated), "するかしないか",
#: "X or not", "sí o no".
CHOICE_PATTERN = re.compile(
    r"(\w)\w{0,4}か\1\w{0,4}ないか|するかしないか|\bor not\b|\bo no\b|\bsí o no\b"
)

#: A content word: 2+ kanji (okurigana between them allowed: 踏み台), 2+ katakana, a Latin
#: word of 2+ letters or digits, or a Hangul word of 2+ syllables.
CONTENT_RUN = re.compile(
    r"[\u4e00-\u9fff\u3400-\u4dbf](?:[\u3040-\u309f]{0,2}[\u4e00-\u9fff\u3400-\u4dbf])+"
    r"|[\u30a0-\u30ffー]{2,}|[a-z0-9\u00c0-\u024f]{2,}|[\uac00-\ud7a3]{2,}"
)

#: Near-duplicate: cosine of character 2-3-gram TF-IDF vectors (NFKC, lower case, spaces and
#: punctuation removed). 0.85 keeps spacing, punctuation and case variants together and kept
#: apart the eval fixture's distinct short queries; not yet tuned on a real site.
DUPLICATE_COSINE = 0.85
DUPLICATE_NGRAMS: tuple[int, int] = (2, 3)

#: Near-tie: the runner-up section's best heading within this much similarity (0-1, the
#: matcher's own measure). The build rejects ties under AMBIGUITY_MARGIN (0.08); twice that
#: still deserves a look.
NEAR_TIE_MARGIN = 2 * AMBIGUITY_MARGIN

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
