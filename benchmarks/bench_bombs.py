"""Peak memory of reading a Content-Encoding bomb: one WARC response record whose HTTP body
inflates to SIZE bytes, in each encoding a server may send (gzip, zlib deflate, raw deflate,
gzip in a chunked body), read by ``read_warc`` at two page caps; Python's allocations traced
(tracemalloc). Run it with PYTHONPATH naming the tree to measure:

    PYTHONPATH=src python benchmarks/bench_bombs.py --mib 256
    git archive d1f6d59 src | tar -x -C /tmp/before       # before the bounded inflating
    PYTHONPATH=/tmp/before/src python benchmarks/bench_bombs.py --mib 256
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import tracemalloc
import zlib
from collections.abc import Iterator
from pathlib import Path

from qrelsmith.ingest import read_warc

HTTP = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
BLOCK = b"a" * (1 << 20)


def page(size: int) -> Iterator[bytes]:
    """``size`` bytes of one HTML page, a mebibyte at a time."""
    yield b"<html><body><h2>Bomb</h2><p>"
    for _ in range(size >> 20):
        yield BLOCK


def compressed(size: int, wbits: int) -> bytes:
    deflate = zlib.compressobj(9, zlib.DEFLATED, wbits)
    return b"".join(deflate.compress(chunk) for chunk in page(size)) + deflate.flush()


def chunked(body: bytes) -> bytes:
    return b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"


ENCODINGS = {
    "gzip": (lambda n: compressed(n, zlib.MAX_WBITS | 16), "Content-Encoding: gzip\r\n"),
    "deflate": (lambda n: compressed(n, zlib.MAX_WBITS), "Content-Encoding: deflate\r\n"),
    "raw deflate": (lambda n: compressed(n, -zlib.MAX_WBITS), "Content-Encoding: deflate\r\n"),
    "chunked gzip": (
        lambda n: chunked(compressed(n, zlib.MAX_WBITS | 16)),
        "Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n",
    ),
}


def write_warc(path: Path, body: bytes, headers: str) -> Path:
    http = HTTP + headers.encode() + b"\r\n"
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/bomb\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http) + len(body)}\r\n\r\n"
    ).encode()
    path.write_bytes(head + http + body + b"\r\n\r\n")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mib", type=int, default=256, help="what the body inflates to")
    args = parser.parse_args()
    print(f"a body inflating to {args.mib} MiB; peak of Python's allocations while read")
    with tempfile.TemporaryDirectory(prefix="bench-bombs-") as tmp:
        # the readers' lazy imports, once, before anything is traced
        list(read_warc(write_warc(Path(tmp) / "warm.warc", compressed(0, 31), "")))
        for name, (make, headers) in ENCODINGS.items():
            path = write_warc(Path(tmp) / "bomb.warc", make(args.mib << 20), headers)
            for cap in (1, 20):
                tracemalloc.start()
                pages = list(read_warc(path, limit=cap << 20))
                peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                print(
                    f"{name:13s} cap {cap:2d} MiB: peak {peak / 2**20:7.1f} MiB ({pages[0].error})"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
