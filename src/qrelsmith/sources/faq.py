"""FAQ questions and the answers their authors wrote: each question a query.

Found on a page, in this order (``find``):

1. **markup**: schema.org ``FAQPage`` as JSON-LD (anywhere in the document, also inside an
   ``@graph`` or a list) and ``Question`` items in microdata (``itemprop=acceptedAnswer``);
2. **the page's own markup**, in a FAQ section (an H2 whose heading names a FAQ and is kept
   out of the corpus, ``[build] excluded_headings``) or anywhere on a FAQ page (its title or
   first heading names a FAQ, ``patterns.FAQ_PAGE_TITLE``): question headings (on a FAQ page
   only those ending with "?"), "Q. …" / "Q：" / "質問" / "P:" / "Pregunta" paragraphs and the
   paragraphs after them, ``<details><summary>``, and ``<dl>`` terms with their definitions.

Labelled two ways (``queries``):

- the pairs are the page's content (a FAQ page, FAQPage markup): each answer is a corpus
  document of its own, ``<article>#faq-a<n>``, without the question (the question's elements
  are taken out of the tree, so no section holds them), grade 2 for its question, rule
  ``faq-page``;
- the pair sits in a FAQ section of an article (out of the corpus, as the study keeps it):
  the label is the body section BM25 ranks first for the question and answer together
  (``content.SectionText``, the matcher's rule ``content``) when it is
  ``patterns.FAQ_BODY_RATIO`` ahead of the runner-up, rule ``faq-body``; else no query
  (rejected ``no_confident_section``).

Never a query whose question is written in a document of its article (``question_in_document``);
the same question twice on a page is kept once (``duplicate_question``; the build keeps a
question asked on several pages once, ``report.py``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from copy import deepcopy
from typing import Any

from lxml import etree, html

from .. import patterns
from ..config import BuildOptions
from ..labelling.content import SectionText
from ..labelling.evidence import ArticleText, find_evidence, with_evidence
from ..labelling.labels import named, same_article_count
from ..labelling.overlap import with_overlap
from ..models import (
    Article,
    Candidate,
    GoldenQuery,
    Origin,
    Rejected,
    RejectReason,
    Section,
    SourceNote,
)
from ..page.parse import Element, remove_element
from ..page.reading import dropped, without_permalinks
from ..page.sections import HEADING_TAGS, exclusion_pattern, heading_level, marked_text
from ..patterns import MAX_QUERY_CHARS
from ..store.layout import source_document_id, source_query_id
from ..text import fold_space, squashed
from .base import Found, PageContext

KIND = "faq"

_MARKERS = re.compile(f"[{patterns.MARK}{patterns.LINK_OPEN}{patterns.LINK_CLOSE}]")
_TOKEN = re.compile(f"{patterns.MARK}[^{patterns.MARK}]*{patterns.MARK}")
_LD_JSON = etree.XPath("//script[contains(translate(@type, 'LDJSON', 'ldjson'), 'ld+json')]")
_MICRODATA = etree.XPath("//*[@itemscope][contains(@itemtype, 'schema.org/Question')]")
_ITEMPROP = etree.XPath(".//*[@itemprop=$name]")
#: What a page's bytes hold, lower-cased, when a form can be on it: looked for with ``in`` (a
#: C-level substring search; a regex with IGNORECASE over each page cost 5 ms a page on the
#: benchmark crawl) before any walk of the tree.
_LD_JSON_BYTES = b"ld+json"
_QUESTION_BYTES = b"schema.org/question"
_FAQ_WORDS_BYTES = tuple(
    word.encode("utf-8")
    for word in ("faq", "frequently asked", "よくある", "preguntas frecuentes", "자주")
)


def question_key(question: str) -> str:
    """What two questions are compared by: folded, without white space, punctuation or a
    "Q." marker (near-duplicates: "How do I X?" and "how do i x"); the symbols that make a
    name ("C++", "C#") are kept: Python's FAQ asks about functions in C and in C++."""
    return _NOT_KEY.sub("", squashed(patterns.FAQ_QUESTION_MARK.sub("", question)))


_NOT_KEY = re.compile(r"[^\w+#]|_")


def block_text(elements: list[Element], options: BuildOptions) -> str:
    """The text of ``elements`` as a section's is read: dropped tags (code, scripts) left
    out, block breaks as spaces."""
    parts = []
    for element in elements:
        text = marked_text(element, options.drop_tags, False, options.permalink_selectors)
        parts.append(_MARKERS.sub("", _TOKEN.sub(" ", text)))
    return fold_space(" ".join(parts))


def _answer_text(text: str) -> str:
    return fold_space(patterns.FAQ_ANSWER_MARK.sub("", text, count=1))


# --------------------------------------------------------------------------- markup


def _depth_ok(value: Any) -> bool:
    """True when ``value`` nests no deeper than ``FAQ_JSONLD_MAX_DEPTH`` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > patterns.FAQ_JSONLD_MAX_DEPTH:
            return False
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return True


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object in ``value``, outer ones first (``@graph`` and lists included)."""
    stack = [value]
    while stack:
        item = stack.pop(0)
        if isinstance(item, dict):
            yield item
            stack.extend(v for v in item.values() if isinstance(v, dict | list))
        elif isinstance(item, list):
            stack.extend(v for v in item if isinstance(v, dict | list))


def _typed(item: dict[str, Any], name: str) -> bool:
    kinds = item.get("@type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return any(isinstance(k, str) and k.rpartition("/")[2] == name for k in kinds)


def _html_text(value: Any) -> str:
    """A JSON-LD text, which may hold HTML: its text, scripts and styles left out."""
    if not isinstance(value, str):
        return ""
    if "<" not in value:
        return fold_space(value)
    try:
        fragment = html.fragment_fromstring(value, create_parent="div")
    except (etree.ParserError, ValueError):
        return fold_space(re.sub(r"<[^>]*>", " ", value))
    etree.strip_elements(fragment, "script", "style", "template", with_tail=False)
    return fold_space("".join(fragment.itertext()))


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, list) and value else value


def _json_ld(document: Element) -> tuple[list[tuple[str, str, str]], list[SourceNote]]:
    """(question, answer, locator) of every FAQPage's questions in the document's JSON-LD."""
    pairs: list[tuple[str, str, str]] = []
    notes: list[SourceNote] = []
    for number, script in enumerate(_LD_JSON(document)):
        text = script.text or ""
        where = f"json-ld block {number}"
        if len(text) > patterns.FAQ_JSONLD_MAX_CHARS:
            notes.append(SourceNote(kind=KIND, reason="json-ld too large", detail=where))
            continue
        try:
            data = json.loads(text)
        except RecursionError:
            notes.append(SourceNote(kind=KIND, reason="json-ld too deep", detail=where))
            continue
        except ValueError as exc:
            notes.append(
                SourceNote(kind=KIND, reason="json-ld unreadable", detail=f"{where}: {exc}")
            )
            continue
        if not _depth_ok(data):
            notes.append(SourceNote(kind=KIND, reason="json-ld too deep", detail=where))
            continue
        for page in (item for item in _objects(data) if _typed(item, "FAQPage")):
            entities = page.get("mainEntity", [])
            for n, question in enumerate(entities if isinstance(entities, list) else [entities]):
                if not isinstance(question, dict):
                    continue
                answer = _first(question.get("acceptedAnswer") or question.get("suggestedAnswer"))
                answer_text = _html_text(answer.get("text")) if isinstance(answer, dict) else ""
                name = _html_text(question.get("name") or question.get("text"))
                pairs.append((name, answer_text, f"{where} FAQPage question {n}"))
    return pairs, notes


def _microdata(document: Element) -> list[tuple[str, str, str, Element]]:
    """(question, answer, locator, element) of every schema.org Question in microdata."""
    pairs = []
    for n, item in enumerate(_MICRODATA(document)):
        names = _ITEMPROP(item, name="name")
        answers = _ITEMPROP(item, name="acceptedAnswer") or _ITEMPROP(item, name="suggestedAnswer")
        texts = _ITEMPROP(answers[0], name="text") if answers else []
        question = fold_space("".join(names[0].itertext())) if names else ""
        answer = fold_space("".join(texts[0].itertext())) if texts else ""
        if not answer and answers:
            answer = fold_space("".join(answers[0].itertext()))
        pairs.append((question, answer, f"microdata Question {n}", item))
    return pairs


# --------------------------------------------------------------------------- the page's markup


def _read(element: Element, options: BuildOptions) -> str:
    """An element's text without its heading permalinks (Sphinx's "¶")."""
    return fold_space("".join(without_permalinks(element, options.permalink_selectors).itertext()))


def _is_faq_heading(text: str, options: BuildOptions) -> bool:
    """A section heading that names a FAQ and is kept out of the corpus."""
    return bool(patterns.FAQ_PAGE_TITLE.search(text)) and (
        exclusion_pattern(text, options.excluded_headings) is not None
    )


def _is_question_mark(element: Element) -> bool:
    return element.tag == "p" and bool(patterns.FAQ_QUESTION_MARK.match(element.text or ""))


def _with_breaks(element: Element) -> str:
    """The element's text with a line break where it has a <br> (a copy is read)."""
    copy = deepcopy(element)
    for br in copy.iter("br"):
        br.tail = "\n" + (br.tail or "")
    return "".join(copy.itertext())


def _answer_siblings(element: Element, rank: int) -> list[Element]:
    """The siblings after a question up to the next heading, question paragraph or section."""
    out = []
    for sibling in element.itersiblings():
        if not isinstance(sibling.tag, str):
            continue
        if heading_level(sibling.tag) or _is_question_mark(sibling):
            break
        if sibling.tag in ("section", "details") or sibling.find(".//h1") is not None:
            break
        if any(sibling.iter(*HEADING_TAGS)):
            break
        out.append(sibling)
    return out


def _dom_pairs(
    root: Element, faq_page: bool, options: BuildOptions
) -> Iterator[tuple[str, list[Element], list[Element], str, str]]:
    """(question, question elements, answer elements, locator, answer text written in the
    question's own paragraph) of the page's own FAQ markup: anywhere on a FAQ page, in FAQ
    sections elsewhere."""
    level = options.section_level
    in_faq = faq_page
    section = ""
    taken: set[Element] = set()
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        rank = heading_level(element.tag)
        if rank and rank <= level:
            heading = _read(element, options)
            if not faq_page:
                in_faq = rank == level and _is_faq_heading(heading, options)
            section = heading
        if not in_faq or element in taken or dropped(element, options.drop_tags):
            continue
        if any(parent in taken for parent in element.iterancestors()):
            continue
        where = f"section {section!r}: " if section else ""
        question = _read(element, options)
        if rank and (rank > level or faq_page) and rank > 1:
            asks = patterns.FAQ_QUESTION_END.search(question) or patterns.FAQ_QUESTION_MARK.match(
                question
            )
            if asks or (not faq_page and rank > level):
                answer = _answer_siblings(element, rank)
                taken.update([element, *answer])
                yield question, [element], answer, f"{where}h{rank} {question[:60]!r}", ""
        elif _is_question_mark(element):
            answer = _answer_siblings(element, 0)
            taken.update([element, *answer])
            written = _with_breaks(element)
            inline = patterns.FAQ_INLINE_ANSWER.search(written)
            if inline:  # "Q: … <br> A: …" in one paragraph: the answer follows in it
                question = fold_space(written[: inline.start()])
                yield (
                    question,
                    [element],
                    answer,
                    f"{where}p {question[:60]!r}",
                    written[inline.end() :],
                )
                continue
            yield question, [element], answer, f"{where}p {question[:60]!r}", ""
        elif element.tag == "details":
            summary = element.find("summary")
            if summary is None:
                continue
            asked = _read(summary, options)
            taken.add(element)
            answer = [
                child for child in element if isinstance(child.tag, str) and child is not summary
            ]
            yield asked, [element], answer, f"{where}details {asked[:60]!r}", ""
        elif element.tag == "dl":
            taken.add(element)
            terms = [child for child in element if child.tag in ("dt", "dd")]
            for position, term in enumerate(terms):
                if term.tag != "dt":
                    continue
                definitions = []
                for following in terms[position + 1 :]:
                    if following.tag == "dt":
                        break
                    definitions.append(following)
                asked = _read(term, options)
                yield asked, [term], definitions, f"{where}dl {asked[:60]!r}", ""


def _faq_page(page: PageContext) -> bool:
    """A page whose title or first heading names a FAQ and that asks at least half as many
    questions as it has other headings ("FAQ Post Creator", a plugin's README, is not one)."""
    first = page.root.find(".//h1")
    heading = _read(first, page.options) if first is not None else ""
    if not (patterns.FAQ_PAGE_TITLE.search(page.title) or patterns.FAQ_PAGE_TITLE.search(heading)):
        return False
    headings = [
        _read(h, page.options)
        for h in page.root.iter(*HEADING_TAGS[1:])
        if not dropped(h, page.options.drop_tags)
    ]
    # questions: headings, and the terms and summaries that ask one (git's FAQ writes its
    # questions as <dt>, under topic headings)
    asked = sum(bool(patterns.FAQ_QUESTION_END.search(text)) for text in headings) + sum(
        bool(patterns.FAQ_QUESTION_END.search(_read(term, page.options)))
        for term in page.root.iter("dt", "summary")
    )
    return asked > 0 and asked * patterns.FAQ_PAGE_QUESTION_SHARE >= len(headings)


def _has_faq_section(root: Element, options: BuildOptions) -> bool:
    tag = f"h{options.section_level}"
    return any(_is_faq_heading(_read(h, options), options) for h in root.iter(tag))


class FaqSource:
    """FAQ questions with their authors' answers (``[build] sources = ["table", "faq"]``)."""

    kind = KIND
    looks_for = "no FAQ question (no FAQ section, FAQ page, FAQPage JSON-LD or microdata Question)"

    def find(self, page: PageContext) -> Found:
        """The page's question/answer pairs (see the module doc); on a FAQ page or in markup
        the questions are taken out of the tree and each answer is a document of its own."""
        options, root = page.options, page.root
        document = root.getroottree().getroot()
        found = Found()
        seen: set[str] = set()
        marked: list[tuple[str, str, str]] = []
        low = page.raw.lower()
        if not low or _LD_JSON_BYTES in low:
            json_pairs, notes = _json_ld(document)
            found.notes += notes
            marked += json_pairs
        microdata = _microdata(document) if not low or _QUESTION_BYTES in low else []
        for question, answer, locator, element in microdata:
            marked.append((question, answer, locator))
            if element is not root and element not in root.iterancestors():
                remove_element(element)
        for question, answer, locator in marked:
            seen.add(question_key(question))
            self._add(found, page, question, answer, locator, own=True)
        if marked:
            _drop_question_elements(root, {question_key(q) for q, _, _ in marked})
        if low and not marked and not any(word in low for word in _FAQ_WORDS_BYTES):
            return found  # no FAQ word anywhere: no FAQ section, no FAQ page
        faq_page = bool(marked) or _faq_page(page)
        if not faq_page and not _has_faq_section(root, options):
            return found
        pairs = list(_dom_pairs(root, faq_page, options))
        for question, _, elements, locator, inline in pairs:
            key = question_key(question)
            if marked and key in seen:
                continue  # shown on the page as its markup says
            text = fold_space(f"{inline} {block_text(elements, options) if elements else ''}")
            self._add(found, page, question, text, locator, own=faq_page)
        if faq_page:
            for _, asked, elements, _, _ in pairs:
                for element in [*asked, *elements]:
                    remove_element(element)
        return found

    def _add(
        self, found: Found, page: PageContext, question: str, answer: str, locator: str, own: bool
    ) -> None:
        n = len(found.candidates)
        answer = _answer_text(answer)
        question = fold_space(patterns.FAQ_QUESTION_MARK.sub("", question, count=1))
        found.candidates.append(
            Candidate(
                kind=KIND, n=n, query=question, answer=answer, locator=locator, own_document=own
            )
        )
        asked_before = any(
            question_key(c.query) == question_key(question) for c in found.candidates[:-1]
        )
        if own and answer and not asked_before:  # a repeated question is rejected: no document
            found.documents.append(
                Section(
                    id=source_document_id(page.article_id, KIND, n),
                    article_id=page.article_id,
                    index=n,
                    heading="",
                    text=answer,
                )
            )

    def queries(
        self, article: Article, options: BuildOptions
    ) -> tuple[list[GoldenQuery], list[Rejected]]:
        """Each FAQ candidate as a labelled query, or rejected with its reason."""
        candidates = [c for c in article.candidates if c.kind == KIND]
        if not candidates:  # most pages: nothing of the article is read
            return [], []
        path = article.path or article.id
        queries: list[GoldenQuery] = []
        rejected: list[Rejected] = []
        seen: set[str] = set()
        ranks: SectionText | None = None
        text = ArticleText(article.sections)
        by_id = {section.id: section for section in article.sections}
        # a document is its heading (BEIR's title) and its text: the question in either leaks
        texts = [squashed(s.heading) for s in article.sections if s.heading] + [
            squashed(s.text) for s in article.sections
        ]
        for candidate in candidates:
            key = question_key(candidate.query)
            reason: RejectReason | None = None
            relevant: list[str] = []
            rule, confidence = "faq-page", patterns.FAQ_PAGE_CONFIDENCE
            if not key:
                reason = "empty"
            elif len(candidate.query) > MAX_QUERY_CHARS:
                reason = "too_long"
            elif key in seen:
                reason = "duplicate_question"
            elif not candidate.answer:
                reason = "no_answer"
            elif candidate.own_document:
                relevant = [source_document_id(article.id, KIND, candidate.n)]
            else:
                if ranks is None:
                    ranks = SectionText.from_article(article)
                ranked = ranks.rank([candidate.query, candidate.answer])
                ratio = ranked.ratio()
                if ranked.top is None or ratio < patterns.FAQ_BODY_RATIO:
                    reason = "no_confident_section"
                elif not answered_in(candidate.answer, by_id[ranked.top], text):
                    reason = "answer_not_in_section"
                else:
                    relevant, rule = [ranked.top], "faq-body"
                    confidence = body_confidence(ratio)
            seen.add(key)
            question = squashed(candidate.query)
            if reason is None and any(question in text for text in texts):
                reason = "question_in_document"
            if reason is not None:
                rejected.append(
                    Rejected(
                        path=path,
                        kind=KIND,
                        row=candidate.n,
                        query=candidate.query[:MAX_QUERY_CHARS],
                        reference=candidate.locator,
                        reason=reason,
                    )
                )
                continue
            queries.append(
                GoldenQuery(
                    qid=source_query_id(article.id, KIND, candidate.n),
                    query=candidate.query,
                    answer=candidate.answer,
                    relevant=named(relevant),
                    same_article=same_article_count(len(article.sections), relevant),
                    kind=KIND,
                    locator=candidate.locator,
                    match=rule,  # type: ignore[arg-type]
                    confidence=confidence,
                    origin=Origin(path=path, row=candidate.n, url=article.url),
                )
            )
        return with_overlap(with_evidence(queries, article), article.sections), rejected


def answered_in(answer: str, section: Section, text: ArticleText) -> bool:
    """Does ``section`` hold the author's answer (``evidence.find_evidence``: the whole
    answer, or a window of its sentences holding enough of its words)? BM25 finds the
    section the pair is about; on the review sample (docs/sources.md) a section that does not
    also write the answer was wrong 12 times in 28, one that does never."""
    found, _ = find_evidence(answer, [section], [], text)
    return found is not None and found.section == section.id


def body_confidence(ratio: float) -> float:
    """An in-article FAQ label's confidence: from half ``FAQ_BODY_MAX_CONFIDENCE`` at the least
    ratio accepted to all of it as the runner-up fades."""
    top = patterns.FAQ_BODY_MAX_CONFIDENCE
    share = 1.0 if ratio == float("inf") else max(0.0, 1 - patterns.FAQ_BODY_RATIO / ratio)
    return round(top / 2 + top / 2 * share, 4)


def _drop_question_elements(root: Element, keys: set[str]) -> None:
    """Take the visible copies of markup questions out of the tree (the answer documents must
    be the only place that holds an answer without its question leaking into a section)."""
    found = [
        element
        for element in root.iter(*HEADING_TAGS, "summary", "dt", "button", "strong", "b", "p")
        if question_key("".join(element.itertext())) in keys
    ]
    shown: list[Element] = []
    for element in found:  # the question and the answer shown after it
        if element.tag == "summary" and element.getparent() is not None:
            shown.append(element.getparent())
        elif element.tag == "dt":
            shown.append(element)
            for sibling in element.itersiblings():
                if sibling.tag != "dd":
                    break
                shown.append(sibling)
        elif heading_level(element.tag) or element.tag == "p":
            shown += [element, *_answer_siblings(element, 0)]
        else:
            shown.append(element)
    for element in dict.fromkeys(shown):
        remove_element(element)


SOURCE = FaqSource()
