"""Named heuristics shared by the stages, each with the reason for its value.

Two kinds live here: the default of every option (``config.py`` takes its defaults from here,
so a site can override any of them in its TOML file), and the fixed heuristics that more than
one module reads (the matcher's confidences, the marks sections.py writes and parse.py clears,
the function words of text.py and check). A fixed heuristic that one module alone reads is a
named constant at the top of that module, with its reason beside it: decode.py's charset
shares, evidence.py's windows, align.py's shares, statistics.py's ``POWER`` ... Either way no
code writes a keyword or a threshold as a bare literal.
"""

from __future__ import annotations

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

#: The longest reason report.json keeps for a skipped page or an internal error (a parser's
#: message, or a JSON error quoting its line, can be a page long): 300 characters hold any
#: message of ours and the start of a foreign one, and keep report.json readable.
REASON_CHARS = 300

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

#: The heading level sections are split at (H2). H3 and deeper belong to their H2.
SECTION_LEVEL = 2

# --------------------------------------------------------------------------- excluded sections

#: Headings whose sections are not retrievable content (FAQ, summary, references). Regular
#: expressions matched at the start of the normalised heading (NFKC, lower case, leading
#: numbering removed) and followed by the end or a separator, so "参考・出典" is excluded but
#: "参考になる設定" is not. Languages: Japanese, English, Spanish, Korean (the seeds' languages).
EXCLUDED_HEADINGS: tuple[str, ...] = (
    # FAQ ("FAQs" too: READMEs and docs head their FAQ sections so as often as "FAQ"; on the
    # pages drawn for samples/faq-review-3.csv such a section's pairs were read as body text)
    r"よくある質問",
    r"よくあるご質問",
    r"faqs?",
    r"frequently asked questions",
    r"preguntas frecuentes",
    r"자주 묻는 질문",
    r"자주 하는 질문",
    # ... with a qualifier ("more FAQ"): the FAQ words after "other", "more", "additional"
    # ("추가 자주 묻는 질문" heads a second FAQ on two pages of samples/faq-review-3.csv' draw;
    # "questions" is a FAQ only after "additional": a heading that merely holds "questions"
    # or "질문" is not one)
    r"(?:その他の|他の|追加の)(?:よくある(?:ご)?質問|faqs?)",
    r"(?:추가|기타|더 많은) 자주 (?:묻는|하는) 질문",
    r"(?:más|otras) preguntas frecuentes",
    r"(?:more|other|additional) (?:faqs?|frequently asked questions)",
    r"additional questions",
    # summary (結論 and its kin: the closing headings of Japanese, Korean, English and Spanish
    # posts -- 結論 on 10 of the 105 pages the FAQ reviews built, 결론 on 8, Conclusión on 7, each a
    # closing summary; none is a heading of the dev set's pages; "wrapping up" and "para
    # terminar" only alone, since "Para terminar la instalación" is a step)
    r"まとめ",
    r"summary",
    r"conclusion",
    r"resumen",
    r"conclusiones?",
    r"conclusión",
    r"結論",
    r"おわりに",
    r"終わりに",
    r"最後に",
    r"요약",
    r"정리",
    r"마무리",
    r"결론",
    r"맺음말",
    r"final thoughts",
    r"wrapping up(?=\W*$)",
    r"para terminar(?=\W*$)",
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

# --------------------------------------------------------------------------- matching

#: Separators that join two section names in one reference ("A／B", "A / B", "A、B"). A plain
#: "/" without spaces is not one: headings such as "TCP/UDP の違い" contain it. A reference is
#: only split when the whole reference matches no heading.
REFERENCE_SEPARATORS: tuple[str, ...] = ("／", " / ", "、", "；", ";", " | ", "，", ", ")

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

#: Weight of a light unit (a bigram with hiragana in it, a generic word) against a content
#: unit: particles and okurigana join every Japanese heading to every other.
LIGHT_WEIGHT = 0.25

#: The words of an overview heading ("検索関数の全体像", "Overview", "개요", "Información
#: general"): such a section mentions every item of a reference page in passing, so a fuzzy
#: match names it only when the reference holds one of these words too (matching/index.py
#: ``names_item``; issue 28's "overview section whose text mentions every item"). Matched on
#: the folded text (``text.comparable``). Not "一覧"/"list": a list section does hold each item.
#: Dev set: no row changes on either half; held-out pages (benchmarks/heldout/): 1 wrong
#: label removed, no right one ("横方向の検索関数" took "検索関数の全体像", not "HLOOKUP 関数").
OVERVIEW_WORDS: tuple[str, ...] = (
    r"概要",
    r"全体像",
    r"概観",
    r"はじめに",
    r"概述",
    r"简介",
    r"概览",
    r"개요",
    r"개관",
    r"\boverview\b",
    r"\bintroduction\b",
    r"\bintroducci[oó]n\b",
    r"\bdescripci[oó]n general\b",
    r"\binformaci[oó]n general\b",
    r"\bgeneralidades\b",
)

#: A reference that names a section by its number, in each language's words: "7章", "第3節",
#: "§4", "Section 2.2", "Chapter 3", "제2장", "sección 3", "apartado 2.1", or the number alone
#: with a level ("4.1", "2-2"; the number is the first group). Read on the folded text
#: (``text.comparable``). Rule ``number`` (matching/rules.py ``by_number``): on a page whose
#: headings carry their numbers ("7. 本番環境での作成", "2.2 Configuring the S3 backend") the
#: number names the heading; on a page whose headings carry none the mention is set aside and
#: the rest of the reference decides.
SECTION_NUMBER_MENTIONS: tuple[str, ...] = (
    r"第\s*(\d+(?:[.-]\d+)*)\s*[章節节项項]",
    r"(?<![\d.])(\d+(?:[.-]\d+)*)\s*[章節节]",
    r"제\s*(\d+(?:[.-]\d+)*)\s*[장절]",
    r"\b(?:section|sect\.|sec\.|chapter|ch\.)\s*(\d+(?:[.-]\d+)*)",
    r"§\s*(\d+(?:[.-]\d+)*)",
    r"\b(?:secci[oó]n|apartado|cap[ií]tulo)\s*(\d+(?:[.-]\d+)*)",
    r"^\s*(\d+[.-]\d+(?:[.-]\d+)*)\.?\s*$",
)
#: The labels a page numbers its steps, cases and parts by, in headings ("Step 2: …",
#: "ケース4: …") and in references ("Step 2", "手順3"): a labelled reference names only a
#: heading with a label of its kind ("Part 2 of this series" is no "Step 2: …"); a plain one
#: ("4章") any heading whose number it is, when one section carries it.
NUMBER_LABELS: dict[str, tuple[str, ...]] = {
    "step": ("step", "paso", "手順", "ステップ", "단계"),
    "case": ("case", "caso", "ケース", "케이스"),
    "part": ("part", "parte"),
}
#: ... and a reference that opens with a heading's number ("4. カスタム例外" for "4. 独自の例外
#: クラスを定義する"): read only when the text alone leaves the row open, since a table may
#: number its own rows.
SECTION_NUMBER_LEADING = r"^\s*(\d+(?:[.-]\d+)*)[.)]\s+\S"
#: ... and the Korean forms that are as often a count ("6장", "2절", "7번": "사진 1장" is one
#: photo): these name a section only when the rest of the reference only points or names the
#: same section.
SECTION_NUMBER_COUNTS: tuple[str, ...] = (r"(?<![\d.])(\d+(?:[.-]\d+)*)\s*[장절번]",)
#: Words that call a section a section, at a reference's edges ("sección de cobertura",
#: "errors.As の章", "the Installation section"): set aside when the reference matches
#: nothing with them (matching/rules.py ``_match_listed``).
SECTION_NOUNS_BEFORE = (
    r"^(?:the\s+)?(?:section|chapter|secci[oó]n|apartado|cap[ií]tulo)\s+(?:on|about|de|sobre|del)?"
)
SECTION_NOUNS_AFTER = r"(?:section|chapter|の章|の節|の項|の項目|のセクション|セクション|섹션)\s*$"
#: ... the words around such a mention that only point ("자세한 내용은 3장", "詳細は 5 章",
#: "see §4"; besides elsewhere.py's "see" phrases): a reference of a mention and these only
#: names the numbered section; any other word must name it too ("4 章の概要": its "概要").
NUMBER_POINTER_WORDS: tuple[str, ...] = (
    "자세한 내용은", "자세한 내용", "자세히는", "자세히", "詳細は", "詳細", "詳しい説明は",
    "details", "detail", "more", "for", "in", "the", "chapter", "section", "más detalles",
    "detalles", "en", "el", "la",
)  # fmt: skip
#: A heading's own number, at its start: "7. …", "2.2 …", "第3章 …", "3) …", "4：…", and after
#: a label of ``NUMBER_LABELS``: "Step 2: …", "ケース4: …" (``{labels}``: their words).
HEADING_NUMBER = r"^\s*(?:第\s*|({labels})\s*)?(\d+(?:[.-]\d+)*)(?:[.)．:：、]|\s|章|節|장|$)"

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
    "number": 0.9,
    "fuzzy_max": 0.79,
    "order_max": 0.7,
    "content_max": 0.54,
    "content_min": 0.45,
}

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

#: ``audit pool``'s defaults: TREC's classic pool depth for a top-10 evaluation, and a sample a
#: reviewer judges in about half an hour (a pair is one read of one section).
POOL_DEPTH = 10
POOL_SIZE = 60

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
#: worker processes (build, baseline: --workers / -j, [build] and [baseline] workers): one per
#: hardware thread of the largest common servers (2 sockets x 64 cores x 2 threads). The work
#: is CPU-bound, so processes past the hardware threads add memory, never speed: each holds
#: ~44 MB once the page stages are imported (measured with /usr/bin/time -v) and up to ~400 MB
#: on a page near the cap, and a process pool under fork starts all of them at once, so
#: ``-j 100000`` asked for 100,000 processes. A fixed bound, not one from os.cpu_count(): a
#: config file valid on one machine stays valid on the next.
MAX_WORKERS = 256

#: Two values closer than this are equal (float noise from the arithmetic): a tie in win/tie/loss
#: counts, a pair of queries at check.DUPLICATE_COSINE.
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

#: Reciprocal rank fusion's k (`baseline --method rrf`): a document at rank r of a fused run
#: adds 1 / (k + r). 60 is Cormack, Clarke and Buettcher's (SIGIR 2009), chosen there on TREC
#: runs and held good across them: it damps the weight of the very top ranks.
RRF_K = 60

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

# --------------------------------------------------------------------------- check

# --------------------------------------------------------------------------- evidence

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
