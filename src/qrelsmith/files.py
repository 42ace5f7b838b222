"""Small file helpers shared by the stages that touch disk: atomic writes and JSON lines.

Every output is written to a temporary file in the target folder and renamed into place, so an
interrupted run never leaves a half-written file under its final name.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel

from .errors import DataError


def dumps(value: Any) -> str:
    """Compact JSON as text without ASCII escaping (Japanese stays readable), keys in field order.

    Records go through pydantic's own serializer: for long section texts it is 2-3x faster than
    ``json.dumps``, and the JSON lines are most of what a build writes.
    """
    if isinstance(value, BaseModel):
        return value.model_dump_json(by_alias=True)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def current_umask() -> int:
    """The process's umask (read by setting it and putting it back: there is no getter)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def usual_mode(path: str | Path) -> None:
    """Give a folder made by ``mkdtemp`` (0700) the mode ``mkdir`` would have given it."""
    os.chmod(path, 0o777 & ~current_umask())


@contextlib.contextmanager
def atomic_open(
    path: str | Path, newline: str | None = "\n", encoding: str = "utf-8"
) -> Iterator[IO[str]]:
    """Open ``path`` for writing text; the file appears under its name only on success.

    A failure to finish the file (a full disk at the last flush) is a DataError naming it; an
    error in the caller's block goes on as it is. Either way the temporary file is removed.
    """
    with _atomic(path, lambda fd: os.fdopen(fd, "w", encoding=encoding, newline=newline)) as f:
        yield f


@contextlib.contextmanager
def atomic_open_bytes(path: str | Path) -> Iterator[IO[bytes]]:
    """``atomic_open`` for bytes (text encoded elsewhere: a build's workers encode theirs)."""
    with _atomic(path, lambda fd: os.fdopen(fd, "wb")) as f:
        yield f


@contextlib.contextmanager
def _atomic(path: str | Path, opener: Callable[[int], IO[Any]]) -> Iterator[IO[Any]]:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    # mkstemp makes the file 0600: an output gets the mode any new file would get (0644
    # under the usual umask 022), or other users could not read a shared golden set.
    if hasattr(os, "fchmod"):  # POSIX; Windows has no modes to speak of
        os.fchmod(fd, 0o666 & ~current_umask())
    handle = opener(fd)
    try:
        yield handle
        try:
            handle.flush()
            os.fsync(handle.fileno())
            handle.close()
            os.replace(tmp, target)
        except OSError as exc:
            raise DataError(f"cannot write {target}: {exc.strerror or exc}") from exc
    except BaseException:
        with contextlib.suppress(OSError):
            handle.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` atomically as UTF-8."""
    with atomic_open(path) as handle:
        handle.write(text)


def write_json(path: str | Path, value: Any) -> None:
    """Write one JSON document, indented, atomically."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", by_alias=True)
    write_text(path, json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def write_jsonl(path: str | Path, records: Iterable[Any]) -> int:
    """Write one JSON value per line, atomically; returns the number of lines."""
    count = 0
    with atomic_open(path) as handle:
        for record in records:
            handle.write(dumps(record))
            handle.write("\n")
            count += 1
    return count


def read_jsonl(
    path: str | Path, maybe: Callable[[str], bool] | None = None
) -> Iterator[dict[str, Any]]:
    """Yield the objects of a JSON-lines file; a bad line raises DataError naming it.

    ``maybe`` is a cheap test on the raw line: lines it rejects are not even parsed (it must
    never reject a line the caller wants).
    """
    try:
        handle = open(path, encoding="utf-8-sig")  # noqa: SIM115 - closed by the with below
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from exc
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip() or (maybe is not None and not maybe(line)):
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"{path}:{number}: not valid JSON: {exc.msg}") from exc
            if not isinstance(value, dict):
                raise DataError(f"{path}:{number}: expected a JSON object")
            yield value
