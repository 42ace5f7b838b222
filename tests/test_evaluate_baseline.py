"""The baseline's numpy n-gram index: the same runs as scikit-learn's vectorizers, to the byte,
and the documented order of ties."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from qrelsmith.config import BaselineOptions
from qrelsmith.evaluate import baseline, ngrams
from qrelsmith.evaluate.baseline import RetrievalIndex
from qrelsmith.evaluate.ngrams import packed_counts, prepare
from qrelsmith.evaluate.runs import write_lines, write_run

TEXTS = [
    "RDPのポート番号3389（TCPとUDP）と ss での確かめ方",
    "Bcc が相手に見えない理由\n\n\tTo・Cc・Bcc の違い",
    "You may need an appropriate   loader to handle this file type",
    "ＡＢＣ全角と半角 abc ABC の正規化",
    "emoji 🙂 outside the BMP 🙂🙂 and ß straße STRASSE",
    "x",
    "",
    "ポート番号 port number 3389 remote desktop",
    "ポート番号 port number 3389 remote desktop",  # a duplicate: ties by id
    "데스크톱 원격 포트 번호 확인하는 방법",
]
QUERIES = {
    "q0": "RDPのポート番号",
    "q1": "Bcc  見えない",
    "q2": "appropriate loader",
    "q3": "abc",
    "q4": "🙂 strasse",
    "q5": "포트 번호",
    "q6": "zz",
    "q7": "",
}


def written(options: BaselineOptions, *, packed: bool) -> str:
    ids = [f"d{i:02d}" for i in range(len(TEXTS))]
    index = RetrievalIndex(ids, TEXTS, options, packed=packed)
    out = io.StringIO()
    write_run(out, index.search(QUERIES, 5), "t")
    return out.getvalue()


@pytest.mark.parametrize("ngrams", [(2, 3), (2, 2), (3, 3), (1, 3), (1, 1)])
@pytest.mark.parametrize("b", [0.75, 0.0])
def test_packed_index_writes_scikit_learns_run(ngrams: tuple[int, int], b: float) -> None:
    options = BaselineOptions(ngrams=ngrams, b=b)
    packed = written(options, packed=True)
    assert packed == written(options, packed=False)
    assert packed.count("\n") > 5


@pytest.mark.parametrize(("chunk_chars", "ranges"), [(40, 8), (40, 1), (1, 3), (10**6, 5)])
def test_the_index_is_the_same_however_cut_in_chunks_and_ranges(
    monkeypatch: pytest.MonkeyPatch, chunk_chars: int, ranges: int
) -> None:
    """Chunks of a few texts (later ones hold n-grams outside the ranges drawn from the
    first) and any number of ranges fill the same matrix, and write scikit-learn's run."""
    options = BaselineOptions()
    whole = RetrievalIndex([f"d{i:02d}" for i in range(len(TEXTS))], TEXTS, options)
    monkeypatch.setattr(ngrams, "CHUNK_CHARS", chunk_chars)
    monkeypatch.setattr(baseline, "RANGES", ranges)
    cut = RetrievalIndex([f"d{i:02d}" for i in range(len(TEXTS))], TEXTS, options)
    first, second = whole.scorer.matrix, cut.scorer.matrix
    assert first.shape == second.shape and first.nnz == second.nnz > 100
    for name in ("data", "indices", "indptr"):
        assert np.array_equal(getattr(first, name), getattr(second, name))
    assert written(options, packed=True) == written(options, packed=False)


def test_counts_by_ngram_are_the_same_counts_sorted_by_ngram_then_document() -> None:
    texts = [prepare(t) for t in TEXTS]
    (_, _, doc, packed, counts), *_ = list(packed_counts(texts, (1, 3)))
    (_, _, doc2, packed2, counts2), *_ = list(packed_counts(texts, (1, 3), by_ngram=True))
    by_doc = list(zip(doc.tolist(), packed.tolist(), counts.tolist(), strict=True))
    by_ngram = list(zip(doc2.tolist(), packed2.tolist(), counts2.tolist(), strict=True))
    assert by_ngram == sorted(by_doc, key=lambda entry: (entry[1], entry[0]))
    assert by_doc == sorted(by_doc)


def test_counts_are_the_ngrams_of_the_prepared_text() -> None:
    texts = ["ab  ab\tc", "ＡＢ"]
    assert [prepare(t) for t in texts] == ["ab ab\tc", "ab"]
    (start, end, doc, packed, counts), *_ = list(packed_counts(texts, (2, 2)))
    assert (start, end) == (0, 2)

    def unpack(key: int) -> str:
        chars = [(key >> shift) & ((1 << 21) - 1) for shift in (42, 21, 0)]
        return "".join(chr(c - 1) for c in chars if c)

    found = {(int(d), unpack(int(k))): int(c) for d, k, c in zip(doc, packed, counts, strict=True)}
    assert found == {(0, "ab"): 2, (0, "b "): 1, (0, " a"): 1, (0, "b\t"): 1, (0, "\tc"): 1,
                     (1, "ab"): 1}  # fmt: skip
    # sorted by document, then by the n-grams' string order
    keys = [unpack(int(k)) for d, k in zip(doc, packed, strict=True) if d == 0]
    assert keys == sorted(keys)


def test_ties_at_the_cut_keep_the_larger_ids_in_trec_eval_order() -> None:
    ids = [f"s{i}" for i in range(10)]
    index = RetrievalIndex(ids, ["same words here"] * 10, BaselineOptions())
    ranked = index.search({"q": "same words"}, 3)["q"]
    assert [doc for doc, _ in ranked] == ["s9", "s8", "s7"]
    assert len({score for _, score in ranked}) == 1


def test_a_corpus_without_ngrams_retrieves_nothing() -> None:
    index = RetrievalIndex(["a", "b"], ["x", ""], BaselineOptions())
    assert index.search({"q": "xy"}, 5) == {"q": []}


def test_scores_are_rounded_as_written() -> None:
    # 2.5e-6 is written 0.000003, 3.5e-6 0.000003 (the doubles are just above and below the
    # half), though rint(x * 1e6) makes them 2 and 4 millionths
    scores = np.array([[2.5e-6, 3.5e-6, 2.5e-7, 1.2345675, 3.0e-6]])
    index = RetrievalIndex(list("abcde"), ["ab"] * 5, BaselineOptions())
    ranked = index._top(scores, 5)[0]
    # what Python's round and string order say: score as written down, then id down
    expected = sorted(
        ((doc, round(float(x), 6)) for doc, x in zip("abcde", scores[0], strict=True)),
        key=lambda item: (-item[1], [-ord(c) for c in item[0]]),
    )
    assert ranked == expected
    assert [doc for doc, _ in ranked] == ["d", "e", "b", "a", "c"]


def _brute_force(ids: list[str], row: np.ndarray, k: int) -> list[tuple[str, float]]:
    ranked = sorted(
        ((doc, round(float(x), 6)) for doc, x in zip(ids, row, strict=True) if x > 0),
        key=lambda item: (-item[1], [-ord(c) for c in item[0]] + [0]),
    )
    return ranked[:k]


def test_top_k_is_the_full_sort_of_every_document() -> None:
    rng = np.random.default_rng(3)
    ids = [f"a{i % 7}.html#{i}" for i in range(300)]
    index = RetrievalIndex(ids, ["ab"] * len(ids), BaselineOptions())
    # many ties and near-ties of the written value, zeros, and rows with few positives
    scores = np.round(rng.random((12, 300)) * 3, int(rng.integers(1, 8)))
    scores += rng.choice([0.0, 1e-7, 4e-7], scores.shape)
    scores[3, 10:] = 0.0
    scores[4] = 0.0
    for k in (1, 5, 100, 300, 500):
        got = index._top(scores, k)
        assert got == [_brute_force(ids, row, k) for row in scores]


def test_a_near_tie_below_the_bound_still_wins_by_id() -> None:
    index = RetrievalIndex(["a", "b"], ["ab", "ab"], BaselineOptions())
    # both are written 1.000000; "b" sorts first though its raw score is lower
    assert index._top(np.array([[1.0000001, 1.0]]), 1) == [[("b", 1.0)]]


def _many_queries() -> tuple[RetrievalIndex, dict[str, str]]:
    rng = np.random.default_rng(5)
    alphabet = list("あいうえおかきくけこさしすせそabcdef")
    texts = ["".join(rng.choice(alphabet, int(rng.integers(5, 60)))) for _ in range(120)]
    ids = [f"p{i % 9}.html#{i}" for i in range(len(texts))]
    index = RetrievalIndex(ids, texts, BaselineOptions())
    # more than three batches, so both processes get several; qids not in sorted order
    queries = {f"q{(i * 37) % 1000}": texts[int(rng.integers(0, 120))][3:9] for i in range(230)}
    return index, queries


def test_two_workers_give_the_one_process_results_in_query_order() -> None:
    index, queries = _many_queries()
    alone = list(index.iter_search(queries, 10, workers=1))
    assert [qid for qid, _ in alone] == list(queries)
    for workers in (2, 3, 8):  # 8 asks more parts than there are batches: 3 are made
        assert list(index.iter_search(queries, 10, workers=workers)) == alone
    assert sum(1 for _, ranked in alone if ranked) > 200  # the queries find something


def test_run_lines_formatted_in_each_process_are_write_runs_bytes() -> None:
    index, queries = _many_queries()
    expected = io.StringIO()
    lines = write_run(expected, index.iter_search(queries, 10, workers=1), "t")
    for workers in (1, 2, 3):
        written = io.StringIO()
        assert write_lines(written, index.iter_lines(queries, 10, "t", workers)) == lines
        assert written.getvalue() == expected.getvalue()
    assert lines > 2000


def test_a_run_is_the_same_bytes_whatever_the_workers(tmp_path: Path) -> None:
    from qrelsmith.cli import main

    site = Path(__file__).parent.parent / "samples" / "site"
    out = tmp_path / "build"
    assert main(["build", str(site), "--out", str(out), "-q", "--workers", "1"]) == 0
    runs = []
    for workers in ("1", "2"):
        target = tmp_path / f"run{workers}.trec"
        assert main(["baseline", str(out), "--out", str(target), "-j", workers]) == 0
        runs.append(target.read_bytes())
    assert runs[0] == runs[1] and len(runs[0].splitlines()) > 1000  # 87 queries: two batches


def test_a_chunk_too_large_for_one_key_is_counted_in_halves_in_either_order() -> None:
    """8,000 texts over 90,000 code points: (document, n-gram) cannot be one 63-bit key, so
    the chunk is counted in halves, and the halves merged keep either order."""
    alphabet = [chr(0x4E00 + i) for i in range(20_000)] + [chr(0x20000 + i) for i in range(70_000)]
    texts = [
        "".join(alphabet[(i * 12 + j) % len(alphabet)] for j in range(12)) for i in range(8000)
    ]
    doc, packed, counts = ngrams._packed_chunk(texts, (1, 3))
    doc2, packed2, counts2 = ngrams._packed_chunk(texts, (1, 3), by_ngram=True)
    by_doc = np.stack([doc, packed, counts], axis=1)
    by_ngram = np.stack([doc2, packed2, counts2], axis=1)
    assert len(by_doc) == 8000 * (12 + 11 + 10)
    assert np.array_equal(by_doc, by_doc[np.lexsort((by_doc[:, 1], by_doc[:, 0]))])
    assert np.array_equal(by_ngram, by_doc[np.lexsort((by_doc[:, 0], by_doc[:, 1]))])


def test_rows_are_the_sparse_products_doubles() -> None:
    """Each document's weights are added in the product's order (its terms' order), so the
    rows are the product's doubles, not merely close to them."""
    rng = np.random.default_rng(11)
    alphabet = list("あいうえおかきくけこさしすせそたちつてとabcdefgh")
    texts = ["".join(rng.choice(alphabet, int(rng.integers(20, 400)))) for _ in range(400)]
    index = RetrievalIndex([f"d{i}" for i in range(len(texts))], texts, BaselineOptions())
    queries = ["".join(rng.choice(alphabet, int(rng.integers(0, 40)))) for _ in range(150)]
    rows = np.array(list(index.scorer.rows(queries)))
    product = index.scorer.score(queries).toarray()
    assert rows.shape == product.shape and (product > 0).sum() > 10_000
    assert np.array_equal(rows, product)
