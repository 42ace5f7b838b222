"""Heuristics of check and align, and the multi-column resampling, in isolation."""

from __future__ import annotations

import io

import numpy as np
import pytest

from qrelsmith.evaluate.align import ChunkMapping, chunk_grade, map_chunk
from qrelsmith.evaluate.check import duplicate_pairs, has_no_content
from qrelsmith.evaluate.runs import read_run
from qrelsmith.evaluate.statistics import (
    bootstrap_intervals,
    paired_comparisons,
)
from qrelsmith.store.layout import article_of
from statistics_helpers import bootstrap_interval, paired_comparison


@pytest.mark.parametrize(
    "query",
    [
        "どちらを選ぶか",
        "置くか置かないか",
        "それ",
        "which one",
        "cuál elegir",
        "어느 쪽을 선택할까",
    ],
)
def test_queries_without_content(query: str) -> None:
    assert has_no_content(query)


@pytest.mark.parametrize(
    "query",
    [
        "RDPのポート番号",
        "踏み台を置くか置かないか",
        "Bcc が相手に見えない理由",
        "cómo devolver un pedido",
        "Recall@100의 분모",
        "install docker or not",
    ],
)
def test_queries_with_content(query: str) -> None:
    assert not has_no_content(query)


def test_duplicates_only_across_articles() -> None:
    pairs = duplicate_pairs(
        {
            "a#q0": "RDPのポート番号",
            "b#q0": "RDP の ポート番号？",
            "a#q1": "RDPのポート番号",
            "c#q0": "ssh の鍵を作る",
        }
    )
    assert {(x, y) for x, y, _ in pairs} == {("a#q0", "b#q0"), ("b#q0", "a#q1")}


def test_article_of_query_ids() -> None:
    assert article_of("ja/rdp-port.html#q12") == "ja/rdp-port.html"
    assert article_of("example.com/a#b#q0") == "example.com/a#b"


def test_align_grade_rule() -> None:
    sections = [
        ("s0", "見出しA\n" + "あ" * 5 + "一二三四五六七八九十" * 3),
        ("s1", "見出しB\n" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" * 4),
    ]
    # 30 chars of s0 and 104 of s1: mostly s1, covers most of s0 too
    both = map_chunk(
        "c", "一二三四五六七八九十" * 3 + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" * 4, "a", sections
    )
    assert both.main_section == "s1" and both.reason is None
    assert chunk_grade(both, {"s0": 2, "s1": 1}) == 2  # covers >= half of the answer section
    corner = map_chunk(
        "c", "一二三四五六七八九十" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" * 4, "a", sections
    )
    assert chunk_grade(corner, {"s0": 2, "s1": 1}) == 1  # a corner of the answer section
    stray = map_chunk("c", "nothing like the article at all", "a", sections)
    assert stray.reason is not None and "0%" in stray.reason
    assert chunk_grade(ChunkMapping(id="x", share={}, cover={}), {"s0": 2}) == 1


def test_run_from_a_stream_with_ties_and_duplicates() -> None:
    run = read_run(io.StringIO("q Q0 a 1 1.0 t\nq Q0 b 2 1.0 t\nq Q0 a 3 0.5 t\n"))
    assert run == {"q": [("b", 1.0), ("a", 1.0)]}


def test_columns_are_resampled_independently_of_each_other() -> None:
    rng = np.random.default_rng(5)
    matrix = rng.random((120, 3))
    together = bootstrap_intervals(matrix, 1000, seed=7)
    for column in range(3):
        alone = bootstrap_interval(matrix[:, column], 1000, seed=7)
        assert together[column].model_dump() == pytest.approx(alone.model_dump())
    other = rng.random((120, 3))
    paired = paired_comparisons(
        ["x", "y", "z"], "a", "b", matrix, other, samples=500, rounds=500, seed=3
    )
    alone = paired_comparison(
        "y", "a", "b", matrix[:, 1], other[:, 1], samples=500, rounds=500, seed=3
    )
    assert paired[1].p_value == alone.p_value
    assert [paired[1].diff, paired[1].low, paired[1].high] == pytest.approx(
        [alone.diff, alone.low, alone.high]
    )
