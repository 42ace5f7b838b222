"""The baseline retrievers of `qrelsmith baseline`: a registry of methods, one ranker for all.

``METHODS`` maps a method name to what builds its ``Scorer`` from the sections' texts: BM25
and TF-IDF (here), LSA (``lsa``) and dense embeddings (``dense``). Every scorer gives each
query of a batch a row of scores over the documents; ``RetrievalIndex`` ranks them (top k,
trec_eval's order of ties, the written score) and searches the queries in parallel parts.

Text is NFKC-normalised and case-folded (``text.fold_case``), runs of white space become one
space, and the text is cut into character n-grams (2 and 3 by default), so Japanese, Korean
and Chinese need no tokenizer. The BM25 here is Lucene's (idf = ln(1 + (N - df + 0.5) /
(df + 0.5))), with each distinct query n-gram counted once, over a terms x documents matrix
of BM25 weights built once. A query's scores are the sum of its terms' rows of that matrix.

BM25 with n-grams of at most 3 characters counts with numpy (``ngrams``), not scikit-learn:
an n-gram is packed into one integer whose order is the strings' order (21 bits per code
point, so the terms, their weights and the order in which a score is summed are those of
scikit-learn's CountVectorizer, and the runs are the same to the byte). Counting 100k sections
this way is ~10x faster than CountVectorizer's Python strings, and holds no string per n-gram.
The matrix is filled one range of n-grams at a time (``_PackedBm25``), so the chunks' counts
are let go as it fills; a query's row is summed by one ``np.bincount`` over its terms'
postings, which adds each document's weights in the order the sparse product adds them (the
same doubles, ~2x faster). TF-IDF and longer n-grams keep scikit-learn's vectorizers and the
sparse product.

Why not bm25s: its weights are float32 and its BM25 variants differ in the tf term, so its
runs could not be the ones this module has always written; its sparse scoring is what is done
here too.

Ranking: score as written (6 decimals) down, then document id down -- trec_eval's order; at
the k-th place, of documents with the same written score the larger ids are kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from ..config import BaselineOptions
from ..models import CorpusRecord
from ..patterns import BASELINE_PRESETS
from ..run.parallel import in_parts
from ..text import bm25_idf, bm25_norm, bm25_weight, fold_case
from .ngrams import PACKED_N, packed_counts
from .runs import Run, ranking_lines

#: What ends an article's subject in its title (the seed's "記事タイトルの「｜」より前"), tried
#: in this order: the full-width bar the seed's site uses, then the usual title separators.
SUBJECT_SEPARATORS = ("｜", "|", " - ", ": ")

#: One batch's rankings: row bounds into the next two, document numbers, written millionths.
_Ranked = tuple[list[int], NDArray[Any], NDArray[np.int64]]
#: What a batch of queries and its rankings are made into where they were searched.
Shaped = TypeVar("Shaped")


def _as_is(batch: Sequence[str], ranked: _Ranked) -> tuple[Sequence[str], _Ranked]:
    return batch, ranked


#: Queries scored per sparse product: bounds the score block at BATCH x sections (64 x 100k
#: sections is 51 MB dense, ~80 MB as the product's sparse result).
BATCH = 64

#: Ranges of n-grams the weight matrix is filled in, one after the other: the postings kept
#: for a range are let go as its block of the matrix fills.
RANGES = 8


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


def _give_back() -> None:
    """Return the C heap's free pages to the system (glibc's ``malloc_trim``; elsewhere
    nothing). The build frees a few MB of per-chunk arrays at a time; glibc keeps such blocks
    in its heap, so without this they stay resident beside the weight matrix being filled (a
    peak ~200 MB higher at 100k sections)."""
    global _TRIM
    if _TRIM is None:
        import ctypes
        import ctypes.util

        try:
            _TRIM = ctypes.CDLL(ctypes.util.find_library("c") or None).malloc_trim
        except (OSError, AttributeError):
            _TRIM = False
    if _TRIM:
        _TRIM(0)


_TRIM: Any = None


class _Piece(NamedTuple):
    """One chunk's postings of one term range, grouped by n-gram: ``ids`` (first-seen id of
    each n-gram) and ``runs`` (its documents' count) per n-gram, then ``owner`` (document, from
    the chunk's first) and ``tally`` (count in it) per posting, documents in order."""

    start: int
    ids: NDArray[np.uint32]
    runs: NDArray[Any]
    owner: NDArray[Any]
    tally: NDArray[Any]


def _narrow(most: int) -> type[np.unsignedinteger[Any]]:
    """The smallest unsigned integer type holding ``most``."""
    return np.uint8 if most < 1 << 8 else np.uint16 if most < 1 << 16 else np.uint32


class _PackedBm25:
    """BM25 over packed n-grams: the terms x documents weight matrix, built chunk by chunk.

    Pass one sorts each chunk's postings by n-gram (documents stay in order) and keeps them
    cut in RANGES ranges of n-grams (bounds from the first chunk): per n-gram the id it got
    when first seen (4 bytes) and its posting count, per posting the document (2 bytes) and
    the count (1 byte, wider when needed), with the sorted vocabulary of all. Pass two fills
    the weight matrix one range at a time, term by term, documents in order: a range's
    postings are let go as its block of the matrix fills, so the peak is about the matrix
    (12 bytes an entry) rather than the matrix and every chunk's postings."""

    def __init__(self, texts: Sequence[str], options: BaselineOptions):
        self.ngrams = options.ngrams
        docs = len(texts)
        lengths = np.zeros(docs, dtype=np.float64)
        pieces: list[list[_Piece]] = [[] for _ in range(RANGES)]
        bounds: NDArray[np.int64] | None = (
            None  # the packed n-gram each range but the first begins at
        )
        # every n-gram seen so far, sorted, with the id it got when first seen
        seen = np.zeros(0, dtype=np.int64)
        seen_ids = np.zeros(0, dtype=np.uint32)
        for start, end, doc, packed, counts in packed_counts(texts, self.ngrams, by_ngram=True):
            lengths[start:end] += np.bincount(doc - start, weights=counts, minlength=end - start)
            if not len(packed):
                continue
            heads = np.flatnonzero(np.concatenate([[True], packed[1:] != packed[:-1]]))
            vocabulary = packed[heads]
            if bounds is None:  # ranges of about as many postings each, in the first chunk
                bounds = packed[np.arange(1, RANGES) * len(packed) // RANGES]
            del packed
            at = np.searchsorted(seen, vocabulary)
            known = at < len(seen)
            known[known] = seen[at[known]] == vocabulary[known]
            ids = np.empty(len(vocabulary), dtype=np.uint32)
            ids[known] = seen_ids[at[known]]
            fresh = ~known
            ids[fresh] = np.arange(len(seen), len(seen) + int(fresh.sum()), dtype=np.uint32)
            seen = np.insert(seen, at[fresh], vocabulary[fresh])
            seen_ids = np.insert(seen_ids, at[fresh], ids[fresh])
            width = _narrow(end - start)
            runs = np.diff(np.append(heads, len(doc))).astype(width)
            owner = (doc - start).astype(width)
            tally = counts.astype(_narrow(int(counts.max())))
            cuts = np.concatenate([[0], np.searchsorted(vocabulary, bounds), [len(vocabulary)]])
            posts = np.append(heads, len(doc))[cuts]
            for part in range(RANGES):
                low, high, first, last = cuts[part], cuts[part + 1], posts[part], posts[part + 1]
                pieces[part].append(
                    _Piece(
                        start,
                        ids[low:high].copy(),
                        runs[low:high].copy(),
                        owner[first:last].copy(),
                        tally[first:last].copy(),
                    )
                )
            del heads, vocabulary, ids, runs, owner, tally
        self.vocabulary = seen
        # first-seen id -> term number in the strings' order
        term_of = np.empty(len(seen), dtype=np.int64)
        term_of[seen_ids] = np.arange(len(seen), dtype=np.int64)
        del seen_ids
        entries = sum(len(piece.owner) for part in pieces for piece in part)
        index = np.int32 if max(entries, docs) < 1 << 31 else np.int64  # one type: no copy
        indptr = np.zeros(len(seen) + 1, dtype=index)
        data = np.empty(entries, dtype=np.float64)
        indices = np.empty(entries, dtype=index)
        k1, b = options.k1, options.b
        # the expressions of _bm25_weights (text's bm25_*), so every weight is the same double
        average = lengths.mean() if docs else 1.0
        row_norm = bm25_norm(lengths, average or 1.0, k1, b)
        low, offset = 0, 0
        for part in range(RANGES):
            high = (
                int(np.searchsorted(seen, bounds[part]))
                if bounds is not None and part < RANGES - 1
                else len(seen)
            )
            block, pieces[part] = pieces[part], []
            df = np.zeros(high - low, dtype=np.int64)
            for piece in block:
                df[term_of[piece.ids] - low] += piece.runs  # an n-gram once a piece
            idf = bm25_idf(docs, df, np.log1p)
            filled = offset + np.concatenate([[0], np.cumsum(df)[:-1]]).astype(np.int64)
            indptr[low + 1 : high + 1] = offset + np.cumsum(df)
            offset += int(df.sum())
            while block:
                piece = block.pop(0)
                terms = term_of[piece.ids] - low
                runs = piece.runs.astype(np.int64)
                before = np.cumsum(runs) - runs  # each n-gram's first posting in the piece
                slots = np.repeat(filled[terms] - before, runs) + np.arange(len(piece.owner))
                owner = piece.owner.astype(index) + piece.start
                tf = piece.tally.astype(np.float64)
                data[slots] = bm25_weight(np.repeat(idf[terms], runs), tf, row_norm[owner], k1)
                indices[slots] = owner
                filled[terms] += runs
                del piece, terms, runs, before, slots, owner, tf
            _give_back()  # the range's freed postings, while the matrix's pages fill up
            low = high
        self.matrix = sparse.csr_matrix(
            (data, indices, indptr), shape=(len(seen), docs), copy=False
        )

    def terms(self, queries: list[str]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(query, term) of each distinct n-gram of the queries found in the vocabulary,
        sorted by query, then term."""
        rows, cols = [], []
        for _, _, doc, packed, _ in packed_counts(queries, self.ngrams):
            found = np.searchsorted(self.vocabulary, packed)
            found = np.minimum(found, max(len(self.vocabulary) - 1, 0))
            known = self.vocabulary[found] == packed if len(self.vocabulary) else found < 0
            rows.append(doc[known])
            cols.append(found[known])
        row = np.concatenate(rows) if rows else np.zeros(0, np.int64)
        col = np.concatenate(cols) if cols else np.zeros(0, np.int64)
        return row, col

    def score(self, queries: list[str]) -> sparse.csr_matrix:
        """Queries x documents: the sum of the weights of each distinct query n-gram, as one
        sparse product (what ``rows`` computes faster)."""
        row, col = self.terms(queries)
        present = sparse.csr_matrix(
            (np.ones(len(row)), (row, col)), shape=(len(queries), self.matrix.shape[0])
        )
        present.sort_indices()
        return sparse.csr_matrix(present @ self.matrix)

    def rows(self, queries: list[str]) -> Iterator[NDArray[np.float64]]:
        """Each query's scores over every document, one dense row at a time: the doubles of
        ``score``, as each document's weights are added in the same order (its terms' order,
        from 0.0) by one ``np.bincount`` over the postings of the query's terms. A row is
        ~2x faster than the product's and stays in the cache for the ranking."""
        row, col = self.terms(queries)
        indptr, indices, data = self.matrix.indptr, self.matrix.indices, self.matrix.data
        docs = self.matrix.shape[1]
        bounds = np.searchsorted(row, np.arange(len(queries) + 1)).tolist()
        starts, ends = indptr[col].tolist(), indptr[col + 1].tolist()
        for low, high in zip(bounds, bounds[1:], strict=False):
            if low == high:
                yield np.zeros(docs)
                continue
            spans = list(zip(starts[low:high], ends[low:high], strict=True))
            postings = np.concatenate([indices[start:end] for start, end in spans])
            weights = np.concatenate([data[start:end] for start, end in spans])
            yield np.asarray(np.bincount(postings, weights=weights, minlength=docs), np.float64)


class Scorer(Protocol):
    """What a retrieval method builds from the documents' texts: every document's score for
    each query of a batch (a row of doubles per query, in document order). Higher is
    better; a document scoring 0 or less is never ranked."""

    def rows(self, queries: list[str]) -> Iterable[NDArray[np.float64]]:
        """One row of scores per query, in order."""
        ...


#: A retrieval method: (the documents' texts, the options, the processes it may use) -> its
#: scorer.
Method = Callable[[Sequence[str], BaselineOptions, int], Scorer]


class _Vectorized:
    """A scorer over one of scikit-learn's vectorizers: the queries' vectors (0/1 for BM25,
    whose weights are the documents') times the terms x documents matrix."""

    def __init__(self, vectorizer: Any, doc_matrix: sparse.csr_matrix, binary: bool):
        self.vectorizer = vectorizer
        self.matrix = doc_matrix
        self.binary = binary

    def score(self, queries: list[str]) -> sparse.csr_matrix:
        """Queries x documents, sparse."""
        present = sparse.csr_matrix(self.vectorizer.transform(queries))
        if self.binary:
            present.data[:] = 1.0
        return sparse.csr_matrix(present @ self.matrix)

    def rows(self, queries: list[str]) -> NDArray[np.float64]:
        return np.asarray(self.score(queries).toarray())


def _bm25(texts: Sequence[str], options: BaselineOptions, workers: int = 1) -> Scorer:
    """BM25 over character n-grams: numpy's packed index up to PACKED_N characters."""
    if options.ngrams[1] <= PACKED_N:
        return _PackedBm25(texts, options)
    return _sparse_bm25(texts, options)


def _sparse_bm25(texts: Sequence[str], options: BaselineOptions) -> _Vectorized:
    """BM25 over scikit-learn's CountVectorizer (n-grams longer than PACKED_N)."""
    # imported here: scikit-learn takes ~2 s to import, which every CLI start would pay
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(
        analyzer="char", ngram_range=options.ngrams, preprocessor=fold_case, dtype=np.float64
    )
    counts = sparse.csr_matrix(vectorizer.fit_transform(texts), dtype=np.float64)
    return _Vectorized(vectorizer, _bm25_weights(counts, options.k1, options.b).T.tocsr(), True)


def _tfidf(texts: Sequence[str], options: BaselineOptions, workers: int = 1) -> Scorer:
    """TF-IDF with sublinear tf and cosine (the rows are L2-normalised): the seed's tfidf_23."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer(
        analyzer="char", ngram_range=options.ngrams, preprocessor=fold_case, sublinear_tf=True
    )
    matrix = sparse.csr_matrix(vectorizer.fit_transform(texts)).T.tocsr()
    return _Vectorized(vectorizer, matrix, False)


def _lsa(texts: Sequence[str], options: BaselineOptions, workers: int = 1) -> Scorer:
    from .lsa import LsaScorer

    return LsaScorer(texts, options)


def _dense(texts: Sequence[str], options: BaselineOptions, workers: int = 1) -> Scorer:
    from .dense import DenseScorer

    return DenseScorer(texts, options, workers)


#: The retrieval methods of `qrelsmith baseline --method` (config.Method names the same).
METHODS: dict[str, Method] = {"bm25": _bm25, "tfidf": _tfidf, "lsa": _lsa, "dense": _dense}


class RetrievalIndex:
    """A retrieval index over (id, text) documents: the scorer of ``options.method`` and the
    ranker every method shares (top k, trec_eval's order of ties, the written score, the
    queries searched in parallel parts). ``packed=False`` takes scikit-learn's path for BM25
    (what the packed index is checked against)."""

    def __init__(
        self,
        doc_ids: Sequence[str],
        texts: Sequence[str],
        options: BaselineOptions,
        *,
        packed: bool = True,
        workers: int = 1,
    ):
        self.doc_ids = list(doc_ids)
        self.options = options
        # document ids by rank in string order: the tie-break of the ranking, as integers
        order = sorted(range(len(self.doc_ids)), key=self.doc_ids.__getitem__)
        self._rank = np.empty(len(order), dtype=np.int64)
        self._rank[order] = np.arange(len(order))
        self._rank_bits = max(1, int(len(order)).bit_length())
        self._names = np.array(self.doc_ids, dtype=object)
        if options.method not in METHODS:
            raise ValueError(f"unknown method {options.method!r}")
        if options.method == "bm25" and not packed:
            self.scorer: Scorer = _sparse_bm25(texts, options)
        else:
            self.scorer = METHODS[options.method](texts, options, workers)

    def iter_search(
        self, queries: Mapping[str, str], k: int, workers: int = 1
    ) -> Iterator[tuple[str, list[tuple[str, float]]]]:
        """(qid, top-k (docid, score) best first) in the order of ``queries``; documents
        scoring 0 are left out. One batch of BATCH queries is held at a time.

        With ``workers`` 2 or more (and more than one batch of queries a worker), the queries
        are cut in ``workers`` consecutive parts: forked processes search all but the first,
        while this one searches the first and hands its rankings on; theirs come after, in
        order, read back from their files. Every query's ranking is computed alone, so the
        results are those of one process."""
        for batch, ranked in self._in_parts(queries, k, workers, _as_is):
            yield from zip(batch, self._named(*ranked), strict=True)

    def iter_lines(
        self, queries: Mapping[str, str], k: int, tag: str, workers: int = 1
    ) -> Iterator[tuple[int, str]]:
        """``iter_search``'s run as ``runs.write_run`` writes it: (line count, text) a batch
        of queries at a time, in query order, each formatted by the process that searched
        it (so the formatting, ~1/8 of a large run's work, is shared out too)."""
        return self._in_parts(queries, k, workers, partial(self._lines, tag))

    def _lines(self, tag: str, batch: Sequence[str], ranked: _Ranked) -> tuple[int, str]:
        rankings = self._named(*ranked)
        text = "".join(
            ranking_lines(qid, docs, tag) for qid, docs in zip(batch, rankings, strict=True)
        )
        return sum(map(len, rankings)), text

    def _in_parts(
        self,
        queries: Mapping[str, str],
        k: int,
        workers: int,
        shape: Callable[[Sequence[str], _Ranked], Shaped],
    ) -> Iterator[Shaped]:
        """``shape`` of each batch and its rankings, in query order, the queries searched on
        ``workers`` processes (see ``iter_search``); a part's batches are shaped where it
        is searched."""
        qids = list(queries)
        parts = max(1, min(workers, len(qids) // BATCH))
        # parts of whole batches: a batch holds the same queries whatever the number of parts,
        # so a scorer that encodes a batch together (dense) gives the same doubles
        batches = -(-len(qids) // BATCH)
        cuts = [BATCH * (batches * part // parts) for part in range(parts)] + [len(qids)]
        yield from in_parts(
            [
                partial(self._shaped, queries, qids[low:high], k, shape)
                for low, high in zip(cuts, cuts[1:], strict=False)
            ]
        )

    def _shaped(
        self,
        queries: Mapping[str, str],
        qids: Sequence[str],
        k: int,
        shape: Callable[[Sequence[str], _Ranked], Shaped],
    ) -> Iterator[Shaped]:
        """Per batch of ``qids``: ``shape`` of the batch and its rankings (``_ranks``)."""
        for start in range(0, len(qids), BATCH):
            batch = qids[start : start + BATCH]
            yield shape(batch, self._ranks(self.scorer.rows([queries[qid] for qid in batch]), k))

    def search(self, queries: Mapping[str, str], k: int) -> Run:
        """qid -> top-k (docid, score), best first; documents scoring 0 are left out."""
        return dict(self.iter_search(queries, k))

    def _top(self, scores: NDArray[np.float64], k: int) -> list[list[tuple[str, float]]]:
        """Each row's k best (document id, score): ``_ranks`` named."""
        return self._named(*self._ranks(scores, k))

    def _ranks(self, scores: Iterable[NDArray[np.float64]], k: int) -> _Ranked:
        """Each row's k best: written score (6 decimals) down, then document id down, as
        (row bounds, document numbers, written millionths).

        Only candidates are ranked, chosen row by row (while the row is in the cache): in each
        of k blocks of a row the best score is at least the smallest of those maxima, so k
        documents reach it, and a document more than 1e-6 below it is written lower than
        those k (6 decimals round by at most 5e-7)."""
        rows, cols, values = [], [], []
        total = count = 0
        for row in scores:
            total += 1
            count = min(k, len(row))
            if count <= 0:
                continue
            width = len(row) // count
            maxima = np.maximum.reduceat(row, np.arange(0, count * width, width))
            col = np.flatnonzero(row >= maxima.min() - 1e-6)
            value = row[col]
            positive = value > 0
            rows.append(np.full(int(positive.sum()), total - 1, dtype=np.int64))
            cols.append(col[positive])
            values.append(value[positive])
        if not rows:
            empty = np.zeros(0, dtype=np.int64)
            return [0] * (total + 1), empty, empty
        row, col = np.concatenate(rows), np.concatenate(cols)
        written = written_micro(np.concatenate(values))
        if written.size and int(written.max()) >= 1 << (62 - self._rank_bits):
            raise ValueError("scores too large to rank")
        keys = (written << self._rank_bits) | self._rank[col]
        order = np.lexsort((-keys, row))
        row, col, written = row[order], col[order], written[order]
        starts = np.searchsorted(row, np.arange(total + 1))
        keep = np.arange(len(row)) - starts[row] < count
        row, col, written = row[keep], col[keep], written[keep]
        bounds = np.searchsorted(row, np.arange(total + 1)).tolist()
        return bounds, col.astype(np.int32), written

    def _named(
        self, bounds: list[int], col: NDArray[Any], written: NDArray[np.int64]
    ) -> list[list[tuple[str, float]]]:
        """``_ranks``' arrays as (document id, score) lists, one per row."""
        # the float nearest to the written decimal, as Python's round(x, 6) returns it
        values = (written / 1e6).tolist()
        names = self._names[col].tolist()
        return [
            list(zip(names[low:high], values[low:high], strict=True))
            for low, high in zip(bounds, bounds[1:], strict=False)
        ]


def written_micro(scores: NDArray[np.float64]) -> NDArray[np.int64]:
    """Scores in millionths as written with 6 decimals (correctly rounded, half to even, as
    Python formats them). ``rint(x * 1e6)`` is that except within float error of a half,
    where the text itself is asked."""
    scaled = scores * 1e6
    written = np.rint(scaled)
    near = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6
    if near.any():
        written[near] = [float(f"{x:.6f}".replace(".", "")) for x in scores[near].tolist()]
    return written.astype(np.int64)


def _bm25_weights(counts: sparse.csr_matrix, k1: float, b: float) -> sparse.csr_matrix:
    """Documents x terms matrix of BM25 term weights (idf x saturated tf)."""
    docs = counts.shape[0]
    lengths = np.asarray(counts.sum(axis=1)).ravel()
    average = lengths.mean() if docs else 1.0
    df = np.bincount(counts.indices, minlength=counts.shape[1])
    idf = bm25_idf(docs, df, np.log1p)
    weights = counts.copy()
    row_norm = bm25_norm(lengths, average or 1.0, k1, b)
    per_entry = np.repeat(row_norm, np.diff(weights.indptr))
    weights.data = bm25_weight(idf[weights.indices], weights.data, per_entry, k1)
    return weights


def run_baseline(
    corpus: Sequence[CorpusRecord], topics: Mapping[str, str], options: BaselineOptions
) -> Run:
    """Index heading + text of every section and retrieve the top ``options.k`` for each
    query of ``topics`` (qid -> text)."""
    return dict(iter_baseline(corpus, topics, options))


def iter_baseline(
    corpus: Sequence[CorpusRecord], topics: Mapping[str, str], options: BaselineOptions
) -> Iterable[tuple[str, list[tuple[str, float]]]]:
    """``run_baseline`` one query at a time, for writing a large run without holding it."""
    return search_texts(*indexed_texts(corpus), topics, options)


def indexed_texts(
    corpus: Iterable[CorpusRecord], subjects: dict[str, str] | None = None
) -> tuple[list[str], list[str]]:
    """The ids and the indexed text (heading, a line break, text) of the sections (read once:
    records streamed from a file are let go one by one); ``subjects``, when given, gets
    each section's article subject (``subject`` of its title) by section id."""
    ids: list[str] = []
    texts: list[str] = []
    of_article: dict[str, str] = {}
    for record in corpus:
        ids.append(record.id)
        texts.append(f"{record.heading}\n{record.text}")
        if subjects is not None:
            if record.article_id not in of_article:
                of_article[record.article_id] = subject(record.title)
            subjects[record.id] = of_article[record.article_id]
    return ids, texts


def subject(title: str) -> str:
    """An article's subject: its title before the first of SUBJECT_SEPARATORS it holds (in
    that order), the whole title when none leaves a subject before it."""
    for separator in SUBJECT_SEPARATORS:
        head, found, _ = title.partition(separator)
        if found and head.strip():
            return head.strip()
    return title.strip()


def prefixed_topics(
    topics: Mapping[str, str], qrels: Mapping[str, Mapping[str, int]], subjects: Mapping[str, str]
) -> tuple[dict[str, str], int]:
    """Each query after its article's subject and a space (the seed's subject-prefixed
    queries), and how many queries had none and stay as written. A query's article is that
    of its highest-graded judged section (the first by id on a tie): the section its row
    named, whose article holds its other judged sections too."""
    out: dict[str, str] = {}
    missing = 0
    for qid, query in topics.items():
        judged = qrels.get(qid, {})
        target = min(judged, key=lambda doc: (-judged[doc], doc), default=None)
        found = subjects.get(target, "") if target is not None else ""
        out[qid] = f"{found} {query}" if found else query
        missing += not found
    return out, missing


def preset_options(name: str, base: BaselineOptions) -> dict[str, BaselineOptions]:
    """The runs of preset ``name``: run name -> options (``base``'s depth and query form)."""
    kept: dict[str, Any] = {"k": base.k, "queries": base.queries}
    return {
        run: BaselineOptions.model_validate({**kept, **setting})
        for run, setting in BASELINE_PRESETS[name].items()
    }


def search_texts(
    doc_ids: list[str],
    texts: list[str],
    topics: Mapping[str, str],
    options: BaselineOptions,
    workers: int = 1,
) -> Iterable[tuple[str, list[tuple[str, float]]]]:
    """Index ``texts`` and search ``topics``, one query at a time (on ``workers`` processes,
    see ``RetrievalIndex.iter_search``); ``texts`` is emptied once indexed (the index keeps
    what the search needs), so a caller holding no other reference frees the corpus text
    before the search."""
    index = _indexed(doc_ids, texts, options, workers)
    if index is None:
        return ((qid, []) for qid in topics)
    return index.iter_search(topics, options.k, workers)


def search_lines(
    doc_ids: list[str],
    texts: list[str],
    topics: Mapping[str, str],
    options: BaselineOptions,
    workers: int = 1,
) -> Iterable[tuple[int, str]]:
    """``search_texts``' run as ``runs.write_run`` writes it (tag ``options.tag``), in
    (line count, text) chunks for ``runs.write_lines``: each process formats what it
    searched."""
    index = _indexed(doc_ids, texts, options, workers)
    if index is None:
        return iter(())
    return index.iter_lines(topics, options.k, options.tag, workers)


def _indexed(
    doc_ids: list[str], texts: list[str], options: BaselineOptions, workers: int
) -> RetrievalIndex | None:
    """The index of ``texts`` (then emptied) built on up to ``workers`` processes where its
    method can share the work out (dense), None without documents."""
    if not doc_ids:
        return None
    index = RetrievalIndex(doc_ids, texts, options, workers=workers)
    texts.clear()
    return index
