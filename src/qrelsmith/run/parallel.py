"""Run a task over many items in worker processes, and put the results back in order.

``map_unordered`` feeds a process pool a bounded window of chunks (memory stays flat however
large the crawl: items are read only as workers free up) and yields results as they come.
``SortedRuns`` restores a deterministic order without holding everything: results are kept up
to a memory budget, spilled to sorted temporary run files, and k-way merged (``heapq.merge``).
``map_ordered`` gives the results in input order instead, for inputs already in that order.
Nothing here knows what a page is.
"""

from __future__ import annotations

import heapq
import os
import pickle
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, TypeVar

from ..patterns import MAX_WORKERS

Item = TypeVar("Item")
Result = TypeVar("Result")

#: Items sent to a worker at once: enough to make the hand-off cost small against the work
#: (a page takes ~5 ms), few enough that the window in flight stays small.
CHUNK_ITEMS = 16
#: ... unless they are large: a chunk is closed once its items weigh this much (a 50 MB page
#: travels alone).
CHUNK_BYTES = 4 << 20
#: Chunks in flight per worker: one running, the others queued so no worker waits for input.
CHUNKS_PER_WORKER = 3
#: Bytes of results held in memory before they are spilled to a sorted run file: the build's
#: memory beyond the parser's. A 20k-page crawl (~800 MB of HTML) makes ~8 runs; every run is
#: one open file during the merge, so a million pages (~400 runs) still fits the usual limit
#: of 1,024 open files.
RUN_BYTES = 64 << 20

_task: Callable[[Any], Any] | None = None


def default_workers() -> int:
    """All cores, at most MAX_WORKERS."""
    return min(os.cpu_count() or 1, MAX_WORKERS)


#: prctl(2) option: the signal the kernel sends a process when its parent dies (Linux).
PR_SET_PDEATHSIG = 1
#: How often a worker checks that its parent lives, where the kernel cannot tell it.
PARENT_CHECK_SECONDS = 1.0


def _install(task: Callable[[Any], Any], parent: int) -> None:
    global _task
    _task = task
    _die_with_parent(parent)


def _die_with_parent(parent: int) -> None:
    """End this worker when the build that started it dies (kill -9, SIGTERM, a crash): a
    worker left waiting on its pipe would live on for nothing. On Linux the kernel sends it
    SIGKILL (prctl PR_SET_PDEATHSIG); everywhere a thread also checks every second that its
    parent is still the one that started it."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no libc to speak of: the thread below does it
            pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


def _run_chunk(chunk: list[Any]) -> list[Any]:
    assert _task is not None, "worker started without its task"
    return [_task(item) for item in chunk]


def _chunks(items: Iterable[Item], weight: Callable[[Item], int]) -> Iterator[list[Item]]:
    chunk: list[Item] = []
    load = 0
    for item in items:
        chunk.append(item)
        load += weight(item)
        if len(chunk) >= CHUNK_ITEMS or load >= CHUNK_BYTES:
            yield chunk
            chunk, load = [], 0
    if chunk:
        yield chunk


def map_unordered(
    task: Callable[[Item], Result],
    items: Iterable[Item],
    workers: int,
    on_crash: Callable[[Item], Result],
    weight: Callable[[Item], int] = lambda item: 0,
) -> Iterator[Result]:
    """``task(item)`` for every item, in any order, on ``workers`` processes.

    ``workers == 1`` runs in this process (no pool is started). ``task`` must be a picklable
    top-level callable. A worker process that dies (a crash in C code, the OOM killer) breaks
    the pool: the items in flight are then re-run one at a time in a fresh pool, and the one
    that kills it again gets ``on_crash(item)`` instead of a result; the rest are unharmed.
    """
    if workers <= 1:
        for item in items:
            yield task(item)
        return
    chunks = _chunks(items, weight)
    suspects: deque[list[Item]] = deque()  # items that were in flight when a worker died
    inflight: dict[Future[list[Result]], list[Item]] = {}
    pool = _pool(workers, task)
    try:
        exhausted = False
        while True:
            # After a crash, suspects run one at a time, so a second crash names its item.
            window = 1 if suspects else workers * CHUNKS_PER_WORKER
            while len(inflight) < window:
                if suspects:
                    chunk = suspects.popleft()
                elif not exhausted:
                    chunk = next(chunks, [])
                    exhausted = not chunk
                    if exhausted:
                        break
                else:
                    break
                inflight[pool.submit(_run_chunk, chunk)] = chunk
            if not inflight:
                return
            done, _ = wait(inflight, return_when=FIRST_COMPLETED)
            crashed = False
            for future in done:
                chunk = inflight.pop(future)
                try:
                    results = future.result()
                except BrokenProcessPool:
                    crashed = True
                    if len(inflight) == 0 and len(chunk) == 1 and len(done) == 1:
                        yield on_crash(chunk[0])
                    else:
                        suspects.extend([item] for item in chunk)
                    continue
                yield from results
            if crashed:
                for chunk in inflight.values():
                    suspects.extend([item] for item in chunk)
                inflight.clear()
                pool.shutdown(wait=True, cancel_futures=True)
                pool = _pool(workers, task)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _pool(workers: int, task: Callable[[Any], Any]) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(workers, initializer=_install, initargs=(task, os.getpid()))


class _Numbered:
    """``task`` over ``(index, item)`` pairs, keeping the index (picklable: a top-level class)."""

    def __init__(self, task: Callable[[Any], Any]) -> None:
        self.task = task

    def __call__(self, pair: tuple[int, Any]) -> tuple[int, Any]:
        return pair[0], self.task(pair[1])


def map_ordered(
    task: Callable[[Item], Result],
    items: Iterable[Item],
    workers: int,
    on_crash: Callable[[Item], Result],
    weight: Callable[[Item], int] = lambda item: 0,
) -> Iterator[Result]:
    """``map_unordered``, with the results put back in the order of ``items``: only those that
    finish ahead of an earlier one are held, so memory stays within the window in flight."""
    held: dict[int, Result] = {}
    wanted = 0
    for index, result in map_unordered(
        _Numbered(task),
        enumerate(items),
        workers,
        on_crash=lambda pair: (pair[0], on_crash(pair[1])),
        weight=lambda pair: weight(pair[1]),
    ):
        held[index] = result
        while wanted in held:
            yield held.pop(wanted)
            wanted += 1


class SortedRuns(Generic[Item]):
    """Items in any order in, the same items in key order out, in bounded memory.

    Use as a context manager (the temporary run files are removed on leaving). ``add`` every
    item, then iterate ``merged()`` once.
    """

    def __init__(
        self,
        key: Callable[[Item], Any],
        size: Callable[[Item], int],
        budget: int | None = None,
        folder: str | None = None,
    ) -> None:
        self.key, self.size, self.folder = key, size, folder
        self.budget = budget or RUN_BYTES
        self.held: list[Item] = []
        self.load = 0
        self.runs: list[str] = []
        self._tmp: str | None = None

    def __enter__(self) -> SortedRuns[Item]:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def add(self, item: Item) -> None:
        """Hold ``item``; spill what is held once it weighs more than the budget."""
        self.held.append(item)
        self.load += self.size(item)
        if self.load >= self.budget:
            self._spill()

    def _spill(self) -> None:
        if self._tmp is None:
            self._tmp = tempfile.mkdtemp(prefix="qrelsmith-runs-", dir=self.folder)
        path = os.path.join(self._tmp, f"run{len(self.runs):05d}")
        self.held.sort(key=self.key)
        with open(path, "wb") as handle:
            for item in self.held:
                pickle.dump(item, handle, protocol=pickle.HIGHEST_PROTOCOL)
        self.runs.append(path)
        self.held, self.load = [], 0

    def merged(self) -> Iterator[Item]:
        """Every item added, in key order (ties in no particular order)."""
        self.held.sort(key=self.key)
        if not self.runs:
            yield from self.held
            return
        streams: list[Iterable[Item]] = [_read_run(path) for path in self.runs]
        streams.append(self.held)
        yield from heapq.merge(*streams, key=self.key)


def _read_run(path: str) -> Iterator[Any]:
    with open(path, "rb") as handle:
        while True:
            try:
                yield pickle.load(handle)
            except EOFError:
                return


class ForkedPart:
    """A part of a job run in a forked copy of this process while this one does the rest.

    The child starts from this process's memory as it is (a large read-only index is shared,
    not copied or pickled), writes the items ``produce`` yields to an unnamed temporary file,
    and ends; ``items`` waits for it and reads them back in the order they were made. Forking
    is Linux's and macOS's way; ``available`` says whether this platform has it.
    """

    def __init__(self, produce: Callable[[], Iterable[Any]]) -> None:
        import multiprocessing

        self._file = tempfile.TemporaryFile(prefix="qrelsmith-part-")  # noqa: SIM115 (closed by close)
        for stream in (sys.stdout, sys.stderr):  # nothing buffered may be written twice
            stream.flush()
        context = multiprocessing.get_context("fork")
        self._process = context.Process(
            target=_produce_part,
            args=(produce, self._file.fileno(), os.getpid()),
            daemon=True,
        )
        self._process.start()

    @staticmethod
    def available() -> bool:
        """Whether this platform can fork."""
        import multiprocessing

        return "fork" in multiprocessing.get_all_start_methods()

    def items(self) -> Iterator[Any]:
        """The child's items, in order, once it has ended; RuntimeError if it failed."""
        self._process.join()
        if self._process.exitcode != 0:
            raise RuntimeError(f"a worker process failed (exit code {self._process.exitcode})")
        self._file.seek(0)
        while True:
            try:
                yield pickle.load(self._file)
            except EOFError:
                return

    def close(self) -> None:
        """End the child if it still runs, drop its file."""
        if self._process.is_alive():
            self._process.terminate()
            self._process.join()
        self._file.close()


def _produce_part(produce: Callable[[], Iterable[Any]], descriptor: int, parent: int) -> None:
    _die_with_parent(parent)
    with os.fdopen(os.dup(descriptor), "wb") as out:
        for item in produce():
            pickle.dump(item, out, protocol=pickle.HIGHEST_PROTOCOL)


def in_parts(parts: Sequence[Callable[[], Iterable[Item]]]) -> Generator[Item, None, None]:
    """The items of every part, part after part: this process makes the first part's while
    forked copies (``ForkedPart``) make the others' at the same time; where there is no fork,
    this process makes them all, one after the other."""
    if len(parts) < 2 or not ForkedPart.available():
        for part in parts:
            yield from part()
        return
    forked = [ForkedPart(part) for part in parts[1:]]
    try:
        yield from parts[0]()
        for child in forked:
            yield from child.items()
    finally:
        for child in forked:
            child.close()


def cuts(weights: Sequence[int], parts: int) -> list[int]:
    """Where to cut items of ``weights`` into at most ``parts`` consecutive parts of about
    the same weight, each of one item or more: the bounds, from 0 to ``len(weights)``."""
    total = sum(weights)
    bounds = [0]
    reached = 0
    for index, weight in enumerate(weights[:-1], 1):
        reached += weight
        if len(bounds) < parts and reached * parts >= total * len(bounds):
            bounds.append(index)
    return [*bounds, len(weights)] if weights else [0]
