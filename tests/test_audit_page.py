"""audit/page.py: a section's text cut at its sub-headings for the review page, the answer's
span as pieces of those parts (UTF-16 offsets, as the page's script slices), and the sub-heading
a reference names."""

from __future__ import annotations

import pytest

from qrelsmith.audit.page import (
    evidence_view,
    js_length,
    named_part,
    named_parts,
    section_view,
    span_marks,
    text_parts,
)
from qrelsmith.models import CorpusRecord, SubHeading


def record(text: str, *subheadings: tuple[str, int], heading: str = "Top") -> CorpusRecord:
    """A section of ``text`` whose sub-headings are the given (text, level), found in order."""
    placed, start = [], 0
    for sub, level in subheadings:
        at = text.index(sub, start)
        placed.append(SubHeading(at=at, level=level, text=sub))
        start = at + len(sub)
    return CorpusRecord(
        id="a.html#2", article_id="a.html", path="a.html", title="T", heading=heading,
        subheadings=placed, text=text,
    )  # fmt: skip


def shown(section: CorpusRecord) -> list[tuple[int, str]]:
    return [(level, section.text[low:high]) for level, low, high in text_parts(section)]


def test_a_section_without_sub_headings_is_one_part() -> None:
    assert shown(record("Just text.")) == [(0, "Just text.")]
    assert shown(record("")) == []


def test_sub_headings_at_the_start_at_the_end_and_adjacent_give_no_empty_parts() -> None:
    section = record("Setup Install it. Linux macOS Run it. Notes", ("Setup", 3), ("Linux", 3),
                     ("macOS", 4), ("Notes", 3))  # fmt: skip
    assert shown(section) == [
        (3, "Setup"),
        (0, "Install it."),
        (3, "Linux"),
        (4, "macOS"),
        (0, "Run it."),
        (3, "Notes"),
    ]
    assert section_view(section) == {
        "id": "a.html#2",
        "n": "2",
        "heading": "Top",
        "parts": [[3, "Setup"], [0, "Install it."], [3, "Linux"], [4, "macOS"], [0, "Run it."],
                  [3, "Notes"]],
    }  # fmt: skip


def test_a_sub_heading_that_is_not_where_it_says_stays_in_the_text() -> None:
    section = record("Intro Sub body", ("Sub", 3))
    moved = section.model_copy(update={"subheadings": [SubHeading(at=2, level=3, text="Sub")]})
    assert shown(moved) == [(0, "Intro Sub body")]
    twice = section.subheadings * 2  # the second one overlaps the first
    assert shown(section.model_copy(update={"subheadings": twice})) == shown(section)


def test_a_span_crossing_a_sub_heading_start_is_marked_in_each_part_it_crosses() -> None:
    text = "The agent 🚀 talks. Stop it first. Agent settings port 8443 is the default."
    section = record(text, ("Agent settings", 3))
    start = text.index("Stop")
    end = len(text)
    parts = text_parts(section)
    marks = span_marks(text, parts, start, end)
    # the rocket counts two UTF-16 units in the first part's offsets
    assert marks == [[0, 20, 34], [1, 0, 14], [2, 0, 25]]
    pieces = [section_view(section)["parts"][n][1] for n, _, _ in marks]  # type: ignore[index]
    # the page's slices, in UTF-16 units, give the span's pieces
    sliced = [
        piece.encode("utf-16-le")[2 * low : 2 * high].decode("utf-16-le")
        for piece, (_, low, high) in zip(pieces, marks, strict=True)
    ]
    assert " ".join(sliced) == text[start:end]
    assert evidence_view(section, start, end) == {
        "section": "a.html#2",
        "marks": marks,
        "under": None,
    }
    # starting inside the sub-heading's text: under it
    inside = text.index("settings")
    assert evidence_view(section, inside, end)["under"] == 1
    assert evidence_view(section, inside, end)["marks"] == [[1, 6, 14], [2, 0, 25]]
    # starting in the text after it, with an astral character in the span
    after = record("Head Sub a 🙂 b", ("Sub", 4))
    view = evidence_view(after, after.text.index("a 🙂"), len(after.text))
    assert view == {"section": "a.html#2", "marks": [[2, 0, 6]], "under": 1}
    assert js_length("a 🙂 b") == 6


def test_a_span_in_the_spaces_between_parts_marks_nothing() -> None:
    section = record("Body Sub more", ("Sub", 3))
    assert span_marks(section.text, text_parts(section), 4, 5) == []
    assert evidence_view(section, 4, 5)["under"] is None


@pytest.mark.parametrize(
    ("reference", "named"),
    [
        ("Agent settings", 1),  # exact: the H3 (part 1, after the text before it)
        ("agent SETTINGS", 1),
        ("Changing the agent's port", None),  # the section's own heading
        ("Agent", 1),  # contained in the H3 alone ("agent's" is another word)
        ("Something else entirely", None),
        ("", None),
    ],
)
def test_the_sub_heading_a_reference_names(reference: str, named: int | None) -> None:
    section = record(
        "Stop it first. Agent settings port 8443.",
        ("Agent settings", 3),
        heading="Changing the agent's port",
    )
    assert named_part(reference, section, text_parts(section)) == named
    assert named_parts(reference, [section]) == ({} if named is None else {section.id: named})
