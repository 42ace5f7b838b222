"""Named heuristics, in one place, each with the reason for its value.

The options model in ``config.py`` takes its defaults from here, so a site can override any of
them in its TOML file; code never hard-codes a keyword or a threshold elsewhere.
"""

from __future__ import annotations

# --------------------------------------------------------------------------- the article

#: CSS selectors tried in order for the article root; the first that matches wins. Blogs and
#: docs sites wrap the body in <article> or <main>; <body> is the fallback for bare pages.
ARTICLE_SELECTORS: tuple[str, ...] = ("article", "main", "body")

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
    r"references?",
    r"further reading",
    r"sources",
    r"referencias",
    r"bibliografía",
    r"참고",
    r"참고 문헌",
    r"참고문헌",
    r"출처",
    # the quick-reference table's own section, where a page puts the table under an H2
    r"早見表",
    r"quick reference",
    r"at a glance",
    r"referencia rápida",
    r"한눈에 보기",
)

#: What may follow an excluded keyword for the heading still to count as that keyword.
EXCLUDED_HEADING_TAIL = r"(?:$|[\s・:：、,，/／&（(「\-–—]|と|및|y\s)"

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

#: Without recognisable headers, a column is the reference column when at least this share of
#: its cells match a heading of the article, over at least MIN_TABLE_ROWS rows. Half is the
#: point where chance matches of short cells stop explaining it on the sample site.
HEADING_COLUMN_MIN_SHARE = 0.5
MIN_TABLE_ROWS = 2

#: Tables recognised by their cells (no telling header) are looked for only before this split
#: heading (the 2nd H2): quick-reference tables sit in the intro or a first "早見表" section,
#: and checking every data table of a long docs page cell by cell would cost more than parsing.
QUICKREF_MAX_SECTION = 2

# --------------------------------------------------------------------------- matching

#: Separators that join two section names in one reference ("A／B", "A / B", "A、B"). A plain
#: "/" without spaces is not one: headings such as "TCP/UDP の違い" contain it. A reference is
#: only split when the whole reference matches no heading.
REFERENCE_SEPARATORS: tuple[str, ...] = ("／", " / ", "、", "；", ";", " | ", "，", ", ")

#: Brackets removed before comparing a reference with a heading.
BRACKETS = "()（）[]［］{}｛｝「」『』【】〈〉《》<>＜＞\"'“”‘’"

#: Fuzzy matching: rapidfuzz ``fuzz.ratio`` (normalised Indel similarity, 0-100) between the
#: normalised reference and each heading. The seed used difflib's ratio >= 0.5 (the same
#: measure). Measured on the sample site's reworded references
#: (tests/test_sample_site.py::test_fuzzy_threshold_separates): the right headings score
#: 67.9-89.7, the best wrong heading of those rows 48.1, and the dangling references stay below
#: 50. 60 sits in that gap with room on both sides; the seed's 50 would sit on its edge.
FUZZY_THRESHOLD = 60.0

#: Two candidates whose fuzzy scores differ by less than this are a near-tie: reported as
#: ambiguous instead of guessed.
AMBIGUITY_MARGIN = 5.0

# --------------------------------------------------------------------------- audit

#: Default audit sample: the seed read 40 rows.
AUDIT_SIZE = 40
AUDIT_SEED = 0

#: Matches below this fuzzy score are over-sampled in the audit as "low score".
LOW_SCORE = 75.0

# --------------------------------------------------------------------------- evaluation

#: Resampling counts of the seed: 2,000 bootstrap resamples, 10,000 permutation rounds.
BOOTSTRAP_SAMPLES = 2000
PERMUTATION_ROUNDS = 10000
EVAL_SEED = 0
