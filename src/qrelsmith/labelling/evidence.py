"""Labels + the article's sections -> where each label's answer is written (a span of text).

A pure stage after matching. For a query whose answer cell is not empty, the span is looked
for in the labelled section(s) first, then in the article's other sections:

1. **containment**: the whole answer inside a section's text, both compared in
   ``text.squashed`` form (NFKC and case folded, white space dropped: "ＴＣＰ 3389" is in
   "tcp 3389 番"), on word boundaries for Latin letters and digits (answer "No" is not
   in "Node"). Score 1.
2. **best window**: up to ``EVIDENCE_MAX_SENTENCES`` consecutive sentences of one section,
   scored by the weighted share of the answer's comparison units (``text.units``, the
   matcher's: Latin stems, CJK and Hangul bigrams; light units weigh
   ``EVIDENCE_LIGHT_WEIGHT``) they hold. A window below ``EVIDENCE_MIN_SCORE``, or holding
   less than ``EVIDENCE_MIN_WEIGHT`` of the answer (one shared word), is no evidence.

An answer of a single plain word ("true", "No": less than ``EVIDENCE_MIN_WEIGHT`` of units,
no ``SPECIFIC_WORD``) gets no span: it is written somewhere by chance. In sections other than
the labelled ones only the whole answer is looked for (and a checkable answer's values): the
windows are read in the labelled sections alone, so the work per label stays bounded by them.

A section's sentences and units are read once per article, only when a containment test
fails; no window is scored across sentence ends, so the work is linear in the text's length.

A **checkable** answer (``CHECKABLE_VALUE``: short, with numbers: ports, codes)
that none of the labelled sections hold — not one of its values is written there — while
another section holds every one of them gets that section as its evidence, the flag
``answer-elsewhere`` and a confidence of at most ``ANSWER_ELSEWHERE_CONFIDENCE``.

The offsets are into the section's ``text`` as written to corpus.jsonl:
``text[start:end] == evidence.text``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..models import Article, Evidence, GoldenQuery, Section
from ..patterns import MATCH_CONFIDENCE
from ..text import fold_case, is_light_unit, runs, squashed, units

#: A checkable answer (evidence.py): a short answer cell (at most CHECKABLE_MAX_UNITS
#: comparison units, ``text.units``) with a checkable value in it: a word (``text.runs``) with
#: a digit: a number, a port, a version, a status or error code ("3389", "404", "v4tov6",
#: "0x80070005"). Authors copy such values between the table and the body without rewording
#: them, so a section that lacks every one of them does not hold the answer. Prose words are
#: reworded (the sample's answers are summaries), and so are long answers. Tried and dropped:
#: acronyms ("API", "CA", "MX": on the sample written all over their articles, three of the
#: four marks they gave were on right labels), identifiers ("get_Window", "IAsyncXxx": on the
#: dev set's table cells, benchmarks/bench_evidence.py, all 7 marks they gave were on right
#: labels, an API page's member list holding every name) and answers up to 32 characters (a
#: Japanese sentence about "4xx" and "5xx" was marked, on a right label).
CHECKABLE_VALUE = re.compile(r"\d")
#: ... of at least this many characters: a lone "7" or "x" is found in any section.
CHECKABLE_MIN_CHARS = 2
#: ... in an answer of at most this many units: "TCP 3389 と UDP 3389" (5), "22/tcp by default"
#: (3), "204 No Content" (3) are values; "秘密鍵は 600、.ssh ディレクトリは 700" (12) is a
#: sentence about them.
CHECKABLE_MAX_UNITS = 8

#: A label whose checkable answer is held by another section of the article but by none of its
#: own sections keeps at most this confidence: the order rule's ceiling, below the audit's
#: LOW_CONFIDENCE, so the audit over-samples it and ``check`` flags it. (Its values were copied
#: into some section, and the labelled one is not it: as doubtful as a guess from the table's
#: order.)
ANSWER_ELSEWHERE_CONFIDENCE = MATCH_CONFIDENCE["order_max"]

#: Where a sentence of a section's text ends, for the evidence window: after a full stop of
#: CJK text, a question or exclamation mark, or a Latin stop, colon or semicolon followed by a
#: space (so "v1.2", "example.com" and "12:30" stay whole).
SENTENCE_END = re.compile(r"[。．！？!?]+|[.;:](?=\s)")

#: The evidence window: up to this many consecutive sentences ...
EVIDENCE_MAX_SENTENCES = 3
#: ... each one past the first kept only when it adds this much to the score: an answer cell
#: often sums up two sentences, seldom a paragraph.
EVIDENCE_EXTRA_SENTENCE = 0.1
#: The least score (weighted share of the answer's comparison units found in the window) of a
#: window recorded as evidence. Chosen on the sample build: of the answers the labelled section
#: does not hold whole, those whose best window there scores 0.5 or more get a sentence that
#: states the answer's point; of the 14 below, as many windows only share a word or two with the
#: answer ("chmod 640 app.conf" for "chmod +x deploy.sh") as say it. A reviewer must be able to
#: trust a highlighted span more than they need one on every row.
EVIDENCE_MIN_SCORE = 0.5
#: ... and holding at least this weight of the answer's units (or all of a lighter answer): one
#: shared word is chance ("not found" met "GET should not change state" in the audit fixture).
#: An answer lighter than this with no checkable value gets no span at all: the dev set's
#: answers are settings tables' "true" and "false", found in whatever section says it.
EVIDENCE_MIN_WEIGHT = 2.0
#: A word specific enough to be evidence on its own (``text.runs``, as written): a digit, an
#: underscore or an inner capital ("8080", "NODE_OPTIONS", "get_Window"); an answer of one
#: plain word ("true") is not looked for.
SPECIFIC_WORD = re.compile(r"\d|[a-z][A-Z]|_")
#: Units that carry little meaning (``text.is_light_unit``: bigrams with hiragana, generic
#: words) count this much in the score; a content unit counts 1.
EVIDENCE_LIGHT_WEIGHT = 0.25

#: The flag of a label whose checkable answer only another section holds.
ANSWER_ELSEWHERE = "answer-elsewhere"


def folded_positions(text: str) -> tuple[str, list[int]]:
    """``text.squashed(text)``, and for each of its characters the offset of the character of
    ``text`` it comes from.

    When folding keeps one character for each character that is not white space (the usual
    case) the offsets are those of the non-space characters; otherwise each character is folded
    on its own, so a width or ligature expansion ("㎏" -> "kg") maps every piece back to its
    source."""
    folded = squashed(text)
    kept = [match.start() for match in _NOT_SPACE.finditer(text)]
    if len(kept) == len(folded):
        return folded, kept
    out: list[str] = []
    where: list[int] = []
    for offset, char in enumerate(text):
        piece = "".join(fold_case(char).split())
        out.append(piece)
        where.extend([offset] * len(piece))
    return "".join(out), where


_NOT_SPACE = re.compile(r"\S")


def _word_char(char: str) -> bool:
    return char.isascii() and char.isalnum()


def contained(
    answer: str, text: str, squashed_text: str | None = None, read: _Read | None = None
) -> Evidence:
    """The first span of ``text`` that is the whole ``answer`` (folded), or a zero score.

    ``squashed_text`` (``text.squashed(text)``, worked out once per section) makes a miss cheap:
    the offsets are worked out only when the answer is in it."""
    needle, _ = folded_positions(answer)
    if not needle or needle not in (squashed_text if squashed_text is not None else squashed(text)):
        return _NONE
    haystack, where = read.positions if read is not None else folded_positions(text)
    found = haystack.find(needle)
    while found >= 0:
        start, end = where[found], where[found + len(needle) - 1] + 1
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        glued = (_word_char(needle[0]) and _word_char(before)) or (
            _word_char(needle[-1]) and _word_char(after)
        )
        if not glued:
            return Evidence(section="", start=start, end=end, text=text[start:end], score=1.0)
        found = haystack.find(needle, found + 1)
    return _NONE


_NONE = Evidence(section="", start=0, end=0, text="", score=0.0)


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, white space at their edges left out."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for stop in SENTENCE_END.finditer(text):
        bounds.append((start, stop.end()))
        start = stop.end()
    bounds.append((start, len(text)))
    trimmed = []
    for begin, end in bounds:
        while begin < end and text[begin].isspace():
            begin += 1
        while end > begin and text[end - 1].isspace():
            end -= 1
        if end > begin:
            trimmed.append((begin, end))
    return trimmed


@dataclass
class _Read:
    """One section's text as the spans need it, each form made on first use."""

    text: str
    _squashed: str | None = None
    _positions: tuple[str, list[int]] | None = None
    _sentences: tuple[list[tuple[int, int]], list[frozenset[str]]] | None = None
    _words: frozenset[str] | None = None

    @property
    def squashed(self) -> str:
        """``text.squashed`` form of the text (for containment)."""
        if self._squashed is None:
            self._squashed = squashed(self.text)
        return self._squashed

    @property
    def positions(self) -> tuple[str, list[int]]:
        """``folded_positions`` of the text (for a containment hit's offsets)."""
        if self._positions is None:
            self._positions = folded_positions(self.text)
        return self._positions

    @property
    def sentences(self) -> tuple[list[tuple[int, int]], list[frozenset[str]]]:
        """Each sentence's (start, end) and its comparison units (for windows)."""
        if self._sentences is None:
            bounds = sentence_bounds(self.text)
            self._sentences = (bounds, [frozenset(units(self.text[a:b])) for a, b in bounds])
        return self._sentences

    @property
    def words(self) -> frozenset[str]:
        """The text's Latin words and numbers, case-folded (for checkable values)."""
        if self._words is None:
            self._words = frozenset(run for kind, run, _ in runs(self.text) if kind == "word")
        return self._words


@dataclass
class _Answer:
    text: str
    weights: dict[str, float]
    values: frozenset[str]
    specific: bool

    @classmethod
    def of(cls, text: str) -> _Answer:
        weights = {
            unit: EVIDENCE_LIGHT_WEIGHT if is_light_unit(unit) else 1.0 for unit in units(text)
        }
        specific = any(
            kind == "word" and SPECIFIC_WORD.search(written) for kind, _, written in runs(text)
        )
        return cls(text, weights, checkable_values(text), specific)


def checkable_values(answer: str) -> frozenset[str]:
    """The checkable values of a checkable answer (``CHECKABLE_VALUE``), case-folded;
    none for a longer answer."""
    if len(units(answer)) > CHECKABLE_MAX_UNITS:
        return frozenset()
    return frozenset(
        run
        for kind, run, written in runs(answer)
        if kind == "word" and len(run) >= CHECKABLE_MIN_CHARS and CHECKABLE_VALUE.search(written)
    )


class Readable(Protocol):
    """What reading a section's text needs of it: its id (the key of what was read) and text."""

    @property
    def id(self) -> str: ...

    @property
    def text(self) -> str: ...


@dataclass
class ArticleText:
    """An article's sections, each read (folded, split into sentences) on first use."""

    sections: Sequence[Section]
    _read: dict[str, _Read] = field(default_factory=dict)

    def read(self, section: Readable) -> _Read:
        """The section's text as the spans need it."""
        done = self._read.get(section.id)
        if done is None:
            done = self._read[section.id] = _Read(section.text)
        return done

    def window(self, answer: _Answer, section: Section) -> Evidence:
        """The section's best window of sentences for ``answer`` (score 0 when none)."""
        total = sum(answer.weights.values())
        if not total:
            return _NONE
        bounds, sentences = self.read(section).sentences
        best_key: tuple[float, int, int] = (0.0, 0, 0)  # ranked score, then fewer, earlier
        best: tuple[int, int, float] | None = None  # first, last sentence, score
        for first in range(len(sentences)):
            held: set[str] = set()
            for last in range(first, min(first + EVIDENCE_MAX_SENTENCES, len(sentences))):
                held |= sentences[last]
                found = sum(w for unit, w in answer.weights.items() if unit in held)
                if found < min(EVIDENCE_MIN_WEIGHT, total) - 1e-9:
                    continue
                score = found / total
                key = (
                    round(score - EVIDENCE_EXTRA_SENTENCE * (last - first), 9),
                    first - last,
                    -first,
                )
                if score > 0 and key > best_key:
                    best_key, best = key, (first, last, score)
        if best is None:
            return _NONE
        first, last, best_score = best
        start, end = bounds[first][0], bounds[last][1]
        text = section.text
        return Evidence(
            section=section.id,
            start=start,
            end=end,
            text=text[start:end],
            score=round(min(best_score, 1.0), 4),
        )

    def holds_any(self, section: Section, values: Iterable[str]) -> bool:
        """True when the section's text has one of the values as a word."""
        words = self.read(section).words
        return any(value in words for value in values)

    def holds_all(self, section: Readable, values: Iterable[str]) -> bool:
        """True when the section's text has every one of the values as a word."""
        words = self.read(section).words
        return all(value in words for value in values)

    def holds_answer(self, answer: str, section: Readable) -> bool:
        """Whether the section holds ``answer``: every value of a checkable answer, else the
        whole answer, or every one of its content units (light ones aside) within one window
        of sentences. Stricter than a span, which half the answer's weight earns: a window
        naming the answer's topic but not its specifics ("docker volume create" for "docker
        volume prune") does not hold it. An answer too plain to place (one plain word) is held
        nowhere: it is written anywhere by chance."""
        parsed = _Answer.of(answer)
        if parsed.values:
            return self.holds_all(section, parsed.values)
        if sum(parsed.weights.values()) < EVIDENCE_MIN_WEIGHT and not parsed.specific:
            return False
        read = self.read(section)
        if contained(answer, section.text, read.squashed, read).score:
            return True
        needed = {unit for unit in parsed.weights if not is_light_unit(unit)}
        if not needed:
            return False
        _, sentences = read.sentences
        for first in range(len(sentences)):
            held: set[str] = set()
            for last in range(first, min(first + EVIDENCE_MAX_SENTENCES, len(sentences))):
                held |= sentences[last]
                if needed <= held:
                    return True
        return False

    def find(
        self, answer: _Answer, sections: Sequence[Section], windows: bool = True
    ) -> Evidence | None:
        """Containment in the sections (in order), else (``windows``) their best window, if
        good enough."""
        for section in sections:
            read = self.read(section)
            span = contained(answer.text, section.text, read.squashed, read)
            if span.score:
                return span.model_copy(update={"section": section.id})
        if not windows:
            return None
        best: Evidence | None = None
        for section in sections:
            span = self.window(answer, section)
            if span.score >= EVIDENCE_MIN_SCORE and (best is None or span.score > best.score):
                best = span
        return best


def find_evidence(
    answer: str, labelled: Sequence[Section], others: Sequence[Section], text: ArticleText
) -> tuple[Evidence | None, bool]:
    """The answer's span, and whether it is a checkable answer held only elsewhere."""
    if not answer.strip():
        return None, False
    parsed = _Answer.of(answer)
    values = parsed.values
    if sum(parsed.weights.values()) < EVIDENCE_MIN_WEIGHT and not parsed.specific:
        return None, False  # one plain word ("true", "No") is written somewhere by chance
    if values and others and not any(text.holds_any(s, values) for s in labelled):
        holders = [s for s in others if text.holds_all(s, values)]
        if holders:
            found = text.find(parsed, holders) or _value_span(parsed, holders[0])
            if found is not None:
                return found, True
    found = text.find(parsed, labelled)
    if found is None:  # the rest of the article: whole answers only, the windows cost too much
        found = text.find(parsed, others, windows=False)
    return found, False


def _value_span(answer: _Answer, section: Section) -> Evidence | None:
    """The first checkable value of the answer as written in the section (score: the share of
    the answer's units that value is)."""
    total = sum(answer.weights.values()) or 1.0
    for value in sorted(answer.values, key=len, reverse=True):
        span = contained(value, section.text)
        if span.score:
            weight = sum(w for unit, w in answer.weights.items() if unit in units(value))
            return span.model_copy(
                update={"section": section.id, "score": round(min(weight / total, 1.0), 4)}
            )
    return None


#: An answer that is the whole text of its one labelled document (a FAQ page's answer, a
#: document of its own) is found there whole. ``whole_document_span`` says so without folding
#: the text for containment and cutting it into units (0.12 s of the FAQ source's 0.9 s on the
#: 1,941 pages of the benchmark crawl, its 193 answers being long): the answer passes
#: find_evidence's one-plain-word rule when the words of its first
#: WHOLE_DOCUMENT_PREFIX_CHARS characters (cut after a whole word) already do.
WHOLE_DOCUMENT_PREFIX_CHARS = 300


def whole_document_span(answer: str, section: Section) -> Evidence | None:
    """``find_evidence``'s span for an answer that is ``section``'s whole text: all of it,
    score 1; None when that is not certain without its full reading (then ask
    ``find_evidence``)."""
    text = section.text
    if answer != text or not text or text[0].isspace() or text[-1].isspace():
        return None
    if len(squashed(text)) != len("".join(text.split())):
        return None  # folding widens a character ("㎏"): the offsets map piece by piece
    prefix = text
    if len(text) > WHOLE_DOCUMENT_PREFIX_CHARS:
        prefix = text[: max(0, text.rfind(" ", 0, WHOLE_DOCUMENT_PREFIX_CHARS))]
    if not prefix or not prefix[-1].isalnum():
        return None  # a prefix must end on a whole word: its units are then the text's too
    parsed = _Answer.of(prefix)
    if sum(parsed.weights.values()) < EVIDENCE_MIN_WEIGHT and not parsed.specific:
        return None
    return Evidence(section=section.id, start=0, end=len(text), text=text, score=1.0)


def with_evidence(queries: Sequence[GoldenQuery], article: Article) -> list[GoldenQuery]:
    """The queries with their ``evidence`` (and ``answer-elsewhere`` where it applies)."""
    text = ArticleText(article.sections)
    by_id = {section.id: section for section in article.sections}
    out = []
    for query in queries:
        labelled = [by_id[sid] for sid in query.relevant if sid in by_id]
        whole = whole_document_span(query.answer, labelled[0]) if len(labelled) == 1 else None
        if whole is not None:
            out.append(query.model_copy(update={"evidence": whole}))
            continue
        others = [s for s in article.sections if s.id not in query.relevant]
        evidence, elsewhere = find_evidence(query.answer, labelled, others, text)
        if evidence is None:
            out.append(query)
            continue
        update: dict[str, object] = {"evidence": evidence}
        if elsewhere:
            update["flags"] = [*query.flags, ANSWER_ELSEWHERE]
            update["confidence"] = min(query.confidence, ANSWER_ELSEWHERE_CONFIDENCE)
        out.append(query.model_copy(update=update))
    return out
