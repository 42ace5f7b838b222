"""A character n-gram baseline retriever: BM25 or TF-IDF over the corpus sections.

Text is NFKC-normalised and case-folded (``text.fold_case``), runs of white space become one
space, and the text is cut into character n-grams (2 and 3 by default), so Japanese, Korean
and Chinese need no tokenizer. The BM25 here is Lucene's (idf = ln(1 + (N - df + 0.5) /
(df + 0.5))), with each distinct query n-gram counted once, over a terms x documents matrix
of BM25 weights built once. A query's scores are the sum of its terms' rows of that matrix.

BM25 with n-grams of at most 3 characters counts with numpy, not scikit-learn: an n-gram is
packed into one integer whose order is the strings' order (21 bits per code point, so the
terms, their weights and the order in which a score is summed are those of scikit-learn's
CountVectorizer, and the runs are the same to the byte). Counting 100k sections this way is
~10x faster than CountVectorizer's Python strings, and holds no string per n-gram. The
matrix is filled one range of n-grams at a time (``_PackedBm25``), so the chunks' counts are
let go as it fills; a query's row is summed by one ``np.bincount`` over its terms' postings,
which adds each document's weights in the order the sparse product adds them (the same
doubles, ~2x faster). TF-IDF and longer n-grams keep scikit-learn's vectorizers and the
sparse product.

Why not bm25s: its weights are float32 and its BM25 variants differ in the tf term, so its
runs could not be the ones this module has always written; its sparse scoring is what is done
here too.

Ranking: score as written (6 decimals) down, then document id down -- trec_eval's order; at
the k-th place, of documents with the same written score the larger ids are kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple, TypeVar

import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from ..config import BaselineOptions
from ..models import CorpusRecord
from ..run.parallel import ForkedPart
from ..text import fold_case
from .runs import Run, ranking_lines

#: One batch's rankings: row bounds into the next two, document numbers, written millionths.
_Ranked = tuple[list[int], NDArray[Any], NDArray[np.int64]]
#: What a batch of queries and its rankings are made into where they were searched.
Shaped = TypeVar("Shaped")


def _as_is(batch: Sequence[str], ranked: _Ranked) -> tuple[Sequence[str], _Ranked]:
    return batch, ranked


#: Queries scored per sparse product: bounds the score block at BATCH x sections (64 x 100k
#: sections is 51 MB dense, ~80 MB as the product's sparse result).
BATCH = 64

#: Characters counted at once when building the index: bounds the n-gram work arrays (~100
#: bytes a character at their peak) at ~50 MB whatever the corpus size.
CHUNK_CHARS = 500_000

#: Ranges of n-grams the weight matrix is filled in, one after the other: the postings kept
#: for a range are let go as its block of the matrix fills.
RANGES = 8

#: The longest n-gram packed into one 63-bit integer (21 bits a code point).
PACKED_N = 3

_WHITE_SPACES = re.compile(r"\s\s+")  # scikit-learn's, so the n-grams are its n-grams


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


def prepare(text: str) -> str:
    """The text whose n-grams are counted: folded, white-space runs as one space."""
    return _WHITE_SPACES.sub(" ", fold_case(text))


def _packed_chunk(
    texts: Sequence[str], ngrams: tuple[int, int], by_ngram: bool = False
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """(document, packed n-gram, count) of every distinct n-gram of each text, sorted by
    document then n-gram (``by_ngram``: by n-gram, then document). A code point c is the digit
    c + 1 in 21 bits; a missing one is 0, so a shorter n-gram sorts before the longer ones it
    begins, as strings do."""
    empty = np.zeros(0, dtype=np.int64)
    lengths = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
    if not lengths.sum():
        return empty, empty, empty
    codes = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    # within the chunk, code points as ranks of a small alphabet: (doc, n-gram) fits one int64
    # the code points present, and each one's rank among them (a table, not a sort)
    present = np.zeros(int(codes.max()) + 1, dtype=np.int64)
    present[codes] = 1
    alphabet = np.flatnonzero(present)
    digits = np.cumsum(present)[codes]  # rank + 1
    base = len(alphabet) + 1
    if len(texts) > 1 and len(texts) * base**PACKED_N >= 1 << 62:
        half = len(texts) // 2  # too many documents or characters for one int64 key
        first = _packed_chunk(texts[:half], ngrams, by_ngram)
        second = _packed_chunk(texts[half:], ngrams, by_ngram)
        doc = np.concatenate([first[0], second[0] + half])
        packed = np.concatenate([first[1], second[1]])
        counts = np.concatenate([first[2], second[2]])
        if by_ngram:  # the halves merged: by n-gram, documents in order (first half first)
            order = np.argsort(packed, kind="stable")
            doc, packed, counts = doc[order], packed[order], counts[order]
        return doc, packed, counts
    ends = np.repeat(np.cumsum(lengths), lengths)
    docs = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
    positions = np.arange(len(codes), dtype=np.int64)
    parts = []
    for n in range(ngrams[0], ngrams[1] + 1):
        local = digits * base ** (PACKED_N - 1)
        for offset in range(1, n):
            local[:-offset] += digits[offset:] * base ** (PACKED_N - 1 - offset)
        valid = positions + n <= ends
        if by_ngram:
            parts.append(local[valid] * len(texts) + docs[valid])
        else:
            parts.append(docs[valid] * base**PACKED_N + local[valid])
    combined, counts = np.unique(np.concatenate(parts), return_counts=True)
    if by_ngram:
        local, doc = np.divmod(combined, len(texts))
    else:
        doc, local = np.divmod(combined, base**PACKED_N)
    packed = np.zeros(len(local), dtype=np.int64)
    for place in range(PACKED_N):
        digit = (local // base ** (PACKED_N - 1 - place)) % base
        code = np.where(digit > 0, alphabet[np.maximum(digit - 1, 0)].astype(np.int64) + 1, 0)
        packed |= code << (21 * (PACKED_N - 1 - place))
    return doc, packed, counts.astype(np.int64)


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


def _chunks(texts: Sequence[str]) -> Iterator[tuple[int, int]]:
    """[start, end) ranges of texts holding about CHUNK_CHARS characters each."""
    start = 0
    while start < len(texts):
        end, chars = start, 0
        while end < len(texts) and (chars < CHUNK_CHARS or end == start):
            chars += len(texts[end])
            end += 1
        yield start, end
        start = end


def packed_counts(
    texts: Sequence[str], ngrams: tuple[int, int], by_ngram: bool = False
) -> Iterator[tuple[int, int, NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]]:
    """Per chunk of texts [start, end), prepared there (so no prepared copy of a whole corpus
    is held): (start, end, document, packed n-gram, count), in ``_packed_chunk``'s order."""
    for start, end in _chunks(texts):
        prepared = [prepare(t) for t in texts[start:end]]
        doc, packed, counts = _packed_chunk(prepared, ngrams, by_ngram)
        yield start, end, doc + start, packed, counts


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
        # the expressions of _bm25_weights, in its order, so every weight is the same double
        average = lengths.mean() if docs else 1.0
        row_norm = k1 * (1.0 - b + b * lengths / (average or 1.0))
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
            idf = np.log1p((docs - df + 0.5) / (df + 0.5))
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
                data[slots] = np.repeat(idf[terms], runs) * tf * (k1 + 1.0) / (tf + row_norm[owner])
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


class CharNgramIndex:
    """A retrieval index over (id, text) documents."""

    def __init__(
        self,
        doc_ids: Sequence[str],
        texts: Sequence[str],
        options: BaselineOptions,
        *,
        packed: bool = True,
    ):
        self.doc_ids = list(doc_ids)
        self.options = options
        self._score: Callable[[list[str]], sparse.csr_matrix]
        self._rows: Callable[[list[str]], Iterable[NDArray[np.float64]]] = self._dense
        # document ids by rank in string order: the tie-break of the ranking, as integers
        order = sorted(range(len(self.doc_ids)), key=self.doc_ids.__getitem__)
        self._rank = np.empty(len(order), dtype=np.int64)
        self._rank[order] = np.arange(len(order))
        self._rank_bits = max(1, int(len(order)).bit_length())
        self._names = np.array(self.doc_ids, dtype=object)
        if options.method == "bm25" and options.ngrams[1] <= PACKED_N and packed:
            self._packed = _PackedBm25(texts, options)
            self._score = self._packed.score
            self._rows = self._packed.rows
            return
        # imported here: scikit-learn takes ~2 s to import, which every CLI start would pay
        from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

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

    def _dense(self, queries: list[str]) -> NDArray[np.float64]:
        """Queries x documents scores, dense."""
        return np.asarray(self._score(queries).toarray())

    def _score_bm25(self, queries: list[str]) -> sparse.csr_matrix:
        present = sparse.csr_matrix(self._vectorizer.transform(queries))
        present.data[:] = 1.0
        return sparse.csr_matrix(present @ self._doc_matrix)

    def _score_tfidf(self, queries: list[str]) -> sparse.csr_matrix:
        return sparse.csr_matrix(
            sparse.csr_matrix(self._vectorizer.transform(queries)) @ self._doc_matrix
        )

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
        parts = min(workers, len(qids) // BATCH) if ForkedPart.available() else 1
        if parts < 2:
            yield from self._shaped(queries, qids, k, shape)
            return
        cuts = [len(qids) * part // parts for part in range(parts + 1)]
        forked = [
            ForkedPart(partial(self._shaped, queries, qids[low:high], k, shape))
            for low, high in zip(cuts[1:-1], cuts[2:], strict=True)
        ]
        try:
            yield from self._shaped(queries, qids[: cuts[1]], k, shape)
            for part in forked:
                yield from part.items()
        finally:
            for part in forked:
                part.close()

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
            yield shape(batch, self._ranks(self._rows([queries[qid] for qid in batch]), k))

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
        written = _micro(np.concatenate(values))
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


def _micro(scores: NDArray[np.float64]) -> NDArray[np.int64]:
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
    return dict(iter_baseline(corpus, topics, options))


def iter_baseline(
    corpus: Sequence[CorpusRecord], topics: Mapping[str, str], options: BaselineOptions
) -> Iterable[tuple[str, list[tuple[str, float]]]]:
    """``run_baseline`` one query at a time, for writing a large run without holding it."""
    return search_texts(*indexed_texts(corpus), topics, options)


def indexed_texts(corpus: Iterable[CorpusRecord]) -> tuple[list[str], list[str]]:
    """The ids and the indexed text (heading, a line break, text) of the sections (read once:
    records streamed from a file are let go one by one)."""
    ids: list[str] = []
    texts: list[str] = []
    for record in corpus:
        ids.append(record.id)
        texts.append(f"{record.heading}\n{record.text}")
    return ids, texts


def search_texts(
    doc_ids: list[str],
    texts: list[str],
    topics: Mapping[str, str],
    options: BaselineOptions,
    workers: int = 1,
) -> Iterable[tuple[str, list[tuple[str, float]]]]:
    """Index ``texts`` and search ``topics``, one query at a time (on ``workers`` processes,
    see ``CharNgramIndex.iter_search``); ``texts`` is emptied once indexed (the index keeps
    what the search needs), so a caller holding no other reference frees the corpus text
    before the search."""
    index = _indexed(doc_ids, texts, options)
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
    index = _indexed(doc_ids, texts, options)
    if index is None:
        return iter(())
    return index.iter_lines(topics, options.k, options.tag, workers)


def _indexed(
    doc_ids: list[str], texts: list[str], options: BaselineOptions
) -> CharNgramIndex | None:
    """The index of ``texts`` (then emptied), None without documents."""
    if not doc_ids:
        return None
    index = CharNgramIndex(doc_ids, texts, options)
    texts.clear()
    return index
