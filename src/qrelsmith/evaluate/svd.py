"""scikit-learn's ``TruncatedSVD`` (randomized, its defaults) with its sparse products shared
out over threads: the same steps on the same doubles, so the same result to the bit.

``TruncatedSVD(dims, random_state=seed).fit_transform(matrix)`` runs scikit-learn's randomized
range finder: a seeded normal start, POWER_ITERATIONS power iterations normalised by LU, a QR,
then the SVD of the small projected matrix. At 100k sections most of its time is 13 products
of the sparse matrix (or its transpose) with a dense block, which scipy computes on one
thread. Here each product is cut into parts of whole result rows, one part per thread
(scipy's sparse products release the GIL): a result row is summed by the same routine over
the same entries in the same order, whatever the parts, so it is the same double. ``M @ X``
(CSR) is cut by rows of ``M``; ``M.T @ X`` (CSC, its result rows are ``M``'s columns) by
ranges of ``M``'s columns, each a CSR copy whose transpose is summed as the whole one is.
The dense steps (LU, QR, the small SVD) are scipy's, on BLAS's own threads, as in
scikit-learn; ``tests/test_evaluate_svd.py`` holds the result equal to scikit-learn's.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import linalg, sparse

#: TruncatedSVD's defaults (n_oversamples, n_iter), which the study's LSA ran with: the
#: random start has dims + OVERSAMPLES columns, refined by POWER_ITERATIONS LU-normalised
#: rounds.
OVERSAMPLES = 10
POWER_ITERATIONS = 5


#: scipy's sparse routines, which its products call: here each is called on a part of the
#: matrix, writing into its rows of the result (no copy of a part, no part's result copied).
#: They are private to scipy: should a release move them, the products run on one thread
#: through scipy's public ``@`` (the same doubles, only slower).
def _sparsetools() -> Any:
    try:
        module = importlib.import_module("scipy.sparse._sparsetools")
    except ImportError:
        return None
    wanted = ("csr_matvecs", "csc_matvecs")
    return module if all(hasattr(module, name) for name in wanted) else None


_SPARSETOOLS: Any = _sparsetools()


def _cuts(weights: NDArray[Any], parts: int) -> list[int]:
    """Bounds of ``parts`` consecutive ranges of ``weights`` of about equal sums."""
    total = np.concatenate([[0], np.cumsum(weights)])
    bounds = np.searchsorted(total, np.arange(1, parts) * total[-1] / parts)
    return [0, *np.unique(bounds).tolist(), len(weights)]


class SplitProducts:
    """``matrix @ dense`` and ``matrix.T @ dense`` of a CSR float64 ``matrix`` (no duplicate
    entries) on ``threads`` threads, each part computing whole rows of the result: the
    doubles of scipy's one product. With two threads or more, each part is summed by the
    routine scipy's product calls (``csr_matvecs``, ``csc_matvecs``: the result's rows,
    zeroed, each adding its entries' terms in their stored order) straight into its rows of
    the result. ``M @ X`` is cut into ranges of ``M``'s rows of about as many entries (read
    in place); ``M.T @ X`` into ranges of ``M``'s columns, each a CSR copy of those columns
    (one copy of ``matrix`` in all), read as the CSC of its transpose: a column's entries in
    row order, as the whole one sums them."""

    def __init__(self, matrix: sparse.csr_matrix, threads: int):
        if matrix.dtype != np.float64:
            raise ValueError(f"the products are of float64 matrices, not {matrix.dtype}")
        self.matrix = matrix
        self.shape: tuple[int, int] = matrix.shape
        self.threads = max(1, threads)
        self.rows: list[tuple[int, int]] = []
        self.columns: list[tuple[int, int, sparse.csr_matrix]] = []
        if self.threads < 2 or _SPARSETOOLS is None:
            return
        self.rows = _pairs(_cuts(np.diff(matrix.indptr), self.threads))
        per_column = np.bincount(matrix.indices, minlength=self.shape[1])
        for low, high in _pairs(_cuts(per_column, self.threads)):
            self.columns.append((low, high, _columns(matrix, low, high)))

    def times(self, dense: NDArray[np.float64]) -> NDArray[np.float64]:
        """``matrix @ dense``."""
        if not self.rows:
            return np.asarray(self.matrix @ dense)
        matrix = self.matrix

        def rows(low: int, high: int, read: NDArray[np.float64], out: NDArray[np.float64]) -> None:
            _SPARSETOOLS.csr_matvecs(
                high - low, self.shape[1], read.shape[1], matrix.indptr[low : high + 1],
                matrix.indices, matrix.data, read.ravel(), out[low:high].ravel(),
            )  # fmt: skip

        return self._joined([(low, high, rows) for low, high in self.rows], dense, self.shape[0])

    def transposed_times(self, dense: NDArray[np.float64]) -> NDArray[np.float64]:
        """``matrix.T @ dense``."""
        if not self.columns:
            return np.asarray(self.matrix.T @ dense)
        docs = self.shape[0]
        parts = []
        for low, high, block in self.columns:

            def columns(
                low: int,
                high: int,
                read: NDArray[np.float64],
                out: NDArray[np.float64],
                block: sparse.csr_matrix = block,
            ) -> None:
                _SPARSETOOLS.csc_matvecs(
                    high - low, docs, read.shape[1], block.indptr, block.indices, block.data,
                    read.ravel(), out[low:high].ravel(),
                )  # fmt: skip

            parts.append((low, high, columns))
        return self._joined(parts, dense, self.shape[1])

    def _joined(
        self,
        parts: list[tuple[int, int, Callable[..., None]]],
        dense: NDArray[np.float64],
        rows: int,
    ) -> NDArray[np.float64]:
        """Each part summed on a thread into its rows of the zeroed result; ``dense`` read as
        scipy's product reads it (C order)."""
        read = np.ascontiguousarray(dense, dtype=np.float64)
        out = np.zeros((rows, read.shape[1]), dtype=np.float64)
        with ThreadPoolExecutor(self.threads) as pool:
            list(pool.map(lambda part: part[2](part[0], part[1], read, out), parts))
        return out


def _columns(matrix: sparse.csr_matrix, low: int, high: int) -> sparse.csr_matrix:
    """``matrix[:, low:high]``, each row's entries in their order, built with one mask (scipy's
    slicing holds several arrays of every entry at once: ~1.4 GB at 100k sections)."""
    kept = (matrix.indices >= low) & (matrix.indices < high)
    before = np.zeros(len(kept) + 1, dtype=matrix.indptr.dtype)  # entries kept before each
    np.cumsum(kept, dtype=before.dtype, out=before[1:])
    return sparse.csr_matrix(
        (matrix.data[kept], matrix.indices[kept] - low, before[matrix.indptr]),
        shape=(matrix.shape[0], high - low),
        copy=False,
    )


def _pairs(bounds: list[int]) -> list[tuple[int, int]]:
    return list(zip(bounds, bounds[1:], strict=False))


def truncated_svd(
    matrix: sparse.csr_matrix, dims: int, seed: int, threads: int = 1
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``TruncatedSVD(dims, random_state=seed)`` fitted to ``matrix`` (CSR, float64): (its
    ``components_``, its ``fit_transform(matrix)``), the sparse products on ``threads``
    threads. As there, a matrix wider than tall is decomposed transposed, and with fewer
    rows than ``dims`` there are as many components as rows."""
    from sklearn.utils.extmath import svd_flip

    products = SplitProducts(matrix, threads)
    transpose = matrix.shape[0] < matrix.shape[1]
    forward: Callable[[NDArray[np.float64]], NDArray[np.float64]] = products.times
    backward: Callable[[NDArray[np.float64]], NDArray[np.float64]] = products.transposed_times
    if transpose:
        forward, backward = backward, forward
    width = dims + OVERSAMPLES
    start = np.random.RandomState(seed)
    basis = start.normal(size=(matrix.shape[0] if transpose else matrix.shape[1], width))
    # scikit-learn's LU and QR steps, factorising the product in place (it copies it first:
    # the same doubles, 213 MB more at 100k sections)
    for _ in range(POWER_ITERATIONS):
        basis, _ = linalg.lu(forward(basis), permute_l=True, overwrite_a=True, check_finite=False)
        basis, _ = linalg.lu(backward(basis), permute_l=True, overwrite_a=True, check_finite=False)
    basis, _ = linalg.qr(forward(basis), mode="economic", overwrite_a=True, check_finite=False)
    # scikit-learn's basis.T @ M, which scipy computes as (M.T @ basis).T
    small = backward(basis).T
    u_small, _, vt = linalg.svd(small, full_matrices=False, lapack_driver="gesdd")
    del small
    u = basis @ u_small
    if transpose:
        u, vt = vt[:dims].T, u[:, :dims].T
    else:
        u, vt = u[:, :dims], vt[:dims]
    _, components = svd_flip(u, vt, u_based_decision=False)
    return components, products.times(components.T)
