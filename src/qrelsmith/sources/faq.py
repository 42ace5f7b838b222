"""FAQ questions and the answers their authors wrote: each question a query.

Found on a page, in this order (``find``):

1. **markup**: schema.org ``FAQPage`` as JSON-LD (anywhere in the document, also inside an
   ``@graph`` or a list) and ``Question`` items in microdata (``itemprop=acceptedAnswer``);
2. **the page's own markup**, in a FAQ section (an H2 whose heading names a FAQ and is kept
   out of the corpus, ``[build] excluded_headings``) or anywhere on a FAQ page (its title or
   first heading names a FAQ, ``FAQ_PAGE_TITLE``): question headings (on a FAQ page
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
  ``FAQ_BODY_RATIO`` ahead of the runner-up, rule ``faq-body``; else no query
  (rejected ``no_confident_section``).

Never a query whose question is written in a document of its article (``question_in_document``);
the same question twice on a page is kept once (``duplicate_question``; the build keeps a
question asked on several pages once, ``report.py``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
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

#: A page whose title or first heading holds one of these is a FAQ page: its question headings
#: and Q/A pairs are its content (each answer becomes a corpus document of its own). The FAQ
#: words of ``EXCLUDED_HEADINGS`` anywhere in the title ("Programming FAQ", "gitfaq(7)"
#: on the Debian manuals crawl: Python's eight FAQ pages and git's; "FAQs"), as a word.
FAQ_PAGE_TITLE = re.compile(
    r"(?:\b|(?<=git))faqs?\b|frequently asked questions|よくある(?:ご)?質問|preguntas frecuentes"
    r"|자주 (?:묻는|하는) 질문",
    re.IGNORECASE,
)
#: A FAQ section's heading holds one of those words, or "additional questions" (a FAQ's
#: heading with that qualifier, ``EXCLUDED_HEADINGS``; as a page's title it names no FAQ page).
FAQ_SECTION_WORDS = re.compile(rf"{FAQ_PAGE_TITLE.pattern}|additional questions", re.IGNORECASE)

#: ... and when it asks (question headings, <dt>, <summary> and bold paragraphs ending with
#: "?") at least 1 / FAQ_PAGE_QUESTION_SHARE as many questions as it has headings (H2-H6): the
#: FAQ pages of the benchmark crawl (Python's: question headings; git's: 20 <dt> under 10
#: headings) and of the generator fixtures ask more; "FAQ Post Creator", a plugin README whose
#: FAQ is one section of 17 headings (7 questions), is an article with a FAQ section.
FAQ_PAGE_QUESTION_SHARE = 2

#: A paragraph that opens a question: "Q.", "Q：", "Q1.", "Ｑ１．" (full-width), "Q3 - ",
#: "質問：", "질문:", "P:" (pregunta), "Pregunta:" -- the markers of the study's よくある質問, of
#: Korean and of Spanish FAQ pages. The query's text is the question without it. A word marker
#: needs its number, punctuation or a space after it, as an answer's does: "質問がある場合は
#: フォーラムへ" opens an answer (a reviewed page's, samples/faq-review-3.csv' 30086212.md, lost
#: its answer to it), and "Preguntas" is a word.
FAQ_QUESTION_MARK = re.compile(
    r"^\s*(?:[QＱ]\s*\d*\s*[.．:：)）]|[QＱ]\s*\d+\s*[-–—](?=\s)|[QＱ][\s\u3000]+(?=\S)"
    r"|質問(?:\s*\d*\s*[.．:：]|\s*\d+|[\s\u3000]+)|질문\s*\d*\s*[.．:：]|P\s*\d*\s*[.．:：]"
    r"|Pregunta(?:\s*\d*\s*[.．:：]|\s*\d+|\s+))\s*",
    re.IGNORECASE,
)
#: A question heading's own number ("1. Which port …?", "2) How …", "(3) …"), left out of the
#: query's text as the Q marker is: FAQ sections number their question headings so (two pages
#: of samples/faq-review-3.csv' draw, "### 1. ¿Qué es …?"); a number must be followed by a
#: space, so "1.5 GB enough?" keeps it.
FAQ_QUESTION_NUMBER = re.compile(r"^\s*(?:\d{1,3}\s*[.．)）:：]|[(（]\d{1,3}[)）])\s+(?=\S)")
#: The marker an answer paragraph may open with: "A.", "A：", "A:", "A)", "A　" (a full-width
#: space, as Japanese pages write it, or a space before a CJK or Hangul letter: "A 6ヶ月"; never
#: "A " before a Latin letter, which is English's article), "回答：", "答え：", "答：", "답:",
#: "답변:", "R:", "Respuesta:". A word marker needs its punctuation or a space after it: "答えは"
#: and "回答期限" open answers, "Respuestas" is a word (the words were optional-punctuation
#: before, and "回答期限は" lost its "回答").
_ANSWER_MARKS = (
    r"[AＡ]\s*\d*\s*[.．:：)）]|[AＡ]\u3000+|[AＡ]\s+(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"
    r"|(?:回答|答え|答|답변|답|Respuesta)(?:\s*\d*\s*[.．:：]|[\s\u3000]+)|R\s*\d*\s*[.．:：]"
)
FAQ_ANSWER_MARK = re.compile(rf"^\s*(?:{_ANSWER_MARKS})\s*", re.IGNORECASE)
#: The answer written in the question's own paragraph, after a line break ("Q: …<br>A: …", or
#: Markdown's "Q: …" and "A: …" on two lines of one paragraph): its marker on a new line.
FAQ_INLINE_ANSWER = re.compile(rf"\n\s*(?:{_ANSWER_MARKS})\s*", re.IGNORECASE)
#: A heading is a question when it ends with a question mark (or opens with a Q marker):
#: Python's FAQ headings all do ("How do I ...?"); on a FAQ page a heading that does not
#: ("General Information") names a group of questions, not one. The marks of the pages' scripts:
#: "?" (Latin, Korean), the full-width "？" (Japanese, Chinese), the Arabic "؟".
FAQ_QUESTION_END = re.compile(r"[?？؟]\s*$")

#: A paragraph that is one bold run (``<p><strong>How do I …?</strong></p>``: WordPress posts'
#: and Markdown READMEs' FAQs, ``**How do I …?**`` on a line of its own) is a question in a FAQ
#: section or on a FAQ page when it asks one on its own (ends with a question mark, or opens
#: with a Q marker). Bold is also what an answer stresses ("**Note:**"), so one that does not
#: ask is a question only when its section's pattern says so: none of the section's bold
#: paragraphs asks, the section has no sub-heading, and at least FAQ_BOLD_MIN_TITLES of them
#: each have an answer after them (troubleshooting FAQs: "**Installation fails on Windows**").
#: Chosen on the pages of samples/faq-review-2.csv' draw and the review of round one: every
#: bold question there asked with "?" or was one of a run of bold titles; bold "Note:" and
#: "Warning" lines sat in answers under question headings.
FAQ_BOLD_TAGS = ("strong", "b")
FAQ_BOLD_MIN_TITLES = 2
#: A paragraph that opens with a bold question and answers it in the same paragraph (Markdown's
#: ``**How do I …?**`` with the answer on the next line, no blank line between) counts only when
#: the bold run asks (ends with a question mark): a bold lead-in that does not ("**Note:** …")
#: is a paragraph of an answer.

#: Where an answer ends. The answer to a FAQ's last question is the blocks after it up to the
#: end of its section, but pages put their chrome right after the article's last block, in the
#: same container: share buttons, "Was this helpful?", related posts, the author's box. The
#: answer stops at the first sibling that is chrome:
#: - an element that is never content (``FAQ_CHROME_TAGS``; ``<hr>``, which READMEs put
#:   between their FAQ pairs and before their footer);
#: - an element whose class names a widget (``FAQ_CHROME_CLASS``: WordPress's Jetpack
#:   ``sharedaddy`` / ``sd-sharing`` / ``jp-relatedposts``, AddToAny's ``addtoany``, YARPP's
#:   ``yarpp-related``, Gutenberg's ``wp-block-social-links``, themes' ``post-tags``,
#:   ``author-box``, ``entry-footer``);
#: - a short block (at most FAQ_CHROME_MAX_CHARS characters) that opens with a widget's
#:   words (``FAQ_CHROME_TEXT``: "Share this article", "この記事をシェア", "関連記事", "Was this
#:   helpful?");
#: - after the answer's first block, a block whose text is all in two links or more, each a
#:   share link (``FAQ_SHARE_LINK``: a row of social buttons without a class).
#: Ids are not read (Sphinx and GitHub make them from headings: "how-do-i-share-global-
#: variables" is a question of Python's FAQ), nor are lists of links (Python's FAQ answers
#: "Which IDEs …" with one).
#: The same chrome is never a question ("Was this helpful?" ends with a question mark).
FAQ_CHROME_TAGS = frozenset(("nav", "aside", "footer", "header", "form", "hr"))
FAQ_CHROME_CLASS = re.compile(
    r"(?:^|[-_\s])(?:share\w*|sharing|sharedaddy|social|sns|addtoany|a2a_kit|yarpp\w*"
    r"|related\w*|relatedposts|comments?|newsletter|subscribe|feedback|helpful|rating"
    r"|author\w*|byline|tags?|breadcrumbs?|pagination|post-?nav\w*|ads?|advert\w*|sponsor\w*"
    r"|promo|entry-footer)(?=$|[-_\s\d])",
    re.IGNORECASE,
)
FAQ_CHROME_TEXT = re.compile(
    r"^\W*(?:share\s+(?:this|on|via)\b|share\s*:|was\s+this\s+(?:\w+\s+)?helpful"
    r"|did\s+this\s+(?:\w+\s+)?help|related\s+(?:posts|articles|reading|content)"
    r"|you\s+(?:may|might)\s+also\s+like|この(?:記事|ページ)を(?:シェア|共有)|シェアする|関連記事"
    r"|関連する記事|この(?:記事|ページ|回答)は(?:役に立ちましたか|参考になりましたか)"
    r"|compartir|art[ií]culos\s+relacionados|¿(?:te\s+)?(?:ha\s+sido|fue)\s+[úu]til"
    r"|관련\s*(?:글|기사|게시물)|공유하기)",
    re.IGNORECASE,
)
FAQ_SHARE_LINK = re.compile(
    r"share|sharer|intent/(?:tweet|post)|twitter\.com|//x\.com|facebook\.com|line\.me"
    r"|linkedin\.com|b\.hatena\.ne\.jp|pinterest\.|reddit\.com/submit|getpocket\.com"
    r"|whatsapp|telegram\.me|t\.me/|mailto:\?",
    re.IGNORECASE,
)
#: Chrome's words are a label ("Share this:", "関連記事"), not a paragraph: an answer that
#: opens with "Share on the network drive …" and goes on is an answer.
FAQ_CHROME_MAX_CHARS = 60

#: JSON-LD blocks are read up to this many characters each, and this deep: a product page's
#: FAQPage block is a few kB and five levels deep; a larger or deeper block is left out whole
#: (a note ``json-ld too large`` / ``too deep``), the rest of the page kept.
FAQ_JSONLD_MAX_CHARS = 1_000_000
FAQ_JSONLD_MAX_DEPTH = 32

#: An in-article FAQ pair (in a FAQ section, kept out of the corpus) is labelled to the body
#: section BM25 ranks first for its question and answer together (``content.SectionText``,
#: the matcher's rule ``content``) when it is this far ahead of the runner-up -- the ratio
#: ``CONTENT_ALONE_RATIO`` the table's rows need without a heading -- or when that section
#: holds the whole answer (``evidence.py``'s containment) and is ahead at all.
FAQ_BODY_RATIO = 1.5
#: An answer that only points elsewhere ("See Metalang99's README", "設定方法はこちらの記事を参照
#: してください", "자세한 내용은 이 글을 참고하세요", "Consulta la guía de instalación", "the
#: documentation is available [here]") writes no content of its own: a section that holds the
#: same pointer, or shares the pointer's words, is not where the answer is written. On the
#: review samples such labels were wrong: a README's Troubleshooting section pointed to the same
#: README (samples/faq-review-2.csv), and "ドキュメントは入手可能です[ここ]" found its word
#: ドキュメント in a step about the input documents (samples/faq-review-3.csv).
#:
#: The answer is read sentence by sentence (``_SENTENCE_END``). A sentence points elsewhere
#: when, its pointer taken out, at most FAQ_POINTER_MAX_WORDS words are left (the pointer's
#: target, "rsnap's README", "設定方法はこちらの記事") and its pointer is
#: - a lead that sends the reader away (``FAQ_POINTER_LEAD``: "See", "Refer to", "For more
#:   information, see", "Consulta", "Véase", "詳しくは", "자세한 내용은", "请参阅"), or
#: - a tail that does (``FAQ_POINTER_TAIL``: "…を参照してください", "…をご覧ください", "…はこちら",
#:   "…はここ", "…을 참고하세요", "… here", "… aquí"; "確認してください" and "확인하세요" are not:
#:   "check that the port is free" is an answer), or a link off the page whose text is one of
#:   those here-words, glued or not ("desde[aquí]"), or
#: - the name of another text (``FAQ_POINTER_TARGET``: "this post", "この記事", "이 글",
#:   "este artículo");
#: or when its words are all the text of links off the page or URLs ("[Installation guide]").
#: The answer points elsewhere when one sentence does and each of the others is at most
#: FAQ_POINTER_FILLER_WORDS words ("はい。", "Yes."). Words: Latin and Hangul words, and a
#: Japanese or Chinese run's characters by two (about a word's length). "See the Installation
#: section: run the installer without administrator rights" goes on to answer, and so does a
#: short answer that holds a link: "Yes, a free trial is available [here] from the site" (the
#: link is not the sentence's last word), "Download it from the [releases page]".
FAQ_POINTER_LEAD = re.compile(
    r"^\W*(?:for\s+(?:more\s+|further\s+)?(?:details|information|info)\b[^,:;]{0,40}[,:;]\s*"
    r"|para\s+(?:más\s+)?(?:detalles|información)\b[^,:;]{0,40}[,:;]\s*)?"
    r"(?:please\s+|por\s+favor,?\s+)?"
    r"(?:see|refer\s+to|read|check(?:\s+out)?|visit|consult|go\s+to|head\s+(?:over\s+)?to"
    r"|click\s+here|more\s+(?:details|information|info)\s+(?:in|at|on)"
    r"|ver|véase|vea|consulte|consulta|visite|visita|lea|lee|revise|revisa"
    r"|haga\s+clic\s+aquí|haz\s+clic\s+aquí|más\s+información\s+en"
    r"|詳しくは|詳細は|詳細については|くわしくは|자세한\s*(?:내용|사항|정보)(?:은|는)"
    r"|더\s*자세한\s*(?:내용|정보)(?:은|는)|请参阅|参见|详见|请参考)(?!\w)",
    re.IGNORECASE,
)
FAQ_POINTER_TAIL = re.compile(
    r"(?:(?:を|は)?(?:ご?参照|ご覧|参考に)(?:して)?(?:ください|下さい)?"
    r"|(?:は|を|から|で)?(?:こちら|ここ)(?:から|で|を)?(?:ご覧ください|参照してください)?"
    r"|(?:[을를]\s?)?(?:참고|참조)(?:하세요|하십시오|해\s?주세요|하시기\s?바랍니다|바랍니다)"
    r"|(?:[은는]\s?)?여기(?:를|에서)?"
    r"|(?<!\w)(?:here|aquí|aqui))\W*$",
    re.IGNORECASE,
)
# (no pattern here opens with an unbounded run: searched at every position of a long run of
# spaces, "\s*" before a word was quadratic, tests/test_hostile.py)
FAQ_POINTER_TARGET = re.compile(
    r"(?<!\w)(?:this|that|our|the\s+following)\s+(?:post|article|guide|page|blog\s+post)(?!\w)"
    r"|(?<!\w)(?:este|el\s+siguiente)\s+(?:artículo|post|enlace)(?!\w)"
    r"|(?<!\w)esta\s+(?:guía|página)(?!\w)"
    r"|(?:この|こちらの|下記の|以下の)(?:記事|ページ|リンク)|이\s?(?:글|문서|페이지|게시물|링크)",
    re.IGNORECASE,
)
#: "here" and its kin as a link's text at a sentence's end ("…desde[aquí]", "…です[ここ]").
FAQ_POINTER_HERE = re.compile(r"^\W*(?:here|aquí|aqui|ここ|こちら|여기)\W*$", re.IGNORECASE)
FAQ_POINTER_MAX_WORDS = 8
FAQ_POINTER_FILLER_WORDS = 2

#: The confidence of a FAQ label: a FAQ page's answer is the author's own (grade 2, as sure as
#: an anchor); an in-article label is at most this (under every heading rule's, like content).
FAQ_PAGE_CONFIDENCE = 1.0
FAQ_BODY_MAX_CONFIDENCE = 0.75

KIND = "faq"

_MARKERS = re.compile(f"[{patterns.MARK}{patterns.LINK_OPEN}{patterns.LINK_CLOSE}]")
_MARK = re.compile(patterns.MARK)
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
    for word in (
        "faq",
        "frequently asked",
        "よくある",
        "preguntas frecuentes",
        "자주",
        "additional questions",
    )
)


def question_key(question: str) -> str:
    """What two questions are compared by: folded, without white space, punctuation or a
    "Q." marker (near-duplicates: "How do I X?" and "how do i x"); the symbols that make a
    name ("C++", "C#") are kept: Python's FAQ asks about functions in C and in C++."""
    return _NOT_KEY.sub("", squashed(question_text(question)))


def question_text(question: str) -> str:
    """A question as the query asks it: without its Q marker or its number
    (``FAQ_QUESTION_MARK``, ``FAQ_QUESTION_NUMBER``)."""
    unmarked = FAQ_QUESTION_MARK.sub("", question, count=1)
    return fold_space(FAQ_QUESTION_NUMBER.sub("", unmarked, count=1))


_NOT_KEY = re.compile(r"[^\w+#]|_")


def block_text(
    elements: list[Element], options: BuildOptions, marked: bool = False, links: bool = False
) -> str:
    """The text of ``elements`` as a section's is read: dropped tags (code, scripts) left
    out, block breaks as spaces; ``marked``: an answer's marker ("A.", "A　") left out of the
    first block, read before white space is folded (a full-width space is a marker's, an
    ASCII one before a Latin letter an article's); ``links``: the text of links off the page
    kept between ``LINK_OPEN`` and ``LINK_CLOSE``."""
    parts: list[str] = []
    for element in elements:
        text = marked_text(element, options.drop_tags, False, options.permalink_selectors)
        text = (_MARK if links else _MARKERS).sub("", _TOKEN.sub(" ", text))
        if marked and not parts:
            text = FAQ_ANSWER_MARK.sub("", text, count=1)
        parts.append(text)
    return fold_space(" ".join(parts))


def _answer_text(text: str) -> str:
    return fold_space(FAQ_ANSWER_MARK.sub("", text, count=1))


_LINKED = re.compile(f"{patterns.LINK_OPEN}([^{patterns.LINK_CLOSE}]*){patterns.LINK_CLOSE}")
_LAST_LINK = re.compile(f"{_LINKED.pattern}\\W*$")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
#: A sentence ends after "。", "！", "？", "!", "?", or after "." and ";" before a space, the end
#: or a letter of another script ("…です。", "… de .NET.[Descargar]"), not inside "Aspose.Words".
_SENTENCE_END = re.compile(r"(?<=[。．！？!?])|(?<=[.;])(?=\s|$|[^\x00-\x7f])|\n")
_IDEOGRAPH = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"\w+")


def _words(text: str) -> int:
    """About how many words ``text`` holds: Latin and Hangul words, a Japanese or Chinese run's
    characters by two."""
    ideographs = len(_IDEOGRAPH.findall(text))
    return len(_WORD.findall(_IDEOGRAPH.sub(" ", text))) + (ideographs + 1) // 2


def _pointer_sentence(sentence: str) -> bool | None:
    """True: the sentence points elsewhere (``FAQ_POINTER_LEAD`` ...); None: a filler ("はい",
    "Yes"); False: it says something of its own. Links off the page are marked in it."""
    plain = fold_space(_MARKERS.sub("", sentence))
    if _LINKED.search(sentence) or _URL.search(plain):
        unlinked = _MARKERS.sub("", _LINKED.sub(" ", sentence))
        if not _WORD.search(_URL.sub(" ", unlinked)):
            return True  # all of it links off the page
    words = _words(plain)
    if words <= FAQ_POINTER_FILLER_WORDS:
        return None
    most = FAQ_POINTER_MAX_WORDS
    lead = FAQ_POINTER_LEAD.match(plain)
    if lead and _words(plain[lead.end() :]) <= most:
        return True
    tail = FAQ_POINTER_TAIL.search(plain)
    if tail and _words(plain[: tail.start()]) <= most:
        return True
    last = _LAST_LINK.search(sentence)
    before = sentence[: last.start()] if last else ""
    if last and FAQ_POINTER_HERE.match(last.group(1)) and _words(_MARKERS.sub("", before)) <= most:
        return True
    target = FAQ_POINTER_TARGET.search(plain)
    return target is not None and words - _words(target.group()) <= most


def points_elsewhere(answer: str) -> bool:
    """Whether an answer only points elsewhere (``FAQ_POINTER_LEAD`` and its kin): one of its
    sentences points, and the others are fillers. ``answer`` may mark its links off the page
    (``LINK_OPEN`` ... ``LINK_CLOSE``, as ``block_text(..., links=True)`` reads them)."""
    kinds = [_pointer_sentence(part) for part in _SENTENCE_END.split(answer) if part.strip()]
    return True in kinds and False not in kinds


# --------------------------------------------------------------------------- markup


def _depth_ok(value: Any) -> bool:
    """True when ``value`` nests no deeper than ``FAQ_JSONLD_MAX_DEPTH`` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > FAQ_JSONLD_MAX_DEPTH:
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
        if len(text) > FAQ_JSONLD_MAX_CHARS:
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
    return bool(FAQ_SECTION_WORDS.search(text)) and (
        exclusion_pattern(text, options.excluded_headings) is not None
    )


def _lead(element: Element) -> str:
    """The text a paragraph opens with: its own, or its first child's when it opens with one
    (``<p><strong>Q.</strong> …``)."""
    text = element.text or ""
    if not text.strip() and len(element) and isinstance(element[0].tag, str):
        return element[0].text or ""
    return text


def _is_question_mark(element: Element) -> bool:
    return element.tag == "p" and bool(FAQ_QUESTION_MARK.match(_lead(element)))


def _bold_run(element: Element) -> Element | None:
    """The bold element a paragraph opens with (nothing before it), or None."""
    if element.tag != "p" or (element.text or "").strip() or not len(element):
        return None
    first = element[0]
    return first if first.tag in FAQ_BOLD_TAGS else None


def _bold_text(element: Element) -> str | None:
    """The text of a paragraph that is one bold run and nothing else, or None."""
    bold = _bold_run(element)
    if bold is None or (bold.tail or "").strip():
        return None
    for sibling in bold.itersiblings():
        if (isinstance(sibling.tag, str) and sibling.tag != "br") or (sibling.tail or "").strip():
            return None
    return fold_space("".join(bold.itertext()))


def _bold_lead(element: Element) -> tuple[str, str] | None:
    """(question, answer) of a paragraph that opens with a bold question and goes on with its
    answer, or None."""
    bold = _bold_run(element)
    if bold is None:
        return None
    asked = _with_breaks(bold)
    if not FAQ_QUESTION_END.search(asked):
        return None
    rest = _with_breaks(element)[len(element.text or "") + len(asked) :]
    return (fold_space(asked), rest) if rest.strip() else None


def _chrome_box(element: Element) -> bool:
    """An element that is page chrome by its tag or its class (``FAQ_CHROME_TAGS``,
    ``FAQ_CHROME_CLASS``)."""
    if element.tag in FAQ_CHROME_TAGS:
        return True
    names = element.get("class")
    return bool(names) and bool(FAQ_CHROME_CLASS.search(names))


def _chrome_text(text: str) -> bool:
    """A widget's label (``FAQ_CHROME_TEXT``): "Share this article", "Was this helpful?"."""
    text = text.strip()
    return len(text) <= FAQ_CHROME_MAX_CHARS and bool(FAQ_CHROME_TEXT.match(text))


def _chrome(element: Element) -> bool:
    """Page chrome: where an answer ends, and never a question."""
    return _chrome_box(element) or _chrome_text("".join(element.itertext()))


_NOT_LINK_TEXT = re.compile(r"[\s|·•/,、]+")


def _share_links(element: Element) -> bool:
    """A block whose text is all in two share links or more (``FAQ_SHARE_LINK``)."""
    links = list(element.iter("a"))
    if len(links) < 2 or not all(FAQ_SHARE_LINK.search(a.get("href", "")) for a in links):
        return False
    text = _NOT_LINK_TEXT.sub("", "".join(element.itertext()))
    return len(text) == sum(len(_NOT_LINK_TEXT.sub("", "".join(a.itertext()))) for a in links)


def _with_breaks(element: Element) -> str:
    """The element's text with a line break where it has a <br> (a copy is read)."""
    copy = deepcopy(element)
    for br in copy.iter("br"):
        br.tail = "\n" + (br.tail or "")
    return "".join(copy.itertext())


def _answer_siblings(
    element: Element, questions: Collection[Element] = (), answered: bool = False
) -> list[Element]:
    """The siblings after a question up to the next heading, question paragraph (``questions``:
    the bold ones), section or page chrome (``answered``: the question's own paragraph holds
    the answer's first words)."""
    out: list[Element] = []
    for sibling in element.itersiblings():
        if not isinstance(sibling.tag, str):
            continue
        if heading_level(sibling.tag) or _is_question_mark(sibling) or sibling in questions:
            break
        if _chrome(sibling) or ((out or answered) and _share_links(sibling)):
            break
        if sibling.tag in ("section", "details") or sibling.find(".//h1") is not None:
            break
        if any(sibling.iter(*HEADING_TAGS)):
            break
        out.append(sibling)
    return out


def _bold_questions(root: Element, faq_page: bool, options: BuildOptions) -> set[Element]:
    """The bold paragraphs of the page's FAQ that are questions (``FAQ_BOLD_TAGS``): those that
    ask, or in a section where none asks and there is no sub-heading, a run of bold titles."""
    level = options.section_level
    in_faq, section = faq_page, 0
    bold: dict[int, list[tuple[Element, str]]] = {}
    headed: set[int] = set()
    questions: set[Element] = set()
    for element in root.iter(*HEADING_TAGS, "p"):
        rank = heading_level(element.tag)
        if rank and rank <= level:
            section += 1
            if not faq_page:
                in_faq = rank == level and _is_faq_heading(_read(element, options), options)
            continue
        if not in_faq or dropped(element, options.drop_tags):
            continue
        if rank:  # a sub-heading asks the section's questions, unless it is chrome's
            if not _chrome_text(_read(element, options)) and not any(
                _chrome_box(parent) for parent in element.iterancestors()
            ):
                headed.add(section)
        elif (text := _bold_text(element)) is not None:
            bold.setdefault(section, []).append((element, text))
        elif _bold_lead(element) is not None:
            questions.add(element)
    for number, paragraphs in bold.items():
        asking = [
            element
            for element, text in paragraphs
            if FAQ_QUESTION_END.search(text) or FAQ_QUESTION_MARK.match(text)
        ]
        titles = [element for element, _ in paragraphs if _has_answer(element)]
        if asking:
            questions.update(asking)
        elif number not in headed and len(titles) >= FAQ_BOLD_MIN_TITLES:
            questions.update(titles)
    return {element for element in questions if not _chrome(element)}


def _has_answer(element: Element) -> bool:
    """Whether the block after ``element`` is an answer's (not bold, not a heading)."""
    following = next((s for s in element.itersiblings() if isinstance(s.tag, str)), None)
    return (
        following is not None
        and not heading_level(following.tag)
        and _bold_text(following) is None
        and not _chrome(following)
    )


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
    bold = _bold_questions(root, faq_page, options)
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
        if _chrome_box(element):  # share buttons, related posts: no question, nor under it
            taken.add(element)
            continue
        where = f"section {section!r}: " if section else ""
        # a question's text is read only where one can be: reading every element of a FAQ
        # page (its containers' text holds all of theirs) cost 0.1 s on Python's eight
        if rank and (rank > level or faq_page) and rank > 1:
            question = _read(element, options)
            asks = FAQ_QUESTION_END.search(question) or FAQ_QUESTION_MARK.match(question)
            if _chrome_text(question):  # "Was this helpful?", "Related posts"
                continue
            if asks or (not faq_page and rank > level):
                answer = _answer_siblings(element, bold)
                taken.update([element, *answer])
                yield question, [element], answer, f"{where}h{rank} {question[:60]!r}", ""
        elif element in bold and not _is_question_mark(element):
            lead = _bold_lead(element) if _bold_text(element) is None else None
            asked, inline_text = lead if lead else (_read(element, options), "")
            answer = _answer_siblings(element, bold, bool(inline_text))
            taken.update([element, *answer])
            yield asked, [element], answer, f"{where}p {asked[:60]!r}", inline_text
        elif _is_question_mark(element):
            question = _read(element, options)
            if _chrome_text(question):
                continue
            written = _with_breaks(element)
            inline = FAQ_INLINE_ANSWER.search(written)
            answer = _answer_siblings(element, bold, inline is not None)
            taken.update([element, *answer])
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
            if _chrome_text(asked):
                continue
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
                if not _chrome_text(asked):
                    yield asked, [term], definitions, f"{where}dl {asked[:60]!r}", ""


def _faq_page(page: PageContext) -> bool:
    """A page whose title or first heading names a FAQ and that asks at least half as many
    questions as it has other headings ("FAQ Post Creator", a plugin's README, is not one)."""
    first = page.root.find(".//h1")
    heading = _read(first, page.options) if first is not None else ""
    if not (FAQ_PAGE_TITLE.search(page.title) or FAQ_PAGE_TITLE.search(heading)):
        return False
    headings = [
        _read(h, page.options)
        for h in page.root.iter(*HEADING_TAGS[1:])
        if not dropped(h, page.options.drop_tags)
    ]
    # questions: headings, and the terms and summaries that ask one (git's FAQ writes its
    # questions as <dt>, under topic headings)
    asked = sum(bool(FAQ_QUESTION_END.search(text)) for text in headings) + sum(
        bool(FAQ_QUESTION_END.search(_read(term, page.options)))
        for term in page.root.iter("dt", "summary")
    )
    # and the bold paragraphs that ask one (a README's FAQ.md of "**How do I …?**" lines)
    asked += sum(
        bool(FAQ_QUESTION_END.search(text))
        for paragraph in page.root.iter("p")
        if (text := _bold_text(paragraph)) is not None
    )
    return asked > 0 and asked * FAQ_PAGE_QUESTION_SHARE >= len(headings)


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
            text = fold_space(f"{inline} {block_text(elements, options, not inline, True)}")
            self._add(found, page, question, text, locator, own=faq_page)
        if faq_page:
            for _, asked, elements, _, _ in pairs:
                for element in [*asked, *elements]:
                    remove_element(element)
        return found

    def _add(
        self, found: Found, page: PageContext, question: str, answer: str, locator: str, own: bool
    ) -> None:
        """One candidate (``answer``'s links off the page may be marked, ``block_text``)."""
        n = len(found.candidates)
        linked = _answer_text(answer)
        answer = fold_space(_MARKERS.sub("", linked))
        question = question_text(question)
        found.candidates.append(
            Candidate(
                kind=KIND,
                n=n,
                query=question,
                answer=answer,
                locator=locator,
                own_document=own,
                points_elsewhere=points_elsewhere(linked),
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
            rule, confidence = "faq-page", FAQ_PAGE_CONFIDENCE
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
                if ranked.top is None or ratio < FAQ_BODY_RATIO:
                    reason = "no_confident_section"
                elif candidate.points_elsewhere or not answered_in(
                    candidate.answer, by_id[ranked.top], text
                ):
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
    also write the answer was wrong 12 times in 28, one that does never. (An answer that only
    points elsewhere, ``Candidate.points_elsewhere``, is held nowhere: ``queries`` asks
    first.)"""
    found, _ = find_evidence(answer, [section], [], text)
    return found is not None and found.section == section.id


def body_confidence(ratio: float) -> float:
    """An in-article FAQ label's confidence: from half ``FAQ_BODY_MAX_CONFIDENCE`` at the least
    ratio accepted to all of it as the runner-up fades."""
    top = FAQ_BODY_MAX_CONFIDENCE
    share = 1.0 if ratio == float("inf") else max(0.0, 1 - FAQ_BODY_RATIO / ratio)
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
            shown += [element, *_answer_siblings(element)]
        else:
            shown.append(element)
    for element in dict.fromkeys(shown):
        remove_element(element)


SOURCE = FaqSource()
