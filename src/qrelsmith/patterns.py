"""Named heuristics, in one place, each with the reason for its value.

The options model in ``config.py`` takes its defaults from here, so a site can override any of
them in its TOML file; code never hard-codes a keyword or a threshold elsewhere.
"""

from __future__ import annotations

import re
from typing import Any, Literal

# --------------------------------------------------------------------------- the article

#: CSS selectors tried in order for the article root; the first that matches wins. Blogs and
#: docs sites wrap the body in <article> or <main>; <body> is the fallback for bare pages.
#: "main" also takes an element with ``role="main"`` (the ARIA landmark <main> stands for)
#: when the page has no <main>: MkDocs' default theme and Sphinx write one (``parse.find_root``).
ARTICLE_SELECTORS: tuple[str, ...] = ("article", "main", "body")

#: Heading permalink anchors, whose content no text read includes (their ids stay, for
#: in-page links; reading.permalinks says where each is tested): the mark a generator appends
#: or prepends to every heading, which would otherwise end up in headings, corpus text, BEIR
#: titles and the review page. On the 1,941 pages of Debian's Python, PostgreSQL and git
#: manuals, 1,766 of 6,282 headings kept Sphinx's "¶".
#: Each is the markup its generator writes (tests/fixtures/permalinks/ holds a page of each):
PERMALINK_SELECTORS: tuple[str, ...] = (
    "a.headerlink",  # Sphinx ("¶"), MkDocs / Python-Markdown toc permalink ("¶"), Material
    "a.hash-link",  # Docusaurus (a zero-width space), docfx's modern template, Hugo themes
    "a.header-anchor",  # markdown-it-anchor: VitePress, VuePress, Eleventy ("#")
    "a.anchorjs-link",  # AnchorJS, added server-side by docfx's default template and others
    "a.td-heading-self-link",  # Hugo's Docsy theme
    # GitHub (beside the heading, in div.markdown-heading) and Hugo themes (inside it): "anchor"
    # alone is too common a class to drop everywhere.
    ".markdown-heading > a.anchor",
    ":is(h1, h2, h3, h4, h5, h6) > a.anchor",
)

#: Elements whose text never belongs to a section: page chrome (nav, header, footer, aside),
#: non-text (script, style, template, svg, iframe, noscript, form controls) and code blocks
#: (<pre>), which the seed article drops because code is not what a question is answered by.
DROP_TAGS: tuple[str, ...] = (
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "iframe",
    "object",
    "embed",
    "nav",
    "header",
    "footer",
    "aside",
    "form",
    "button",
    "select",
    "textarea",
    "pre",
)

#: What a drop tag must look like: an HTML tag name as the parser gives it (lower case; custom
#: elements have "-"), not a CSS selector.
TAG_NAME = r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"

#: Seconds (wall clock) one page may take before it is skipped as "took too long": a 50 MB
#: page builds in a few seconds; a page that would stall a worker for good must not stall the
#: crawl. 0 means no limit.
PAGE_TIMEOUT = 60.0
#: The largest page, in bytes as read (or inflated, from a .warc.gz or a .jsonl.gz), a build
#: processes; a larger one is skipped with its size, and inflating stops at the cap. Processing
#: a page holds about 20 times its bytes (a 200 MB page took 3.9 GB, issue 27), so 20 MiB keeps
#: one worker near 400 MB, while the largest page of the dev set is 200 KB and of the Debian
#: manuals crawl (benchmarks/) 2.6 MB (Python's contents.html): eight times that stays in.
MAX_PAGE_BYTES = 20 * 2**20
#: The largest max_page_bytes a config may set: 1 GiB, whose processing alone takes ~20 GB.
LARGEST_PAGE_CAP = 2**30
#: The largest page_timeout a config may set: a day. Past it a limit means nothing (a build of
#: a million pages takes hours, not days per page), and the interval timer overflows on
#: values such as 1e300.
MAX_PAGE_TIMEOUT = 86_400.0

#: A quick-reference row whose question is longer than this is rejected as "too_long": a
#: question is what a person types (the sample's longest is 82 characters, the seed study's
#: under 100); a cell of thousands is a table used for something else, or a broken page.
MAX_QUERY_CHARS = 1000
#: Rows of one quick-reference table that are matched; the rest are rejected as
#: "table_too_long". The largest table of the dev set has 31 rows and the sample's 7: a table
#: of thousands is data (a price list, a changelog), not a quick reference. Matching decides
#: the rows of a table together, and its cost grows faster than the row count (2,000 rows
#: 0.4 s, 5,000 rows 2 s, 40,000 rows minutes); 1,000 rows cost about 0.2 s, whatever the
#: machine's load, since the cap counts rows, not seconds.
QUICKREF_MAX_ROWS = 1000

# --------------------------------------------------------------------------- decoding

#: How far into the page the <meta charset> prescan looks (the HTML standard says 1024 bytes;
#: real pages put long <head>s first, so we look further, as browsers effectively do).
PRESCAN_BYTES = 4096

#: A page with more NUL bytes than this share of its first PRESCAN_BYTES is binary, not text
#: (HTML has no NULs; a stray NUL in a broken CMS page is tolerated — one in a page of any
#: size, up to four in 4 KB — five in 4 KB are not).
BINARY_NUL_SHARE = 0.001

#: A page whose declared encoding (or UTF-8) leaves at most this share of its bytes
#: undecodable is read with U+FFFD in their place, as a browser shows it, and the count goes
#: to report.json; more than that and the declaration is taken to be wrong. One stray byte
#: in a 1 KB page is 0.1%; a Shift_JIS page mislabelled UTF-8 leaves 10-40% undecodable.
REPLACEMENT_MAX_SHARE = 0.001
#: ... but a short page may always have this many (one stray byte in a 200-byte page).
REPLACEMENT_MIN_ALLOWED = 4
#: An undeclared page is "clearly UTF-8" when its valid multi-byte characters outnumber its
#: undecodable sequences this many times over (a Latin-1 page has no valid ones at all).
UTF8_EVIDENCE_RATIO = 10

#: What an undeclared page that is not UTF-8 is read as when it decodes under it and the
#: detector's guess is only another Latin-script single-byte code page (as the WHATWG
#: Encoding Standard's default for Western locales): charset-normalizer reads an English page
#: with one stray byte as cp775 or cp1250 and French or German text as cp1257 or cp1250.
WESTERN_DEFAULT = "cp1252"
#: Code pages that guess is overruled for (Python codec names). Cyrillic, Greek, Hebrew,
#: Arabic, Thai and the CJK encodings are detected by their script and kept.
LATIN_GUESSES = frozenset(
    [
        "cp1250",
        "cp1252",
        "cp1254",
        "cp1257",
        "cp1258",
        "cp437",
        "cp775",
        "cp850",
        "cp852",
        "cp858",
        "cp860",
        "cp861",
        "cp863",
        "cp865",
        "iso8859_2",
        "iso8859_3",
        "iso8859_4",
        "iso8859_9",
        "iso8859_10",
        "iso8859_13",
        "iso8859_14",
        "iso8859_15",
        "iso8859_16",
        "latin_1",
        "mac_latin2",
        "mac_roman",
        "mac_iceland",
        "mac_turkish",
    ]
)

#: The heading level sections are split at (H2). H3 and deeper belong to their H2.
SECTION_LEVEL = 2

# --------------------------------------------------------------------------- excluded sections

#: Headings whose sections are not retrievable content (FAQ, summary, references). Regular
#: expressions matched at the start of the normalised heading (NFKC, lower case, leading
#: numbering removed) and followed by the end or a separator, so "参考・出典" is excluded but
#: "参考になる設定" is not. Languages: Japanese, English, Spanish, Korean (the seeds' languages).
EXCLUDED_HEADINGS: tuple[str, ...] = (
    # FAQ
    r"よくある質問",
    r"よくあるご質問",
    r"faq",
    r"frequently asked questions",
    r"preguntas frecuentes",
    r"자주 묻는 질문",
    r"자주 하는 질문",
    # summary
    r"まとめ",
    r"summary",
    r"conclusion",
    r"resumen",
    r"conclusiones?",
    r"요약",
    r"정리",
    r"마무리",
    # references
    r"参考",
    r"参考文献",
    r"参考資料",
    r"出典",
    r"references",  # plural: "Reference", "Reference counts" are content (API docs, git)
    r"further reading",
    r"sources",
    r"referencias",
    r"bibliografía",
    r"참고",
    r"참고 문헌",
    r"참고문헌",
    r"출처",
    # link lists: see also, related, next steps, additional resources (the names of issue 9
    # and those seen on the dev set's Microsoft docs; link lists named otherwise are caught
    # by their link density, LINK_ONLY_DENSITY)
    r"参考リンク",
    r"関連項目",
    r"関連リンク",
    r"関連記事",
    r"こちらもご覧ください",
    r"次のステップ",
    r"see also",
    r"related (?:content|links|topics|articles)",
    r"next steps",
    r"additional resources",
    r"recursos adicionales",
    r"pasos siguientes",
    r"siguientes pasos",
    r"vínculos relacionados",
    r"enlaces relacionados",
    r"관련 항목",
    r"관련 링크",
    r"관련(?:된)? 문서",
    r"참고 항목",
    r"다음 단계",
    r"추가 리소스",
    r"추가 자료",
    # the quick-reference table's own section, where a page puts the table under an H2
    r"早見表",
    r"quick reference",
    r"at a glance",
    r"referencia rápida",
    r"한눈에 보기",
)

#: What may follow an excluded keyword for the heading still to count as that keyword.
EXCLUDED_HEADING_TAIL = r"(?:$|[\s・:：、,，/／&（(「\-–—]|と|및|y\s)"

#: Link-only sections (see also, next steps, related content) are excluded however they are
#: headed: a section counts as link-only when at least LINK_ONLY_DENSITY of its characters
#: (white space left out) are the text of links to other pages and at most
#: LINK_ONLY_MAX_OTHER_CHARS are not. Links within the page do not count: a page's own table of
#: contents or a list-shaped quick reference is not "see also", and the verdict is the same
#: whether or not in-page links are kept (the dev set's pages/ and pages_nolinks/ agree on all
#: its sections with links). Measured on the dev set's 168 pages, beyond the names above: the
#: link lists score 0.95-1.0 (情報の入手方法, 次の手順, 중요 API, 상속 계층 구조, how-to lists)
#: with at most 67 characters outside links; the densest content section is a one-sentence
#: paragraph of API links (TestServer, 0.87, 28 characters outside), then 0.79 with 172. 0.9
#: keeps that paragraph; 100 characters (a sentence or two) keeps any section with prose.
#: Lower thresholds caught: 0.85 -> 19 sections (TestServer among them), 0.8 -> 20, 0.7 -> 22.
LINK_ONLY_DENSITY = 0.9
LINK_ONLY_MAX_OTHER_CHARS = 100

# --------------------------------------------------------------------------- quick-reference table

#: Header keywords per column role, matched as substrings of the normalised header cell. The
#: Japanese ones are the 早見表 columns of the seed (知りたいこと | 答え | 詳しい節); the others are
#: the equivalents seen on English, Spanish and Korean docs and blogs.
QUERY_HEADERS: tuple[str, ...] = (
    "知りたいこと",
    "やりたいこと",
    "質問",
    "疑問",
    "知りたい",
    "question",
    "query",
    "i want to",
    "what you want",
    "task",
    "pregunta",
    "quiero",
    "질문",
    "궁금한",
    "알고 싶은",
)
ANSWER_HEADERS: tuple[str, ...] = (
    "答え",
    "回答",
    "結論",
    "要点",
    "answer",
    "short answer",
    "tl;dr",
    "respuesta",
    "답",
    "결론",
    "요점",
)
REFERENCE_HEADERS: tuple[str, ...] = (
    "詳しい節",
    "詳しくは",
    "詳細",
    "該当する節",
    "参照",
    "節",
    "見出し",
    "リンク",
    "details",
    "section",
    "see",
    "read more",
    "where",
    "more",
    "sección",
    "detalles",
    "ver",
    "자세한",
    "자세히",
    "섹션",
    "절",
)

#: Names a table is given in the ``source`` field when it has no caption or label before it,
#: by the script of its header row (the seed's source field reads "早見表:<reference>").
DEFAULT_TABLE_NAMES: dict[str, str] = {
    "ja": "早見表",
    "ko": "요약표",
    "other": "Quick reference",
}

#: A label before the table (a heading, or a short paragraph that is bold or ends with a colon)
#: longer than this is prose, not a table name.
TABLE_LABEL_MAX_CHARS = 40

#: A header row with more text than this is not one: layout tables put a whole page in their
#: first row, and matching the header keywords over it costs more than parsing the page.
HEADER_ROW_MAX_CHARS = 1000

#: Colspan/rowspan values above this are read as this: a hostile page must not make us
#: allocate a grid of millions of cells, and no quick-reference table spans more.
MAX_SPAN = 50

#: Without recognisable headers, a column is the reference column when at least this share of
#: its cells name a heading of the article (by link, equality or containment; see
#: quickref._by_headings), over at least MIN_TABLE_ROWS rows. Half is the point where chance
#: matches of short cells stop explaining it on the sample site.
HEADING_COLUMN_MIN_SHARE = 0.5
#: ... over at least this many data rows: docs pages open with 1-2 row navigation tables.
MIN_TABLE_ROWS = 3
#: Recognising a table by its cells reads at most this many rows: enough evidence for a
#: quick-reference table (the sample's have 3-8 rows), and a long data table costs no more.
RECOGNITION_ROWS = 12

#: Tables recognised by their cells (no telling header) are looked for only before this split
#: heading (the 2nd H2): quick-reference tables sit in the intro or a first "早見表" section,
#: and checking every data table of a long docs page cell by cell would cost more than parsing.
QUICKREF_MAX_SECTION = 2

# --------------------------------------------------------------------------- matching

#: Separators that join two section names in one reference ("A／B", "A / B", "A、B"). A plain
#: "/" without spaces is not one: headings such as "TCP/UDP の違い" contain it. A reference is
#: only split when the whole reference matches no heading.
REFERENCE_SEPARATORS: tuple[str, ...] = ("／", " / ", "、", "；", ";", " | ", "，", ", ")

#: Of those, the weak ones: a comma joins the words of one name as often as two names
#: ("Cliente, servidor, bidireccional" names one section, the streaming one). A reference is
#: split at a weak separator only when every part is then exactly a heading; otherwise the
#: whole reference is matched as one. Strong separators ("／", " / " ...) split as before.
WEAK_SEPARATORS: frozenset[str] = frozenset({"、", "，", ", "})

#: Brackets removed before comparing a reference with a heading.
BRACKETS = "()（）[]［］{}｛｝「」『』【】〈〉《》<>＜＞\"'“”‘’"

#: Word-aware matching (matching/). A reference and a heading are compared as units (Latin
#: words, CJK and Hangul bigrams; text.units), each weighted by its rarity among the article's
#: own headings (a word every heading shares, such as the class name of an API page, says
#: nothing), and the similarity mixes the share of the reference's weight found in the heading
#: (recall), the share of the heading's weight named by the reference (precision) and their
#: longest common subsequence (rapidfuzz ratio). Weights of the mix, measured on the dev set
#: (benchmarks/bench_matching.py): recall matters most, because references shorten headings.
SIMILARITY_WEIGHTS: tuple[float, float, float] = (0.5, 0.2, 0.3)

#: A reference is given its best heading by similarity when it scores at least this (0-1) and
#: at least SIMILARITY_MARGIN above the best heading of any other section. Chosen on the dev
#: set where precision stays at or above 99.5% (see benchmarks/README.md for the sweep).
FUZZY_THRESHOLD = 0.55

#: Two sections whose best headings score within this margin (0-1) are a near-tie: ambiguous,
#: not guessed (unless the table's order decides, see ORDER_*).
AMBIGUITY_MARGIN = 0.08

#: A heading contained in a longer reference counts only when it is at least this share of the
#: reference's characters: short headings ("概要", "Setup") are contained in many references.
MIN_CONTAINED_SHARE = 0.5

#: A reference contained in a heading needs at least this many characters (after
#: normalisation): one or two characters are contained everywhere.
MIN_CONTAINED_CHARS = 2

#: Weight of a light unit (a bigram with hiragana in it, a generic word) against a content
#: unit: particles and okurigana join every Japanese heading to every other.
LIGHT_WEIGHT = 0.25

#: Weight of a unit found in no heading, against one found in exactly one: such a unit (a
#: class name the headings translate, a word the author added) cannot point at a heading, but
#: a reference made only of such units names none. Weighting it as the rarest unit lost 16
#: points of the dev set (API pages: "ATLPath::X" under headings that translate the class).
UNSEEN_WEIGHT = 0.5

#: A fuzzy candidate must also hold at least this share of the reference's weight: a
#: reference that shares only its generic words with a heading is not a match.
MIN_RECALL = 0.5

#: The item that matters (matching/index.py ``names_item``): a fuzzy candidate that shares
#: only light units and the page's topic with a reference, while each holds a specific unit
#: the other lacks, is no candidate. A topic unit is one at least TOPIC_SHARE of the
#: article's sections hold in their text, on an article of at least TOPIC_MIN_SECTIONS
#: sections (fewer say nothing of a topic). By cross-validation on the dev set's halves
#: (docs/label-quality.md): TOPIC_SHARE 0.3 / 0.4 / 0.5 / 0.6 / 0.75 give half A 636 right, 1
#: wrong at every value and half B 599/2, 598/2, 598/1, 597/1, 597/1: 0.5, best on B and
#: neutral on A. TOPIC_MIN_SECTIONS 3 or 4 cost half B one right row, A none.
TOPIC_SHARE = 0.5
TOPIC_MIN_SECTIONS = 5

#: Order: a quick-reference table or link list follows the page's order almost always. Rows of
#: one table are decided together by a monotone alignment over heading positions. A row with no
#: match of its own takes a candidate scoring at least ORDER_THRESHOLD when it is the only one
#: of that strength between its anchored neighbours; the alignment is used only when at least
#: ORDER_MIN_SHARE of the table's decided rows already follow the page's order.
ORDER_THRESHOLD = 0.45
ORDER_MIN_SHARE = 0.8
#: ... and only between neighbours that bracket at most this many sections: far-apart
#: neighbours say little about a row between them (on the dev set, wider brackets chose
#: wrongly between the repeated version blocks of one page).
ORDER_MAX_SECTIONS = 3

#: Rules that decide by resemblance rather than by the heading's name: the audit's ``fuzzy``
#: stratum (``content`` has its own, first), and the matches ``check`` looks at for a near-tie
#: (a content label's headings usually are one: that is why the text was read).
GUESSED_RULES: tuple[str, ...] = ("fuzzy", "order", "content")

#: Confidence (0-1, one scale for every rule; golden.jsonl ``confidence``): an in-page link and
#: an exact heading are near certain; an exact match after dropping a bracketed part or a
#: "Step 2:" prefix a little less; containment between; similarity and order below, scaled
#: from their score.
MATCH_CONFIDENCE: dict[str, float] = {
    "anchor": 1.0,
    "exact": 0.99,
    "exact_stripped": 0.97,
    "contains_max": 0.95,
    "contains_min": 0.8,
    "fuzzy_max": 0.79,
    "order_max": 0.7,
    "content_max": 0.54,
    "content_min": 0.45,
}

#: Content evidence (matching/content_rule.py, content.py): a row's cells (query, answer)
#: scored by BM25 against the article's sections. It settles only rows the headings leave
#: open: a near-tie when content ranks one tied section first by CONTENT_TIE_RATIO (best /
#: runner-up among all the sections), a weak heading candidate (ORDER_THRESHOLD or more,
#: CONTENT_AHEAD_MARGIN ahead of every other section's heading) when content ranks it first
#: by CONTENT_WEAK_RATIO. Chosen on the dev set (benchmarks/README.md): the lowest ratios
#: that cost no precision there nor on the sample site. Either way the chosen section must
#: hold the row's answer and its rivals must not (issue 28). A row with no heading candidate
#: is left open: outside the dev set content chose 7 of 12 such rows wrongly.
CONTENT_TIE_RATIO = 1.5
CONTENT_WEAK_RATIO = 1.5
CONTENT_AHEAD_MARGIN = AMBIGUITY_MARGIN

#: The optional semantic fallback (semantic.py, ``[build] semantic``): rows left with these
#: reasons are tried; vague link text and fragments name nothing, out-of-order rows were
#: contradicted by the table.
SEMANTIC_REASONS: frozenset[str] = frozenset({"unmatched", "ambiguous"})
#: ... a reference takes the section whose best heading has at least this cosine ...
SEMANTIC_THRESHOLD = 0.5
#: ... and is ahead of every other section by this much. Tuned on the dev set's 130 rows the
#: lexical rules leave (benchmarks/bench_semantic.py --sweep): at cosine >= 0.5 a margin of
#: 0.1 decides 34 rows, 31 right; 0.15 decides 30, 29 right; 0.2 decides 23, 22 right. Chosen
#: on the set it is measured on, so expect less elsewhere: the README says so.
SEMANTIC_MARGIN = 0.15
#: ... with the confidence this x its cosine: at most 0.6, below order (0.7) and the audit's
#: LOW_CONFIDENCE, so the audit over-samples every semantic label.
SEMANTIC_CONFIDENCE = 0.6

#: Light stemming of Latin words (text.stem): a word is compared by its first letters, so
#: "filtros de acciones" meets "Filtros de acción" and "registrar" meets "registro".
STEM_PREFIX = 5

#: English and Spanish function words: no section name and no query topic. The matcher's and
#: check's stop words both start from them.
FUNCTION_WORDS: tuple[str, ...] = (
    "a", "an", "the", "of", "to", "in", "on", "for", "is", "be",
    "de", "del", "la", "las", "el", "los", "en", "y", "o", "un", "una", "con", "por", "para",
    "se", "lo",
)  # fmt: skip

#: Words that carry no section name, dropped from the units: the function words and more of
#: them (a query's "and", "with" or "your" never names a section either).
MATCH_STOPWORDS: frozenset[str] = frozenset(
    FUNCTION_WORDS
    + (
        "at", "and", "or", "with", "by", "from", "as", "are", "your", "you", "it", "its", "this",
        "that", "u", "unos", "unas", "al", "su", "sus", "que",
    )
)  # fmt: skip

#: Words that name no section on their own ("how to", "方法", "手順", "場合", "사용", "방법"):
#: they weigh little in the similarity. Latin words are compared by their stems (text.stem);
#: CJK and Hangul ones are bigrams, as the units are. Kana bigrams are light already.
GENERIC_UNITS: frozenset[str] = frozenset(
    [
        "how", "use", "using", "usar", "uso", "about", "overview", "introduction", "example",
        "examples", "ejemplo", "informacion", "general",
        "方法", "手順", "場合", "使用", "概要", "設定",
        "사용", "방법", "개요", "설정", "하기", "하는",
    ]
)  # fmt: skip

#: A row whose own cells say its answer is in another article or on another page is never
#: labelled in this one (reason ``elsewhere``, matching/elsewhere.py): outside the dev set
#: content gave such rows ("別記事で解説", "Covered in another article", "JOIN の詳細（別記事）")
#: the section its text ranked first (issue 28). Phrases per language (ja, en, es, ko, zh, as
#: the header keywords), compared accent- and case-folded; Latin ones on word boundaries. None
#: occurs in the dev set's 1,386 rows, whose references all lead into their own page.
ELSEWHERE_PHRASES: tuple[str, ...] = (
    "別記事", "別の記事", "別ページ", "別のページ", "別稿", "他の記事", "別エントリ",
    "another article", "separate article", "other article", "different article",
    "another post", "separate post", "another page", "separate page", "covered elsewhere",
    "otro artículo", "artículo aparte", "artículo independiente", "artículo separado",
    "otra página", "página aparte", "otra entrada",
    "다른 문서", "다른 글", "별도 문서", "별도의 문서", "별도 글", "다른 아티클", "다른 페이지",
    "별도 페이지", "다른 게시물",
    "另一篇", "其他文章", "另文", "单独的文章", "單獨的文章", "另一页", "另一頁",
)  # fmt: skip
#: ... and phrases that send the reader on ("see …", "参照"), which say so only when the row
#: also links to another page: "see Installing" with no such link names a section of this one.
SEE_ELSEWHERE_PHRASES: tuple[str, ...] = (
    "参照", "をご覧", "を見て", "詳しくは",
    "see", "refer to", "read more", "check out",
    "ver", "véase", "vea", "consulte", "consultar", "lea",
    "참조", "참고", "보세요", "확인하세요",
    "参见", "参阅", "請參閱", "请参阅", "详见", "詳見",
)  # fmt: skip

#: Link text that names no section: never matched to one, whatever heading it resembles.
VAGUE_REFERENCES: frozenset[str] = frozenset(
    [
        "here", "click here", "this section", "this article", "this page", "learn more",
        "read more", "more", "more info", "details", "see", "see below", "link", "below", "above",
        "aquí", "aqui", "aquí.", "esta sección", "este artículo", "más información", "ver",
        "ver más", "detalles", "enlace",
        "こちら", "ここ", "詳細", "参照", "詳しくはこちら", "こちらを参照", "リンク", "この節",
        "このセクション", "下記", "以下",
        "여기", "이곳", "자세히", "자세한 내용", "참조", "참조하십시오", "참조하세요", "링크",
        "이 섹션",
    ]
)  # fmt: skip

#: A reference that starts with a particle or a list comma is a fragment of a sentence
#: ("を使用", "、パラメーター"): it may only match a heading exactly.
FRAGMENT_START = re.compile(r"^(?:[、，,・]|[をがにでへとやもはの](?![\u3040-\u309f]))")

#: Prefixes that are not part of a heading's name: "Step 2:", "手順 2:", "例:", "Example:".
#: Matching without them still counts as exact (confidence MATCH_CONFIDENCE["exact_stripped"]).
NAME_PREFIX = re.compile(
    r"^(?:(?:step|paso|手順|ステップ|단계)\s*\d+|example|ejemplo|例|예|note|nota|注意|참고)"
    r"\s*[:：.．)]\s*",
    re.IGNORECASE,
)

# --------------------------------------------------------------------------- audit

#: Default audit sample: the seed read 40 rows.
AUDIT_SIZE = 40
AUDIT_SEED = 0

#: Labels below this confidence (0-1, any rule) are over-sampled in the audit as "low
#: confidence"; ``qrelsmith check`` flags them with its "low-confidence" signal. Order matches
#: (at most 0.7) and the weaker fuzzy ones (at most 0.79) sit below it, containment (0.8 and up)
#: and exact ones above: the old fuzzy-ratio cut of 75 on the same share of the sample.
LOW_CONFIDENCE = 0.75

#: How many times more likely a risky row is drawn than a plain one, per stratum (see
#: audit/sample.py for the strata; they are named here, in the order a query is tried). The
#: seed's two wrong labels out of 40 were a weak fuzzy match and a two-section reference; 3-4x
#: puts about half of a 40-row sample into those strata on the sample site while leaving 15+
#: plain rows. Content labels (matching's ``content`` rule) form their own stratum, first, at
#: the highest rate: the rule settles rows the headings could not, and only a review shows how
#: it does on a site.
OVERSAMPLE: dict[str, float] = {
    "content": 4.0,
    "low_confidence": 4.0,
    "fuzzy": 3.0,
    "multi": 3.0,
    "plain": 1.0,
}

#: How many times more likely a pooled pair is drawn for review (``audit pool``), by what put
#: it in the pool. ``check``: pairs check's signals name (a top hit in another article, a
#: near-duplicate query's section): the seed read 15 other-article top hits and found 3 valid
#: answers, the densest source of missing relevant documents known. Then by best rank: TREC's
#: pools hold most of their relevant documents near the top, so the top hit is drawn three times
#: as often as ranks 4-K and ranks 2-3 twice; the weights keep the estimate unbiased whatever
#: the factors (they only move where the interval is narrow).
POOL_OVERSAMPLE: dict[str, float] = {
    "check": 4.0,
    "rank 1": 3.0,
    "rank 2-3": 2.0,
    "rank 4-K": 1.0,
    "check only": 1.0,
}

#: ``audit pool``'s defaults: TREC's classic pool depth for a top-10 evaluation, and a sample a
#: reviewer judges in about half an hour (a pair is one read of one section).
POOL_DEPTH = 10
POOL_SIZE = 60

#: The precision assumed when telling the reviewer how wide the interval will be: the seed's
#: 38 right out of 40. The worst case (0.5) is printed beside it.
PLANNING_PRECISION = 0.95

#: Characters of each matched section shown in the audit sheet: enough to judge most answers,
#: short enough for a spreadsheet row. The HTML page shows the whole text.
OPENING_CHARS = 400

#: Characters shown on each side of the answer's span in audit.csv's ``evidence`` cell: about a
#: sentence, enough to see that the span says what the answer says.
EVIDENCE_CONTEXT_CHARS = 80

#: The most characters a cell of Excel holds (LibreOffice reads more, but Excel cuts the cell
#: or refuses the file): longer cells of audit.csv are cut and end with a marker saying so.
EXCEL_CELL_CHARS = 32_767

# --------------------------------------------------------------------------- evaluation

#: Resampling counts of the seed: 2,000 bootstrap resamples, 10,000 permutation rounds.
BOOTSTRAP_SAMPLES = 2000
PERMUTATION_ROUNDS = 10000
EVAL_SEED = 0

#: The intervals' coverage: 95 %, as in the seed and Smucker et al. The tables and help texts
#: say "95%", so they change with it.
CONFIDENCE = 0.95

#: `eval --sizes`: subsets drawn per size (the seed drew 1,000). Each subset's own interval
#: comes from 200 resamples and its test from 1,000 sign-flip rounds: one subset's 200-resample
#: width is off by a few per cent, but the reported width is the mean over 1,000 subsets, whose
#: error is ~30 times smaller; 1,000 rounds resolve p to 0.001, enough to call p < 0.05.
STABILITY_SUBSETS = 1000
STABILITY_RESAMPLES = 200
STABILITY_ROUNDS = 1000

#: The bounds of every count and cut-off of the options (issue 27: past them a count ends in a
#: numpy array that cannot be allocated, a run that never ends, or an overflow in C code). Each
#: is far past any useful value, so no real setting meets it:
#: a seed is what every random generator takes whole (numpy's and the stdlib's: 32 bits);
MAX_SEED = 2**32 - 1
#: bootstrap resamples: 50 times the default 2,000 (the interval's ends move by < 0.1 %);
MAX_RESAMPLES = 100_000
#: permutation rounds: 100 times the default 10,000 (p resolved to 0.000001);
MAX_ROUNDS = 1_000_000
#: subsets per size of --sizes: 10 times the study's 1,000;
MAX_SUBSETS = 10_000
#: a measure's @k and a run's depth: 1,000 is TREC's usual run depth, so a million is no
#: limit, and pytrec_eval's C int cut-offs overflow past 2**31 (P@99999999999999999999);
MAX_CUTOFF = 1_000_000
#: a grade (--rel): pytrec_eval's relevance levels are C ints;
MAX_GRADE = 2**31 - 1
#: the audit sample: a reviewer reads 40-100 rows; 100,000 is a whole crawl's queries;
MAX_AUDIT_SIZE = 100_000
#: a character n-gram: 2-3 is the best setting, past 20 no two texts share one;
MAX_NGRAM = 20
#: LSA dimensions: 40 times the default 256; 10,000 components of a 100k-section corpus are
#: 8 GB of float64 already.
MAX_LSA_DIMS = 10_000

#: `eval --curve`: the cut-offs of the seed's table for choosing k.
CURVE_CUTOFFS: tuple[int, ...] = (1, 3, 5, 10, 20, 50, 100)

#: The standard normal quantile at (1 + CONFIDENCE) / 2, for the audit's Wilson intervals: the
#: stdlib's NormalDist is a bit off in the last digits (1.9599639845400536), scipy's exact one
#: costs the build a 0.25 s import, so the value is written out; a test checks it against
#: scipy's ``ndtri`` so it cannot drift from CONFIDENCE.
CONFIDENCE_Z = 1.959963984540054

#: Two values closer than this are equal (float noise from the arithmetic): a tie in win/tie/loss
#: counts, a pair of queries at DUPLICATE_COSINE in check.
TIE_TOLERANCE = 1e-9

#: What `qrelsmith eval` reports without --measures: the seed's strict set (RR, recall at the
#: prompt and candidate cut-offs, first-hit success, AP) plus graded nDCG and context precision.
EVAL_MEASURES: tuple[str, ...] = (
    "nDCG@10", "RR@10", "R@10", "R@100", "Success@1", "P@5", "AP@100", "CP@5",
)  # fmt: skip

#: Default relevance threshold: grade 2 is the section the author named; grade 1 only says
#: "same article" and would let a retriever score by finding the article (the seed's "strict").
EVAL_REL = 2

#: nDCG gain of grade g: g itself, as trec_eval and ir_measures do, so figures compare with
#: published ones; "exp" (2^g - 1) is the opt-in.
EVAL_GAINS: Literal["linear", "exp"] = "linear"

# --------------------------------------------------------------------------- baseline

#: The baseline's weighting: BM25, the seed's best run (bm25_23) and the usual reference point;
#: "tfidf" (sublinear tf, cosine), "lsa" and "dense" are the other choices.
BASELINE_METHOD: Literal["bm25", "tfidf", "lsa", "dense"] = "bm25"

#: The seed's BM25 parameters (Robertson's usual k1 = 1.2, b = 0.75).
BM25_K1 = 1.2
BM25_B = 0.75

#: Character 2- and 3-grams: the seed's best setting (bm25_23), MRR@10 0.709 vs 0.695 for 2-grams.
NGRAM_RANGE: tuple[int, int] = (2, 3)

#: LSA as the seed built it: TF-IDF over the 30,000 most frequent character n-grams (its
#: "3万語"), TruncatedSVD to 256 dimensions (its better LSA, MRR@10 0.485 vs 0.393 at 128),
#: seeded so that a run is the same bytes each time (0: scikit-learn's examples' seed).
LSA_FEATURES = 30_000
LSA_DIMS = 256
LSA_SEED = 0

#: Texts the dense encoder embeds per call: its own micro-batches are ~384 tokens, so 256
#: texts a call keeps the transient arrays to a few MB while the per-call cost is shared.
DENSE_BATCH = 256

#: What ends an article's subject in its title (the seed's "記事タイトルの「｜」より前"), tried
#: in this order: the full-width bar the seed's site uses, then the usual title separators.
SUBJECT_SEPARATORS = ("｜", "|", " - ", ": ")

#: Named sets of runs (`baseline --preset`): run name -> the options it sets (the others keep
#: their defaults; the depth and the query form are the caller's). "study": the seed's six
#: settings under its names.
BASELINE_PRESETS: dict[str, dict[str, Any]] = {
    "study": {
        "bm25_2": {"method": "bm25", "ngrams": (2, 2)},
        "bm25_23": {"method": "bm25", "ngrams": (2, 3)},
        "bm25_2_b03": {"method": "bm25", "ngrams": (2, 2), "b": 0.3},
        "tfidf_23": {"method": "tfidf", "ngrams": (2, 3)},
        "lsa_128": {"method": "lsa", "ngrams": (2, 2), "dims": 128},
        "lsa_256": {"method": "lsa", "ngrams": (2, 2), "dims": 256},
    }
}

#: Results per query of `qrelsmith baseline`: 100 is the deepest cut-off of EVAL_MEASURES
#: (R@100, AP@100), so the default run scores every default measure fully.
BASELINE_DEPTH = 100

#: Results per query of the baseline that `check` computes when no run is given: only the top
#: hit is used, so depth barely matters; 10 keeps the run small.
CHECK_DEPTH = 10

# --------------------------------------------------------------------------- check

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

# --------------------------------------------------------------------------- evidence

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

# --------------------------------------------------------------------------- overlap

#: report.json's bands of a query's overlap share (``overlap.py``), as (name, upper bound):
#: a share is in the first band whose bound it is below; the two ends are bands of their own.
#: "none" (no word of the query in its sections: a paraphrase, what a dense retriever is for)
#: and "all" (every word there: a lookup any word matcher solves) are the two a reader of
#: the seed's study looks for; thirds between them, like ``eval --by overlap``'s groups.
OVERLAP_BANDS: tuple[tuple[str, float], ...] = (
    ("none", 1e-9),
    ("few", 1 / 3),
    ("some", 2 / 3),
    ("most", 1.0),
    ("all", float("inf")),
)
#: Decimals an overlap share is written with in golden.jsonl and report.json.
OVERLAP_DECIMALS = 4

# --------------------------------------------------------------------------- align

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


# --------------------------------------------------------------------------- reserved characters

#: Private-use character that brackets the markers sections.py puts in the page text (heading
#: and element-id marks); ``parse.py`` removes it from page bytes so no page can forge one.
MARK = "\ue000"
#: Private-use characters around the text of a link to another page. They stay inside the text
#: chunks (the marker split never sees them), so a section's link characters are counted with
#: C-level string methods, and only for sections short enough to be link-only; ``parse.py``
#: removes them from page bytes as it does MARK. Private use: no real page text means them.
LINK_OPEN = "\ue001"
LINK_CLOSE = "\ue002"
#: The characters ``parse.py`` removes from every page.
RESERVED = (MARK, LINK_OPEN, LINK_CLOSE)

# --------------------------------------------------------------------------- query sources

#: The query sources a build reads by default (``sources.SOURCES``): the quick-reference table
#: alone, so that a build without ``[build] sources`` writes what qrelsmith always wrote.
QUERY_SOURCES: tuple[str, ...] = ("table",)

#: A page whose title or first heading holds one of these is a FAQ page: its question headings
#: and Q/A pairs are its content (each answer becomes a corpus document of its own). The FAQ
#: words of ``EXCLUDED_HEADINGS`` anywhere in the title ("Programming FAQ", "gitfaq(7)"
#: on the Debian manuals crawl: Python's eight FAQ pages and git's), as a word.
FAQ_PAGE_TITLE = re.compile(
    r"(?:\b|(?<=git))faq\b|frequently asked questions|よくある(?:ご)?質問|preguntas frecuentes"
    r"|자주 (?:묻는|하는) 질문",
    re.IGNORECASE,
)

#: ... and when it asks (question headings, <dt> and <summary> ending with "?") at least
#: 1 / FAQ_PAGE_QUESTION_SHARE as many questions as it has headings (H2-H6): the FAQ pages of
#: the benchmark crawl (Python's: question headings; git's: 20 <dt> under 10 headings) and of
#: the generator fixtures ask more; "FAQ Post Creator", a plugin README whose FAQ is one
#: section of 17 headings (7 questions), is an article with a FAQ section.
FAQ_PAGE_QUESTION_SHARE = 2

#: A paragraph that opens a question: "Q.", "Q：", "Q1.", "質問：", "P:" (pregunta),
#: "Pregunta:" -- the markers of the study's よくある質問 and of Spanish FAQ pages.
FAQ_QUESTION_MARK = re.compile(
    r"^\s*(?:Q\s*\d*\s*[.．:：)）]|Q\s+(?=\S)|質問\s*\d*\s*[.．:：]?|P\s*\d*\s*[.．:：]"
    r"|Pregunta\s*\d*\s*[.．:：]?)\s*",
    re.IGNORECASE,
)
#: The marker an answer paragraph may open with ("A.", "A：", "回答：", "R:", "Respuesta:").
FAQ_ANSWER_MARK = re.compile(
    r"^\s*(?:A\s*\d*\s*[.．:：)）]|回答\s*[.．:：]?|答え\s*[.．:：]?|R\s*[.．:：]"
    r"|Respuesta\s*[.．:：]?)\s*",
    re.IGNORECASE,
)
#: The answer written in the question's own paragraph, after a line break ("Q: …<br>A: …", or
#: Markdown's "Q: …" and "A: …" on two lines of one paragraph): its marker on a new line.
FAQ_INLINE_ANSWER = re.compile(
    r"\n\s*(?:A\s*\d*\s*[.．:：)）]|回答\s*[.．:：]?|答え\s*[.．:：]|R\s*[.．:：]|Respuesta\s*[.．:：]?)\s*",
    re.IGNORECASE,
)
#: A heading is a question when it ends with a question mark (or opens with a Q marker):
#: Python's FAQ headings all do ("How do I ...?"); on a FAQ page a heading that does not
#: ("General Information") names a group of questions, not one.
FAQ_QUESTION_END = re.compile(r"[?？]\s*$")

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
#: The confidence of a FAQ label: a FAQ page's answer is the author's own (grade 2, as sure as
#: an anchor); an in-article label is at most this (under every heading rule's, like content).
FAQ_PAGE_CONFIDENCE = 1.0
FAQ_BODY_MAX_CONFIDENCE = 0.75
