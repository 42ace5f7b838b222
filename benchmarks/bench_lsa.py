"""Where LSA's time goes: `baseline --method lsa` phase by phase, in one process.

Reads a build folder's corpus (``make_scale_set.py``), then times, each as wall and CPU
(process time: all threads): counting the n-grams, TF-IDF, the SVD (``svd.truncated_svd``, its
sparse products on each ``--threads`` count, checked equal to the bit), and, on the first
``--queries`` queries in batches of 64 as `baseline` searches them, the query transform, the
scores (one BLAS thread), the ranking and the formatting of the run lines; the search figures
scale with the number of queries (divide by the processes, ``-j``, for the wall time).

    PYTHONPATH=src /work/venv/bin/python benchmarks/bench_lsa.py /tmp/lsa/s100k \\
        --threads 1,2 --queries 6400
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def timed(name: str, work: Callable[[], Any]) -> Any:
    """``work()``, its wall and CPU seconds printed under ``name``."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{name:38s} wall {wall:7.1f} s   cpu {cpu:7.1f} s", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", help="a build folder (corpus.jsonl, queries.tsv)")
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--threads", default="1,2", help="the SVD's thread counts to time")
    parser.add_argument("--queries", type=int, default=6400, help="queries searched")
    args = parser.parse_args()

    from pathlib import Path

    from scipy import sparse
    from sklearn.feature_extraction.text import TfidfTransformer
    from sklearn.preprocessing import normalize
    from threadpoolctl import threadpool_limits

    from qrelsmith.config import BaselineOptions
    from qrelsmith.evaluate import lsa
    from qrelsmith.evaluate.baseline import BATCH, RetrievalIndex, indexed_texts
    from qrelsmith.evaluate.svd import truncated_svd
    from qrelsmith.models import CorpusRecord
    from qrelsmith.patterns import LSA_SEED
    from qrelsmith.store.buildfolder import build_topics, iter_records, load_build

    folder = Path(args.dir)
    ids, texts = timed(
        "read the corpus",
        lambda: indexed_texts(iter_records(folder / "corpus.jsonl", CorpusRecord)),
    )
    counter = lsa._counter((2, 2))
    counts = timed("count 2-grams (two passes)", lambda: counter.fit_transform(texts))
    tfidf = TfidfTransformer()
    weighted = sparse.csr_matrix(timed("TF-IDF", lambda: tfidf.fit_transform(counts)))
    results = []
    for threads in [int(n) for n in args.threads.split(",")]:
        results.append(
            timed(
                f"SVD to {args.dims}, products on {threads} thread(s)",
                lambda threads=threads: truncated_svd(weighted, args.dims, LSA_SEED, threads),
            )
        )
    assert all(
        np.array_equal(first, other)
        for result in results[1:]
        for first, other in zip(results[0], result, strict=True)
    ), "the SVD differs with the thread count"
    components, reduced = results[0]
    documents = normalize(reduced).T.copy()

    topics = build_topics(load_build(folder, need=("corpus.jsonl",), only_articles=()), args.dir)
    queries = [topics[qid] for qid in list(topics)[: args.queries]]
    batches = [queries[start : start + BATCH] for start in range(0, len(queries), BATCH)]
    projection = np.ascontiguousarray(components.T)
    transformed = timed(
        f"query transform ({len(queries)} queries)",
        lambda: [
            normalize(np.asarray(tfidf.transform(counter.transform(batch)) @ projection))
            for batch in batches
        ],
    )
    with threadpool_limits(1, "blas"):
        scores = timed(
            "scores (one BLAS thread)", lambda: [rows @ documents for rows in transformed]
        )
    index = RetrievalIndex.__new__(RetrievalIndex)  # the ranker alone, over these documents
    order = sorted(range(len(ids)), key=ids.__getitem__)
    index._rank = np.empty(len(order), dtype=np.int64)
    index._rank[order] = np.arange(len(order))
    index._rank_bits = max(1, len(order).bit_length())
    index._names = np.array(ids, dtype=object)
    index.options = BaselineOptions(method="lsa", ngrams=(2, 2), dims=args.dims)
    ranked = timed("rank top 100", lambda: [index._ranks(block, 100) for block in scores])
    qids = list(topics)[: args.queries]
    timed(
        "format the run lines",
        lambda: [
            index._lines("lsa", qids[n * BATCH : (n + 1) * BATCH], one)
            for n, one in enumerate(ranked)
        ],
    )


if __name__ == "__main__":
    main()
