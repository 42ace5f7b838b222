"""quickref.py: finding the table by headers or by headings; cells, spans, names."""

from __future__ import annotations

import pytest

from qrelsmith import article_queries, parse_article

HEADINGS = "<h2 id='a'>Install Python</h2><p>x</p><h2>Create a venv</h2><p>y</p><h2>Pin versions</h2><p>z</p>"


def test_th_headers_with_thead_and_cell_markup() -> None:
    page = f"""<article><p>Compare:</p>
    <table><tr><th>Tool</th><th>Speed</th></tr><tr><td>pip</td><td>ok</td></tr></table>
    <p><strong>Quick reference</strong></p>
    <table><thead><tr><th>Question</th><th>Short answer</th><th>Details</th></tr></thead>
    <tbody><tr><td>How do I<br>install?</td><td>Use <code>apt</code> &amp; pyenv</td>
    <td><a href="#a">Install</a></td></tr>
    <tr><td>venv?</td><td>python -m venv</td><td>Create a venv</td></tr></tbody></table>
    {HEADINGS}</article>"""
    article = parse_article(page, "en.html")
    assert article.table is not None
    assert article.table.name == "Quick reference"
    assert article.table.detected_by == "headers"
    first = article.table.rows[0]
    assert (first.query, first.answer, first.reference) == (
        "How do I install?",
        "Use apt & pyenv",
        "Install",
    )
    assert first.reference_anchors == ["a"]
    queries, rejected = article_queries(article)
    assert [q.match for q in queries] == ["anchor", "exact"] and rejected == []
    assert queries[0].source == "Quick reference:Install"


def test_td_header_row_without_thead_japanese() -> None:
    page = """<article><table>
    <tr><td>知りたいこと</td><td>答え</td><td>詳しい節</td></tr>
    <tr><td>仮想環境の作り方</td><td>venv</td><td>仮想環境</td></tr></table>
    <h2>仮想環境を作る</h2><p>x</p></article>"""
    article = parse_article(page, "ja.html")
    assert article.table is not None and article.table.name == "早見表"
    assert article.table.columns == {"query": 0, "answer": 1, "reference": 2}


def test_table_recognised_by_headings_when_headers_say_nothing() -> None:
    page = f"""<article><table><tr><th>Thing</th><th>Gist</th><th>Part</th></tr>
    <tr><td>get python</td><td>installer</td><td>Install Python</td></tr>
    <tr><td>isolate deps</td><td>venv</td><td>Create a venv</td></tr>
    <tr><td>lock</td><td>pip freeze</td><td>Pin versions</td></tr></table>{HEADINGS}</article>"""
    article = parse_article(page, "x.html")
    assert article.table is not None
    assert article.table.detected_by == "headings"
    assert article.table.columns == {"query": 0, "answer": 1, "reference": 2}
    assert [r.query for r in article.table.rows] == ["get python", "isolate deps", "lock"]


def test_table_text_never_reaches_a_section() -> None:
    page = """<article><h2>Quick reference</h2>
    <table><tr><th>Question</th><th>Answer</th><th>Details</th></tr>
    <tr><td>secret question</td><td>SECRET ANSWER</td><td>Real section</td></tr></table>
    <h2>Real section</h2><p>body</p></article>"""
    article = parse_article(page, "leak.html")
    assert all("SECRET" not in s.text and "secret" not in s.text for s in article.sections)
    assert [s.heading for s in article.sections] == ["Real section"]


def test_rowspan_colspan_expand() -> None:
    page = """<article><table><tr><th>Question</th><th>Answer</th><th>Section</th></tr>
    <tr><td>q1</td><td rowspan="2">shared</td><td>Alpha</td></tr>
    <tr><td>q2</td><td>Beta</td></tr>
    <tr><td colspan="2">q3 wide</td><td>Alpha</td></tr></table>
    <h2>Alpha</h2><p>a</p><h2>Beta</h2><p>b</p></article>"""
    rows = parse_article(page, "s.html").quickref_rows
    assert [(r.query, r.answer, r.reference) for r in rows] == [
        ("q1", "shared", "Alpha"),
        ("q2", "shared", "Beta"),
        ("q3 wide", "q3 wide", "Alpha"),
    ]


def test_page_without_table() -> None:
    article = parse_article("<article><h2>A</h2><p>x</p></article>", "n.html")
    assert article.table is None and article_queries(article) == ([], [])


def test_navigation_and_data_tables_are_not_quick_reference_tables() -> None:
    # The shape of PostgreSQL's manual pages: a Prev | Up | Next table linking to sibling pages
    # whose titles resemble this page's headings, and a data table near the top.
    page = """<body><table summary="Navigation header"><tr><th colspan="3">28.2. The Cumulative Statistics System</th></tr>
    <tr><td><a href="monitoring-ps.html">28.1. Standard Unix Tools</a></td><td><a href="monitoring.html">Up</a></td>
    <td><a href="monitoring-stats-views.html">28.2.3. Viewing Statistics</a></td></tr>
    <tr><td><a href="a.html">28.2.1. Statistics Collection Configuration</a></td><td>x</td><td><a href="b.html">28.2.2 Views</a></td></tr></table>
    <h2>28.2.1. Statistics Collection Configuration</h2><p>a</p><h2>28.2.2. Viewing Statistics</h2><p>b</p>
    <h2>28.2.3. pg_stat_activity</h2><p>c</p></body>"""
    assert parse_article(page, "pg.html").table is None


def test_fuzzy_resemblance_is_no_evidence_for_recognising_a_table() -> None:
    page = f"""<article><table><tr><th>Thing</th><th>Gist</th><th>Part</th></tr>
    <tr><td>a</td><td>x</td><td>Installing Python</td></tr>
    <tr><td>b</td><td>y</td><td>Creating venvs</td></tr>
    <tr><td>c</td><td>z</td><td>Pinning version</td></tr></table>{HEADINGS}</article>"""
    assert parse_article(page, "x.html").table is None


def test_layout_tables_are_not_read_as_headers() -> None:
    # A layout table puts the page in its first row: too long to be a header row, even when
    # the header keywords occur in it.
    prose = "Question and answer section details. " * 30
    layout = f"<table><tr><td>{prose}</td><td>Section</td></tr><tr><td>x</td><td>y</td></tr>"
    layout += "</table>"
    one_row = "<table><tr><th>Question</th><th>Section</th></tr></table>"
    for table in (layout, one_row):
        article = parse_article(f"<article>{table}{HEADINGS}</article>", "l.html")
        assert article.table is None


def test_rows_wrapped_in_other_markup_are_not_the_tables() -> None:
    # libxml2 keeps <div>/<form> wrappers inside a table; such rows were never read as the
    # table's (<form> is even dropped), and the page keeps its sections.
    for wrapper in ("div", "form"):
        page = f"""<article><table><{wrapper}><tr><th>Question</th><th>Section</th></tr>
        <tr><td>Where do I pin?</td><td>Pin versions</td></tr></{wrapper}></table>
        {HEADINGS}</article>"""
        article = parse_article(page, "w.html")
        assert article.table is None
        assert len(article.sections) == 3


def test_a_percent_encoded_in_page_link_resolves_as_in_a_browser() -> None:
    # Hugo and markdown-it write "#%E8%A8%AD%E5%AE%9A" for a link to the id "設定".
    html = """<html><body><h1>T</h1>
<table><tr><th>知りたいこと</th><th>答え</th><th>詳しい節</th></tr>
<tr><td>設定は</td><td>ファイル</td><td><a href="#%E8%A8%AD%E5%AE%9A">こちらの節</a></td></tr></table>
<h2 id="概要">概要</h2><p>a</p><h2 id="設定">設定</h2><p>b</p></body></html>"""
    article = parse_article(html, "p.html")
    assert article.quickref_rows[0].reference_anchors == ["設定"]
    queries, _ = article_queries(article)
    assert queries[0].relevant == {"p.html#1": 2} and queries[0].match == "anchor"


# ---------------------------------------------------------------- why an article has no table


def test_a_page_without_any_table_says_so() -> None:
    miss = parse_article(f"<article>{HEADINGS}</article>", "x.html").table_miss
    assert miss is not None and miss.reason == "no_table" and miss.caption is None


def test_a_data_table_is_named_with_its_header_and_the_roles_it_names() -> None:
    page = f"""<article><p><strong>Key types</strong></p>
    <table><tr><th>Question</th><th>Key size</th><th>Notes</th></tr>
    <tr><td>rsa</td><td>3072</td><td>old</td></tr></table>{HEADINGS}</article>"""
    article = parse_article(page, "x.html")
    assert article.table is None and article.table_miss is not None
    miss = article.table_miss
    assert miss.reason == "no_query_or_reference_header"
    assert (miss.caption, miss.header) == ("Key types", ["Question", "Key size", "Notes"])
    assert miss.roles == ["query"]  # a query column, but no reference column
    assert miss.rows == 2


def test_a_table_naming_too_few_headings_counts_every_cell_it_names() -> None:
    # 2 of 6 rows name a heading (one is a miss early on): below the rule of half the cells,
    # and the count is of all six rows, not of those read before the column gave up.
    rows = ["Install Python", "nothing", "x", "y", "z", "Pin versions"]
    cells = "".join(f"<tr><td>q{i}</td><td>{r}</td></tr>" for i, r in enumerate(rows))
    page = (
        f"<article><table><tr><th>Thing</th><th>Part</th></tr>{cells}</table>{HEADINGS}</article>"
    )
    article = parse_article(page, "x.html")
    assert article.table is None and article.table_miss is not None
    miss = article.table_miss
    assert (miss.reason, miss.named, miss.rows, miss.sections) == ("few_headings_named", 2, 6, 2)
    assert miss.header == ["Thing", "Part"]


def test_heading_column_share_makes_such_a_table_count() -> None:
    from qrelsmith.config import BuildOptions

    rows = ["Install Python", "nothing", "x", "y", "Pin versions"]  # 2 of 5 rows: 0.4
    cells = "".join(f"<tr><td>q{i}</td><td>{r}</td></tr>" for i, r in enumerate(rows))
    page = (
        f"<article><table><tr><th>Thing</th><th>Part</th></tr>{cells}</table>{HEADINGS}</article>"
    )
    assert parse_article(page, "x.html").table is None
    lowered = BuildOptions(heading_column_share=0.4)
    table = parse_article(page, "x.html", lowered).table
    assert table is not None and table.detected_by == "headings"


def test_permalink_marks_stay_out_of_table_names_and_cells() -> None:
    # Sphinx gives a table's caption and the heading before a table its "¶" too; both are read
    # on their own, not by the section-text pass
    mark = '<a class="headerlink" href="#k">¶</a>'
    data = f"""<article><table><caption>Key types{mark}</caption>
    <tr><th>Question{mark}</th><th>Key size</th></tr><tr><td>rsa</td><td>3072</td></tr></table>
    {HEADINGS}</article>"""
    miss = parse_article(data, "x.html").table_miss
    assert miss is not None and (miss.caption, miss.header) == (
        "Key types",
        ["Question", "Key size"],
    )
    one_row = f"<article><table><tr><th>Question{mark}</th><th>Size</th></tr></table>{HEADINGS}"
    miss = parse_article(one_row, "o.html").table_miss  # a header row read by the diagnosis only
    assert miss is not None and miss.header == ["Question", "Size"]
    quick = f"""<article><h3>Quick answers{mark}</h3><table><tr><th>Question</th><th>Section</th>
    </tr><tr><td>How do I install it?</td><td>Install Python{mark}</td></tr></table>
    {HEADINGS}</article>"""
    table = parse_article(quick, "q.html").table
    assert table is not None and table.name == "Quick answers"
    assert table.rows[0].reference == "Install Python"


def test_a_miss_names_the_first_table_s_header_as_recognition_read_it() -> None:
    # the header texts come from the header screen, which has left out the dropped elements
    # and the permalink marks: the same as reading the cleaned row again
    mark = '<a class="headerlink" href="#k">¶</a>'
    data = f"""<article><table><tr><th>Question{mark}<button>copy</button></th>
    <th>Key <nav>menu</nav>size</th></tr><tr><td>rsa</td><td>3072</td></tr></table>
    {HEADINGS}</article>"""
    miss = parse_article(data, "x.html").table_miss
    assert miss is not None and miss.reason == "no_query_or_reference_header"
    assert (miss.header, miss.roles) == (["Question", "Key size"], ["query"])


@pytest.mark.parametrize(
    ("cells", "roles"),
    [
        (["Question", "Key size", "Notes"], {"query"}),
        (["ＱＵＥＳＴＩＯＮ", "Ａｎｓｗｅｒ"], {"query", "answer"}),  # full-width: NFKC
        (["Name", "Description"], set()),
        (["質問", "答え", "節"], {"query", "answer", "reference"}),
        (["e\u0301", "\u0301Question", "Answer"], {"query", "answer"}),  # a combining start
        (
            [" ".join(["Question?"] * 120), "Answer"],
            {"query", "answer"},
        ),  # too long a row to screen
    ],
)
def test_a_miss_s_roles_from_the_screened_keywords_are_those_read_again(
    cells: list[str], roles: set[str]
) -> None:
    # the header screen has folded the joined row: its keywords serve the per-cell pass
    from lxml import etree

    from qrelsmith.config import BuildOptions
    from qrelsmith.page.quickref import Cell, _header_cells, _roles_named

    options = BuildOptions()
    head = "".join(f"<th>{cell}</th>" for cell in cells)
    page = f"<table><tr>{head}</tr><tr><td>x</td></tr></table>"
    table = etree.fromstring(page, etree.HTMLParser()).find(".//table")
    _, row = _header_cells(table, options)
    assert row is not None and row.texts == cells
    assert (row.keywords is None) == (len(" ".join(cells)) > 1000)
    header = [Cell(text, (), False) for text in row.texts]
    assert _roles_named(header, options, row.keywords) == _roles_named(header, options) == roles


@pytest.mark.parametrize(
    ("texts", "script"),
    [
        (["Name", "Description"], "other"),
        (["Función", "Descripción"], "other"),  # not ASCII, yet neither Korean nor Japanese
        (["항목", "설명"], "ko"),
        (["Name", "説明"], "ja"),
        (["すること", "설명"], "ko"),  # Hangul anywhere decides first
    ],
)
def test_a_table_s_default_name_follows_the_script_of_its_header(
    texts: list[str], script: str
) -> None:
    from qrelsmith import patterns
    from qrelsmith.page.quickref import Cell, default_name

    header = [Cell(text, (), True) for text in texts]
    assert default_name(header) == patterns.DEFAULT_TABLE_NAMES[script]
