"""LSA as the seed built it: TF-IDF over character n-grams, TruncatedSVD, cosine.

The runs are those of scikit-learn's own pipeline, ``TfidfVectorizer(analyzer="char",
ngram_range=..., max_features=LSA_FEATURES)`` then ``TruncatedSVD(dims,
random_state=LSA_SEED)`` and the cosine of the reduced vectors (with ``text.fold_case`` as the
preprocessor, as every method here reads text). Only the counting is done here, with the
baseline's packed n-grams (n <= 3; scikit-learn's vectorizer for longer ones): it keeps the
same features -- the vocabulary in the strings' order, the LSA_FEATURES most frequent by
scikit-learn's own ``argsort`` of the totals -- at a fraction of CountVectorizer's time and
memory on 100k sections. TF-IDF is scikit-learn's class; the SVD is ``TruncatedSVD``'s own
steps with its sparse products on several threads (``svd``), the same doubles.

The corpus is counted twice, a chunk at a time: once for every n-gram's total, once for the
kept features' counts, so no chunk's n-grams outlive it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from ..config import BaselineOptions
from ..errors import DataError
from ..patterns import LSA_FEATURES, LSA_SEED
from ..text import fold_case
from .ngrams import PACKED_N, packed_counts
from .svd import truncated_svd


def _totals(texts: Sequence[str], ngrams: tuple[int, int]) -> tuple[NDArray[np.int64], Any]:
    """Every n-gram of the texts (packed, sorted) and its total count over them."""
    vocabulary = np.zeros(0, dtype=np.int64)
    totals = np.zeros(0, dtype=np.int64)
    for _, _, _, packed, counts in packed_counts(texts, ngrams, by_ngram=True):
        if not len(packed):
            continue
        heads = np.flatnonzero(np.concatenate([[True], packed[1:] != packed[:-1]]))
        merged = np.concatenate([vocabulary, packed[heads]])
        summed = np.concatenate([totals, np.add.reduceat(counts, heads)])
        vocabulary, where = np.unique(merged, return_inverse=True)
        totals = np.bincount(where, weights=summed, minlength=len(vocabulary)).astype(np.int64)
    return vocabulary, totals


def _counted(
    texts: Sequence[str], ngrams: tuple[int, int], features: NDArray[np.int64]
) -> sparse.csr_matrix:
    """Documents x ``features`` (packed, sorted) counts, as float64 (scikit-learn's dtype)."""
    docs, cols, values = [], [], []
    for _, _, doc, packed, counts in packed_counts(texts, ngrams):
        found = np.searchsorted(features, packed)
        found = np.minimum(found, max(len(features) - 1, 0))
        known = features[found] == packed if len(features) else found < 0
        docs.append(doc[known])
        cols.append(found[known])
        values.append(counts[known])
    doc = np.concatenate(docs) if docs else np.zeros(0, np.int64)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(doc, minlength=len(texts)))])
    return sparse.csr_matrix(
        (
            np.concatenate(values).astype(np.float64) if values else np.zeros(0),
            np.concatenate(cols).astype(np.int32) if cols else np.zeros(0, np.int32),
            indptr,
        ),
        shape=(len(texts), len(features)),
    )


class _PackedCounter:
    """CountVectorizer(analyzer="char", max_features=LSA_FEATURES)'s counts, from packed
    n-grams: ``fit_transform`` for the documents, ``transform`` for queries."""

    def __init__(self, ngrams: tuple[int, int]):
        self.ngrams = ngrams
        self.features = np.zeros(0, dtype=np.int64)

    def fit_transform(self, texts: Sequence[str]) -> sparse.csr_matrix:
        vocabulary, totals = _totals(texts, self.ngrams)
        if len(vocabulary) > LSA_FEATURES:
            # scikit-learn's _limit_features: its float totals, its (unstable) argsort
            kept = (-totals.astype(np.float64)).argsort()[:LSA_FEATURES]
            vocabulary = vocabulary[np.sort(kept)]
        self.features = vocabulary
        return _counted(texts, self.ngrams, vocabulary)

    def transform(self, texts: Sequence[str]) -> sparse.csr_matrix:
        return _counted(texts, self.ngrams, self.features)


def _counter(ngrams: tuple[int, int]) -> Any:
    """The counter of ``ngrams``: packed up to PACKED_N characters, else scikit-learn's."""
    if ngrams[1] <= PACKED_N:
        return _PackedCounter(ngrams)
    from sklearn.feature_extraction.text import CountVectorizer

    return CountVectorizer(
        analyzer="char",
        ngram_range=ngrams,
        preprocessor=fold_case,
        max_features=LSA_FEATURES,
        dtype=np.float64,
    )


class LsaScorer:
    """Cosines of the queries' and the documents' reduced TF-IDF vectors; the SVD's sparse
    products on ``workers`` threads (``svd.truncated_svd``: the same doubles whatever the
    number)."""

    def __init__(self, texts: Sequence[str], options: BaselineOptions, workers: int = 1):
        # imported here: scikit-learn takes ~2 s to import, which every CLI start would pay
        from sklearn.feature_extraction.text import TfidfTransformer
        from sklearn.preprocessing import normalize

        self._counter = _counter(options.ngrams)
        counts = sparse.csr_matrix(self._counter.fit_transform(texts))
        if options.dims >= counts.shape[1]:
            raise DataError(
                f"LSA to {options.dims} dimensions needs more distinct character n-grams than "
                f"that; the sections hold {counts.shape[1]}: give a smaller --dims"
            )
        self._tfidf = TfidfTransformer()
        weighted = sparse.csr_matrix(self._tfidf.fit_transform(counts))
        del counts
        components, reduced = truncated_svd(weighted, options.dims, LSA_SEED, workers)
        del weighted
        # TruncatedSVD.transform's product, a query's TF-IDF @ components.T, given the
        # contiguous copy that scipy's product otherwise makes of it for every batch (61 MB
        # at 30,000 features x 256 dims: ~1,560 copies for 100k queries)
        self._projection = np.ascontiguousarray(components.T)
        self._documents = normalize(reduced).T.copy()
        self._normalize = normalize

    def rows(self, queries: list[str]) -> Iterator[NDArray[np.float64]]:
        from threadpoolctl import threadpool_limits

        counts = sparse.csr_matrix(self._counter.transform(queries), dtype=np.float64)
        weighted = sparse.csr_matrix(self._tfidf.transform(counts))
        reduced = self._normalize(np.asarray(weighted @ self._projection))
        with threadpool_limits(1, "blas"):  # one BLAS thread: the parts are the parallelism
            scores = reduced @ self._documents
        yield from scores
