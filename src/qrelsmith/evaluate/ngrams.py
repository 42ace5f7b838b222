"""Character n-grams as numpy counts them: each n-gram of at most PACKED_N characters packed
into one integer whose order is the strings' order (21 bits per code point), so the terms, and
the order of the sums over them, are those of scikit-learn's CountVectorizer (``analyzer=
"char"``). The text is ``prepare``d as that analyzer does after ``text.fold_case``. Texts are
counted CHUNK_CHARS characters at a time. Used by BM25 (``baseline``) and LSA (``lsa``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import NDArray

from ..text import fold_case

#: Characters counted at once when building the index: bounds the n-gram work arrays (~100
#: bytes a character at their peak) at ~50 MB whatever the corpus size.
CHUNK_CHARS = 500_000

#: The longest n-gram packed into one 63-bit integer (21 bits a code point).
PACKED_N = 3

_WHITE_SPACES = re.compile(r"\s\s+")  # scikit-learn's, so the n-grams are its n-grams


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
