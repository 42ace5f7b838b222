"""TREC runs read: the fast reader of files in the usual form gives what the line reader
gives, and leaves every other file to it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qrelsmith.evaluate.runs import canonical_run, read_run, run_by_lines

QIDS = st.sampled_from(["q1", "q2", "a/b.html#q0", "q10"])
DOCS = st.sampled_from(["d1", "d2", "d3", "x.html#1", "x.html#10", "ｄ４"])
# few distinct scores: ties are frequent; written as runs write them, or shorter
SCORES = st.sampled_from(["1.000000", "0.5", "0.500000", "2", "-0.25", "1e-3", "0.001"])
LINE = st.tuples(QIDS, DOCS, st.integers(1, 99), SCORES)


def run_text(lines: list[tuple[str, str, int, str]]) -> str:
    return "".join(f"{q} Q0 {d} {rank} {score} tag\n" for q, d, rank, score in lines)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE, max_size=40))
def test_the_fast_reader_reads_what_the_line_reader_reads(
    lines: list[tuple[str, str, int, str]],
) -> None:
    text = run_text(lines)
    expected = run_by_lines(text, "run")
    found = canonical_run(text)
    if len({(q, d) for q, d, _, _ in lines}) < len(lines):
        assert found is None  # a repeated document: the line reader warns of it
        return
    assert found == expected
    assert list(found) == list(expected)  # the queries in the order they come
    assert canonical_run(text.rstrip("\n")) == expected  # no break after the last line


def test_other_files_go_to_the_line_reader(tmp_path: object) -> None:
    ordered = "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\n"
    assert canonical_run(ordered) == {"q1": [("d1", 2.0), ("d2", 1.0)]}
    for text in (
        ordered.replace(" ", "\t"),  # tabs
        ordered.replace("\n", "\r\n"),  # Windows line breaks
        "\n" + ordered,  # a blank line
        ordered.replace("d2 2", "d2  2"),  # two spaces
        ordered + "q1 Q0 d3 3 nan t\n",  # a score no finite number
        ordered + "q1 Q0 d3 3 x t\n",  # a score no number
        ordered + "q1 Q0 d3 3\n",  # a short line
    ):
        assert canonical_run(text) is None, text
    assert run_by_lines(ordered.replace(" ", "\t"), "run") == canonical_run(ordered)


def test_a_repeated_document_is_warned_of_through_either_path() -> None:
    said: list[str] = []
    import io

    run = read_run(io.StringIO("q1 Q0 d1 1 2.0 t\nq1 Q0 d1 2 1.0 t\n"), said.append)
    assert run == {"q1": [("d1", 2.0)]}
    assert len(said) == 1 and "1 lines repeat" in said[0] and "(line 2)" in said[0]
