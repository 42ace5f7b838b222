"""article.py: one page -> Article and its queries, the pure core of a build."""

from __future__ import annotations

from qrelsmith import article_queries, parse_article
from qrelsmith.config import BuildOptions
from qrelsmith.patterns import MAX_QUERY_CHARS

PAGE = """<article><h1>Ports</h1>
<table><tr><th>Question</th><th>Answer</th><th>Section</th></tr>
<tr><td>Which port does RDP use?</td><td>3389</td><td>RDP port</td></tr>
<tr><td>How do I open it?</td><td>Firewall</td><td>Firewall rules</td></tr>
<tr><td>{long}</td><td>-</td><td>RDP port</td></tr>
<tr><td>What is this?</td><td>-</td><td>Nothing like it</td></tr></table>
<h2>RDP port</h2><p>RDP listens on 3389.</p>
<h2>Firewall rules</h2><p>Allow the port.</p>
<h2>FAQ</h2><p>Questions.</p></article>"""


def test_sections_table_and_queries_of_one_page() -> None:
    article = parse_article(PAGE.format(long="x" * (MAX_QUERY_CHARS + 1)), "ports.html")
    assert [s.heading for s in article.sections] == ["RDP port", "Firewall rules"]
    assert [e.heading for e in article.excluded] == ["FAQ"]
    assert "3389" not in " ".join(s.text for s in article.sections if s.heading != "RDP port")
    queries, rejected = article_queries(article)
    assert [(q.qid, q.relevant, q.same_article, q.match) for q in queries] == [
        ("ports.html#q0", {"ports.html#0": 2}, 1, "exact"),
        ("ports.html#q1", {"ports.html#1": 2}, 1, "exact"),
    ]
    assert [(r.row, r.reason) for r in rejected] == [(2, "too_long"), (3, "unmatched")]
    assert len(rejected[0].query) == MAX_QUERY_CHARS


def test_options_reach_the_stages() -> None:
    article = parse_article(PAGE.format(long="q"), "ports.html", BuildOptions(excluded_headings=[]))
    assert [s.heading for s in article.sections][-1] == "FAQ"
    assert parse_article("<p>no table</p><h2>A</h2><p>b</p>", "t.html").table is None


def test_a_table_longer_than_a_quick_reference_has_its_rows_past_the_cap_rejected() -> None:
    # Issue 16: matching a 40,000-row table took minutes (quadratic); rows past the cap are
    # rejected with their reason, unmatched.
    from qrelsmith import article_queries, parse_article
    from qrelsmith.patterns import QUICKREF_MAX_ROWS

    total = QUICKREF_MAX_ROWS + 5
    headings = "".join(f"<h2 id='s{i}'>Topic {i} explained</h2><p>text {i}</p>" for i in range(50))
    rows = "".join(
        f"<tr><td>Question {i}?</td><td>A</td><td><a href='#s{i % 50}'>Topic {i % 50}</a></td></tr>"
        for i in range(total)
    )
    html = (
        "<article><table><tr><th>Question</th><th>Answer</th><th>Details</th></tr>"
        f"{rows}</table>{headings}</article>"
    )
    article = parse_article(html.encode(), "big.html")
    queries, rejected = article_queries(article)
    assert len(queries) == QUICKREF_MAX_ROWS
    assert [(r.row, r.reason) for r in rejected] == [
        (row, "table_too_long") for row in range(QUICKREF_MAX_ROWS, total)
    ]
