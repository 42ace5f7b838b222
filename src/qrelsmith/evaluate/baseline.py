"""A character n-gram baseline retriever: BM25 or TF-IDF over the corpus sections.

Text is NFKC-normalised and case-folded (``text.fold_case``), then cut into character n-grams
(2 and 3 by default), so Japanese, Korean and Chinese need no tokenizer. Counting is
scikit-learn's CountVectorizer; BM25 weights are computed once on its sparse document-term
matrix and a batch of queries is scored with one sparse product, so there is no Python loop
over documents or terms.

Why scikit-learn and not bm25s: it is already a dependency (bm25s would be a new one), its
``analyzer="char"`` gives the n-grams directly, and the sparse product is as fast as bm25s at
this size (a few thousand sections). The BM25 here is Lucene's (idf = ln(1 + (N - df + 0.5) /
(df + 0.5))), with each distinct query n-gram counted once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
from scipy import sparse

from ..config import BaselineOptions
from ..models import CorpusRecord
from ..text import fold_case
from .runs import Run

#: Queries scored per sparse product: bounds the dense score block at BATCH x sections.
BATCH = 512


def parse_ngrams(value: str) -> tuple[int, int]:
    """``"2-3"`` -> (2, 3); ``"2"`` -> (2, 2)."""
    low, _, high = value.partition("-")
    try:
        pair = (int(low), int(high or low))
    except ValueError as exc:
        raise ValueError(f"n-gram range must look like 2-3, not {value!r}") from exc
    if pair[0] < 1 or pair[1] < pair[0]:
        raise ValueError(f"n-gram range must look like 2-3, not {value!r}")
    return pair


class CharNgramIndex:
    """A retrieval index over (id, text) documents."""

    def __init__(self, doc_ids: Sequence[str], texts: Sequence[str], options: BaselineOptions):
        # imported here: scikit-learn takes ~2 s to import, which every CLI start would pay
        from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

        self.doc_ids = list(doc_ids)
        self.options = options
        self._score: Callable[[list[str]], sparse.csr_matrix]
        if options.method == "bm25":
            self._vectorizer: CountVectorizer | TfidfVectorizer = CountVectorizer(
                analyzer="char",
                ngram_range=options.ngrams,
                preprocessor=fold_case,
                dtype=np.float64,
            )
            counts = sparse.csr_matrix(self._vectorizer.fit_transform(texts), dtype=np.float64)
            self._doc_matrix = _bm25_weights(counts, options.k1, options.b).T.tocsr()
            self._score = self._score_bm25
        elif options.method == "tfidf":
            # sublinear tf and cosine (the rows are L2-normalised): the seed's tfidf_23
            self._vectorizer = TfidfVectorizer(
                analyzer="char",
                ngram_range=options.ngrams,
                preprocessor=fold_case,
                sublinear_tf=True,
            )
            self._doc_matrix = sparse.csr_matrix(self._vectorizer.fit_transform(texts)).T.tocsr()
            self._score = self._score_tfidf
        else:
            raise ValueError(f"unknown method {options.method!r}")

    def _score_bm25(self, queries: list[str]) -> sparse.csr_matrix:
        present = sparse.csr_matrix(self._vectorizer.transform(queries))
        present.data[:] = 1.0
        return sparse.csr_matrix(present @ self._doc_matrix)

    def _score_tfidf(self, queries: list[str]) -> sparse.csr_matrix:
        return sparse.csr_matrix(
            sparse.csr_matrix(self._vectorizer.transform(queries)) @ self._doc_matrix
        )

    def search(self, queries: Mapping[str, str], k: int) -> Run:
        """qid -> top-k (docid, score), best first; documents scoring 0 are left out."""
        run: Run = {}
        qids = list(queries)
        for start in range(0, len(qids), BATCH):
            batch = qids[start : start + BATCH]
            scores = self._score([queries[qid] for qid in batch])
            dense = scores.toarray()
            for row, qid in enumerate(batch):
                run[qid] = self._top(dense[row], k)
        return run

    def _top(self, scores: np.ndarray, k: int) -> list[tuple[str, float]]:
        count = min(k, len(scores))
        if count <= 0:
            return []
        top = np.argpartition(-scores, count - 1)[:count]
        # rounded as written, then score down and docid down: the order trec_eval reads it in
        ranked = sorted(
            ((self.doc_ids[i], round(float(scores[i]), 6)) for i in top if scores[i] > 0),
            key=lambda item: (-item[1], _reverse_key(item[0])),
        )
        return ranked


def _reverse_key(text: str) -> tuple[int, ...]:
    return tuple(-ord(char) for char in text) + (0,)


def _bm25_weights(counts: sparse.csr_matrix, k1: float, b: float) -> sparse.csr_matrix:
    """Documents x terms matrix of BM25 term weights (idf x saturated tf)."""
    docs = counts.shape[0]
    lengths = np.asarray(counts.sum(axis=1)).ravel()
    average = lengths.mean() if docs else 1.0
    df = np.bincount(counts.indices, minlength=counts.shape[1])
    idf = np.log1p((docs - df + 0.5) / (df + 0.5))
    weights = counts.copy()
    row_norm = k1 * (1.0 - b + b * lengths / (average or 1.0))
    per_entry = np.repeat(row_norm, np.diff(weights.indptr))
    tf = weights.data
    weights.data = idf[weights.indices] * tf * (k1 + 1.0) / (tf + per_entry)
    return weights


def run_baseline(
    corpus: Sequence[CorpusRecord], topics: Mapping[str, str], options: BaselineOptions
) -> Run:
    """Index heading + text of every section and retrieve the top ``options.k`` for each
    query of ``topics`` (qid -> text)."""
    if not corpus:
        return {qid: [] for qid in topics}
    doc_ids = [record.id for record in corpus]
    texts = [f"{record.heading}\n{record.text}" for record in corpus]
    return CharNgramIndex(doc_ids, texts, options).search(topics, options.k)
