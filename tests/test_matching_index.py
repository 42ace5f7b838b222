"""matching/index.py: the one way to build a HeadingIndex, and what every builder gives it."""

from __future__ import annotations

from matching_helpers import index_of, page
from qrelsmith import parse_article
from qrelsmith.config import BuildOptions
from qrelsmith.evaluate.check import heading_index
from qrelsmith.labelling.matching import Form, HeadingIndex, SectionHeadings
from qrelsmith.page.article import heading_outline
from qrelsmith.page.parse import parse_html


def test_positions_count_every_heading_and_headings_of_no_text_are_left_out() -> None:
    index = HeadingIndex(
        [
            SectionHeadings("a#0", ("Install", " ", "Check")),
            SectionHeadings("a#1", ("FAQ",), excluded=True),
        ]
    )
    assert [(t.target_id, t.heading, t.top, t.excluded, t.position) for t in index.targets] == [
        ("a#0", "Install", True, False, 0),
        ("a#0", "Check", False, False, 2),
        ("a#1", "FAQ", True, True, 3),
    ]
    assert [f.key for f in index.forms] == [t.key for t in index.targets]
    assert index.by_key == {"install": [0], "check": [1], "faq": [2]}
    assert index.section_keys == ["install", "install", "faq"]


def test_between_reads_positions_not_places_in_the_list_of_targets() -> None:
    """A heading of no text takes a position but no target: the sections between two
    positions are those whose headings lie there, not the targets at those list places."""
    index = HeadingIndex(
        [
            SectionHeadings("a#0", (" ",)),  # position 0, no target
            SectionHeadings("a#1", ("Install",)),  # 1
            SectionHeadings("a#2", ("Check", "Details")),  # 2, 3
            SectionHeadings("a#3", ("Remove",)),  # 4
        ]
    )
    assert index.between(1, 1) == {"a#1"}
    assert index.between(2, 3) == {"a#2"}
    assert index.between(1, 4) == {"a#1", "a#2", "a#3"}
    assert index.between(0, 0) == set()


def test_from_article_indexes_sections_subheadings_excluded_ones_and_anchors() -> None:
    article = parse_article(
        '<article><h2 id="i">Install</h2><p>a <span id="x">b</span></p><h3>Check</h3><p>c</p>'
        "<h2>FAQ</h2><p>d</p><h2>Deploy</h2><p>e</p></article>",
        "p.html",
    )
    index = HeadingIndex.from_article(article)
    assert [(t.target_id, t.heading, t.top, t.excluded) for t in index.targets] == [
        ("p.html#0", "Install", True, False),
        ("p.html#0", "Check", False, False),
        ("p.html#1", "FAQ", True, True),
        ("p.html#2", "Deploy", True, False),
    ]
    assert index.anchors == {"i": "p.html#0", "x": "p.html#0"}


def test_every_builder_gives_the_index_the_same_headings() -> None:
    html = (
        "<article><h2>Install</h2><p>a</p><h3>Check</h3><p>b</p><h2>Deploy</h2><p>c</p></article>"
    )
    article = parse_article(html, "p.html")
    outline = heading_outline(parse_html(html, BuildOptions()).root, "p.html", BuildOptions())
    assert outline.targets == HeadingIndex.from_article(article).targets
    flat = page("Install", "Deploy")
    corpus = heading_index([(s.id, s.heading) for s in flat.sections])
    assert corpus.targets == HeadingIndex.from_article(flat).targets


def test_lookups() -> None:
    index = index_of("Install", "- Check", "Configure", "Deploy")
    assert index.section_target("p#1") == index.targets[2]
    assert index.section_target("p#9") is None
    assert index.between(1, 2) == {"p#0", "p#1"}
    assert index.ranked([(0.2, 0), (0.5, 1), (0.5, 3), (0.1, 2)]) == [(0.5, 1), (0.5, 3), (0.1, 2)]


def test_similarity_weighs_rare_words_over_shared_ones() -> None:
    index = index_of("Configurar la caché", "Configurar el servidor", "Configurar el proxy")
    scores = [index.similarity(Form("la caché"), i)[0] for i in range(3)]
    assert scores[0] > max(scores[1:])
    score, recall = index.similarity(Form("Configurar la caché"), 0)
    assert recall == 1.0 and score > 0.99
