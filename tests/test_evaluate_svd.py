"""evaluate.svd: the sparse products cut over threads are scipy's to the bit, and so
truncated_svd is scikit-learn's TruncatedSVD to the bit, tall, wide and with fewer rows than
dimensions, on one thread or several."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from qrelsmith.evaluate import svd
from qrelsmith.evaluate.svd import SplitProducts, truncated_svd


def _matrix(rows: int, columns: int, seed: int) -> sparse.csr_matrix:
    """A seeded sparse matrix of positive weights, with an empty row and an empty column, its
    entries' order within each row shuffled (scipy keeps the order it is given)."""
    random = np.random.RandomState(seed)
    dense = random.random_sample((rows, columns)) * (random.random_sample((rows, columns)) < 0.2)
    dense[rows // 2] = 0.0
    dense[:, columns // 3] = 0.0
    matrix = sparse.csr_matrix(dense)
    for row in range(rows):
        low, high = matrix.indptr[row], matrix.indptr[row + 1]
        order = low + random.permutation(high - low)
        matrix.indices[low:high] = matrix.indices[order]
        matrix.data[low:high] = matrix.data[order]
    matrix.has_sorted_indices = False
    return matrix


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_split_products_are_scipy_s_own_to_the_bit(threads: int) -> None:
    """Each part sums whole rows of the result, so both products are scipy's one product's
    doubles whatever the parts (sums of partial products would differ in the last bits)."""
    matrix = _matrix(150, 90, seed=3)
    random = np.random.RandomState(4)
    right, left = random.normal(size=(90, 13)), random.normal(size=(150, 13))
    products = SplitProducts(matrix, threads)
    if threads > 1:
        assert len(products.rows) == len(products.columns) == threads
    assert np.array_equal(products.times(right), matrix @ right)
    assert np.array_equal(products.transposed_times(left), matrix.T @ left)
    # one dense column takes scipy's vector product: still the same doubles
    assert np.array_equal(products.times(right[:, :1]), matrix @ right[:, :1])


def test_a_range_of_columns_keeps_each_row_s_entries_in_their_order() -> None:
    matrix = _matrix(40, 30, seed=5)
    part = svd._columns(matrix, 7, 19)
    assert part.shape == (40, 12)
    for row in range(40):
        entries = slice(matrix.indptr[row], matrix.indptr[row + 1])
        expected = [
            (int(column) - 7, float(value))
            for column, value in zip(matrix.indices[entries], matrix.data[entries], strict=True)
            if 7 <= column < 19
        ]
        got = slice(part.indptr[row], part.indptr[row + 1])
        assert list(zip(part.indices[got].tolist(), part.data[got].tolist(), strict=True)) == (
            expected
        )
    assert any(
        np.any(np.diff(part.indices[part.indptr[r] : part.indptr[r + 1]]) < 0) for r in range(40)
    )


@pytest.mark.parametrize(
    ("rows", "columns", "dims"),
    [(160, 70, 12), (40, 120, 9), (8, 60, 12)],
    ids=["tall", "wide (decomposed transposed)", "fewer rows than dims"],
)
@pytest.mark.parametrize("threads", [1, 2])
def test_truncated_svd_is_scikit_learns_to_the_bit(
    rows: int, columns: int, dims: int, threads: int
) -> None:
    from sklearn.decomposition import TruncatedSVD

    matrix = _matrix(rows, columns, seed=rows)
    svd = TruncatedSVD(dims, random_state=7)
    theirs = svd.fit_transform(matrix)
    components, ours = truncated_svd(matrix, dims, 7, threads)
    assert components.shape == svd.components_.shape == (min(rows, dims), columns)
    assert np.array_equal(components, svd.components_)
    assert np.array_equal(ours, theirs)


def test_without_scipys_private_routines_the_products_run_whole_on_one_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Should a scipy release move ``_sparsetools``, the products are scipy's public ones:
    not cut, the same doubles."""
    monkeypatch.setattr(svd, "_SPARSETOOLS", None)
    matrix = _matrix(60, 40, seed=5)
    dense = np.random.RandomState(6).normal(size=(40, 7))
    products = SplitProducts(matrix, 2)
    assert products.rows == [] and products.columns == []
    assert np.array_equal(products.times(dense), matrix @ dense)
    other = np.random.RandomState(7).normal(size=(60, 7))
    assert np.array_equal(products.transposed_times(other), matrix.T @ other)
