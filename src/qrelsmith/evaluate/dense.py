"""A dense retriever: the cosine of sentence embeddings, with the ``[semantic]`` extra's encoder.

The encoder is the one semantic matching uses (``labelling.semantic.encoder``: Universal Sentence
Encoder multilingual v3 in numpy, its weights inside the package, nothing downloaded; one BLAS
thread). Sections are embedded DENSE_BATCH texts a call into one float32 matrix (2 KB a
section: 200 MB for 100k), on ``--workers`` processes (parts of whole batches), queries a
batch of the ranker's at a time, so memory is the
matrix and one batch's arrays. The ranker hands every batch the same queries whatever the
number of worker processes, and each is embedded alone in its batch, so the run is the same
bytes with any ``--workers``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial

import numpy as np
from numpy.typing import NDArray

from ..config import BaselineOptions
from ..errors import UsageError
from ..patterns import DENSE_BATCH
from ..run.parallel import ForkedPart


def embed(texts: Sequence[str]) -> NDArray[np.float32]:
    """The texts' unit-length embeddings, DENSE_BATCH a call (a UsageError without the
    ``[semantic]`` extra, from ``labelling.semantic.encoder``)."""
    from ..labelling.semantic import encoder

    model = encoder()
    out = np.zeros((len(texts), 512), dtype=np.float32)
    for start in range(0, len(texts), DENSE_BATCH):
        batch = list(texts[start : start + DENSE_BATCH])
        out[start : start + len(batch)] = model.encode(batch)
    return out


def embed_in_parts(texts: Sequence[str], workers: int) -> NDArray[np.float32]:
    """``embed`` with the texts cut in ``workers`` parts of whole DENSE_BATCH batches, all but
    the first embedded in forked processes: each batch is the same call whatever the parts,
    so the vectors are the same."""
    batches = -(-len(texts) // DENSE_BATCH)
    parts = min(workers, batches) if ForkedPart.available() else 1
    if parts < 2:
        return embed(texts)
    from ..labelling.semantic import encoder

    encoder()  # loaded once, before the fork: the children share it
    cuts = [DENSE_BATCH * (batches * part // parts) for part in range(parts)] + [len(texts)]
    forked = [
        ForkedPart(partial(_embedded, texts[low:high]))
        for low, high in zip(cuts[1:-1], cuts[2:], strict=True)
    ]
    try:
        pieces = [embed(texts[: cuts[1]])]
        for part in forked:
            pieces.extend(part.items())
    finally:
        for part in forked:
            part.close()
    return np.concatenate(pieces)


def _embedded(texts: Sequence[str]) -> Iterator[NDArray[np.float32]]:
    yield embed(texts)


class DenseScorer:
    """Cosines of the queries' and the documents' embeddings (both of unit length)."""

    def __init__(self, texts: Sequence[str], options: BaselineOptions, workers: int = 1):
        del options  # the encoder has no parameter to set
        from ..labelling.semantic import MODULE, PACKAGE

        try:
            __import__(MODULE)
        except ImportError:
            raise UsageError(
                f"--method dense needs the {PACKAGE} package: pip install 'qrelsmith[semantic]'"
            ) from None
        self._documents = embed_in_parts(texts, workers).T.copy()

    def rows(self, queries: list[str]) -> Iterator[NDArray[np.float64]]:
        from threadpoolctl import threadpool_limits

        vectors = embed(queries)
        with threadpool_limits(1, "blas"):  # one BLAS thread: the parts are the parallelism
            scores = (vectors @ self._documents).astype(np.float64)
        yield from scores
