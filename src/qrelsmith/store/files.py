"""Small file helpers shared by the stages that touch disk: atomic writes and JSON lines.

Every output is written to a temporary file in the target folder and renamed into place, so an
interrupted run never leaves a half-written file under its final name.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from pydantic import BaseModel

from ..errors import DataError, UsageError
from .layout import lock_name


def json_line(record: BaseModel) -> bytes:
    """A record as one line of JSON lines, in UTF-8: ``dumps``'s JSON and a line break,
    straight from pydantic's serializer, which writes bytes (no decode to text and encode back
    of every section's text). A build's JSON lines files are written from it."""
    return record.__pydantic_serializer__.to_json(record, by_alias=True) + b"\n"


def dumps(value: Any) -> str:
    """Compact JSON as text without ASCII escaping (Japanese stays readable), keys in field order.

    Records go through pydantic's own serializer: for long section texts it is 2-3x faster than
    ``json.dumps``. Lines written as bytes take ``json_line`` instead.
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
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:  # the system names the temporary file: the user gave ``path``
        raise DataError(f"cannot write {target}: {exc.strerror or exc}") from exc
    # mkstemp makes the file 0600: an output gets the mode any new file would get (0644
    # under the usual umask 022), or other users could not read a shared golden set.
    if hasattr(os, "fchmod"):  # POSIX; Windows has no modes to speak of
        os.fchmod(fd, 0o666 & ~current_umask())
    handle = opener(fd)
    try:
        try:
            yield handle
        except OSError as exc:
            # a write into this file (a full disk): the system names no file, we do; pyarrow
            # raises its own OSError kinds with the reason only in the text
            if exc.filename is not None:
                raise
            raise DataError(f"cannot write {target}: {exc.strerror or exc}") from exc
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


def json_error(exc: json.JSONDecodeError) -> str:
    """json's message with the column where it stopped ("Unterminated string starting at
    column 12"); the caller names the file and line."""
    return f"{exc.msg.removesuffix(' at')} at column {exc.colno}"


#: Byte order marks of the encodings a text file for qrelsmith is not in (UTF-32 first: its
#: little-endian mark starts with UTF-16's).
FOREIGN_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def foreign_encoding(head: bytes) -> str | None:
    """The encoding a file's byte order mark names, when it is not UTF-8's."""
    for bom, encoding in FOREIGN_BOMS:
        if head.startswith(bom):
            return encoding
    return None


def not_utf8(name: object, head: bytes, exc: UnicodeDecodeError | None, line: int = 0) -> DataError:
    """The error for a text file that is not UTF-8: the encoding its byte order mark names,
    or the line holding the first byte that is no UTF-8."""
    encoding = foreign_encoding(head)
    if encoding is not None:
        return DataError(
            f"{name}: the file is {encoding} text (its byte order mark says so); save it as UTF-8"
        )
    where = f"{name}:{line}" if line else f"{name}"
    offset = f" (byte {exc.start} of the line)" if exc is not None and line else ""
    return DataError(f"{where}: not UTF-8 text{offset}; save the file as UTF-8")


def decode_utf8(data: bytes, name: object) -> str:
    """The text of a whole file that must be UTF-8 (a UTF-8 byte order mark is dropped); a
    DataError naming the file, the line and the encoding otherwise."""
    if foreign_encoding(data[:4]):
        raise not_utf8(name, data[:4], None)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        start = data.rfind(b"\n", 0, exc.start) + 1
        inner = UnicodeDecodeError("utf-8", data, exc.start - start, exc.end - start, exc.reason)
        raise not_utf8(name, data[:4], inner, line) from None


def _utf8_lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """(number, text) of the lines of a UTF-8 file, read as they come; a DataError naming the
    file and the line where it is not UTF-8."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from exc
    with handle:
        head = handle.peek(4)[:4] if hasattr(handle, "peek") else b""
        if foreign_encoding(head):
            raise not_utf8(path, head, None)
        for number, raw in enumerate(handle, 1):
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise not_utf8(path, head, exc, number) from None
            yield number, line


def read_jsonl(
    path: str | Path, maybe: Callable[[str], bool] | None = None
) -> Iterator[dict[str, Any]]:
    """Yield the objects of a JSON-lines file; a bad line raises DataError naming it.

    ``maybe`` is a cheap test on the raw line: lines it rejects are not even parsed (it must
    never reject a line the caller wants).
    """
    for number, line in _utf8_lines(path):
        if not line.strip() or (maybe is not None and not maybe(line)):
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}:{number}: not valid JSON: {json_error(exc)}") from exc
        if not isinstance(value, dict):
            raise DataError(f"{path}:{number}: expected a JSON object")
        yield value


def read_source(source: str | Path | IO[str]) -> tuple[str, str]:
    """(content, name) of a path, ``-`` (stdin) or an open text file; a missing path is a
    UsageError, an unreadable one a DataError."""
    if not isinstance(source, str | Path):
        return source.read(), str(getattr(source, "name", "<stream>"))
    if str(source) == "-":
        raw = getattr(sys.stdin, "buffer", None)  # None: stdin replaced by a text stream
        return (decode_utf8(raw.read(), "stdin") if raw else sys.stdin.read()), "stdin"
    try:
        with open(source, "rb") as handle:
            data = handle.read()
    except FileNotFoundError as exc:
        raise UsageError(f"input path not found: {source}") from exc
    except OSError as exc:
        raise DataError(f"cannot read {source}: {exc.strerror or exc}") from exc
    return decode_utf8(data, source), str(source)


def iter_lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """Numbered lines of a text file without their line ending; DataError when unreadable."""
    try:
        for number, line in _utf8_lines(path):
            yield number, line.rstrip("\n").rstrip("\r")
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from exc


def first_bad_line(lines: Iterable[str], fields: int) -> int:
    """The number of the first non-blank line that does not split into ``fields`` fields (0:
    none): where a TREC file stops being one."""
    for number, line in enumerate(lines, 1):
        parts = line.split()
        if parts and len(parts) != fields:
            return number
    return 0


#: Names of a staging folder and of the previous build during a swap, beside ``--out``
#: (``.<out>.staging-<random>``, ``.<out>.old-<random>``): hidden, so a crawl folder holding
#: the build does not read them as pages, and on the same file system, so renames are atomic.
STAGING_MARK = ".staging-"
BACKUP_MARK = ".old-"


class StagedFolder:
    """A folder written in a staging folder beside it and swapped in whole, under a lock.

    ``with StagedFolder(out) as staged:`` takes an exclusive lock on ``.<out>.lock`` (a second
    writer fails at once with a DataError), clears what a killed writer left, and gives
    ``staged.path``, an empty folder to write into. ``staged.carry(name)`` links an entry of
    the previous folder into it; ``staged.commit(keep)`` carries every entry ``keep`` names,
    then swaps: the previous folder is renamed aside, the staging folder renamed to ``out``,
    the previous one removed. Leaving the block without ``commit`` removes the staging folder
    and leaves ``out`` as it was. Interrupts are held off during the two renames; should the
    second fail, the previous folder is put back, and should the process die between them,
    the next writer puts it back before it starts.
    """

    def __init__(self, out: str | Path, lock: bool = True, what: str = "build") -> None:
        self.shown = Path(out)
        self.what = what  # the command writing, named in the lock for a second writer
        # Renames work on the folder itself, not on a symbolic link to it.
        self.target = Path(os.path.realpath(out))
        self.parent = self.target.parent
        self.name = self.target.name
        self.path = self.target  # set to the staging folder on entering
        self._lock: IO[bytes] | None = None
        self._locked = lock  # False: the caller holds the lock of the folder this is in
        self._committed = False

    def __enter__(self) -> StagedFolder:
        self.parent.mkdir(parents=True, exist_ok=True)
        if self._locked:
            lock = self.parent / lock_name(self.name)
            self._lock = _exclusive_lock(lock, self.shown, what=self.what)
        try:
            self._recover()
            self.path = Path(
                tempfile.mkdtemp(prefix=f".{self.name}{STAGING_MARK}", dir=self.parent)
            )
            usual_mode(self.path)
        except OSError as exc:
            self._unlock()
            raise DataError(f"cannot write {self.shown}: {exc.strerror or exc}") from exc
        except BaseException:
            self._unlock()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            if not self._committed:
                shutil.rmtree(self.path, ignore_errors=True)
        finally:
            self._unlock()
        shown = self._shown(error)
        if shown is not None:
            raise DataError(shown) from error

    def _shown(self, error: BaseException | None) -> str | None:
        """The message of an error that names a path inside the staging folder, with the
        path the user gave instead (``.out.staging-x1y2/ragas.jsonl`` -> ``out/ragas.jsonl``);
        None for any other error."""
        staging = os.fspath(self.path)
        if self.path == self.target or not isinstance(error, OSError | DataError):
            return None
        if isinstance(error, OSError):
            named = os.fspath(error.filename) if error.filename is not None else ""
            if not named.startswith(staging):
                return None
            return f"cannot write {named.replace(staging, os.fspath(self.shown), 1)}: " + (
                error.strerror or str(error)
            )
        message = str(error)
        return message.replace(staging, os.fspath(self.shown)) if staging in message else None

    def _leftovers(self, mark: str) -> list[Path]:
        prefix = f".{self.name}{mark}"
        return sorted(p for p in self.parent.iterdir() if p.name.startswith(prefix))

    def _recover(self) -> None:
        backups = self._leftovers(BACKUP_MARK)
        if backups and not self.target.exists():
            os.rename(backups.pop(), self.target)
        for stale in backups + self._leftovers(STAGING_MARK):
            shutil.rmtree(stale, ignore_errors=True)

    def _unlock(self) -> None:
        release_lock(self._lock)
        self._lock = None

    def carry(self, name: str) -> None:
        """Hard-link the previous folder's entry ``name`` (file or folder) into the staging
        folder (copied where links are refused); nothing when there is none."""
        source = self.target / name
        if not source.exists() and not source.is_symlink():
            return
        destination = self.path / name
        if source.is_dir() and not source.is_symlink():
            shutil.copytree(source, destination, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(os.fspath(source), os.fspath(destination))

    def commit(self, keep: Callable[[str], bool] = lambda name: False) -> None:
        """Carry the previous folder's entries that ``keep`` names, then swap the folders."""
        if self.target.is_dir():
            for entry in sorted(os.listdir(self.target)):
                if keep(entry) and not (self.path / entry).exists():
                    self.carry(entry)
        backup = self.parent / f".{self.name}{BACKUP_MARK}{self.path.name.rsplit('-', 1)[-1]}"
        with _interrupts_held():
            had_previous = self.target.exists()
            if had_previous:
                os.rename(self.target, backup)
            try:
                os.rename(self.path, self.target)
            except BaseException:
                if had_previous:
                    os.rename(backup, self.target)
                raise
            self._committed = True
        shutil.rmtree(backup, ignore_errors=True)


#: Lock files this process holds. A worker process forked while a build holds its lock gets
#: a copy of the descriptor, and an flock lock lasts while any copy is open: a worker that
#: outlived a killed build would block every later one. Each forked child closes its copies.
_HELD: set[IO[bytes]] = set()


def _drop_inherited_locks() -> None:
    for handle in list(_HELD):
        with contextlib.suppress(OSError):
            handle.close()
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_drop_inherited_locks)


def _holder(handle: IO[bytes]) -> str:
    """ ", process N: COMMAND" for the holder the lock file names, "" when it names none."""
    with contextlib.suppress(OSError, ValueError):
        handle.seek(0)
        pid, _, what = handle.read(200).decode("utf-8", "replace").strip().partition(" ")
        if int(pid) > 0:
            return f", process {int(pid)}" + (f": {what}" if what else "")
    return ""


def _exclusive_lock(
    path: Path, shown: Path, wait: Callable[[str], None] | None = None, what: str = "build"
) -> IO[bytes] | None:
    """Hold the exclusive lock on ``path``: a DataError at once when another process holds it,
    or, with ``wait``, tell ``wait`` why and block until it is free. The kernel releases the
    lock when its holder dies, however it dies, so a lock held by no live process never
    blocks; the file names the holder's process id, for the message."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks of this kind, builds are not guarded
        return None
    while True:
        try:
            handle = open(path, "a+b")  # noqa: SIM115 - held until the writer is done
        except OSError as exc:  # the folder's parent cannot be written: name the folder
            raise DataError(f"cannot write {shown}: {exc.strerror or exc} (at {path})") from exc
        try:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if wait is None:
                    raise DataError(
                        f"another qrelsmith command is writing into {shown} (it holds {path}"
                        f"{_holder(handle)}); wait for it to end"
                    ) from None
                wait(
                    f"waiting for the other qrelsmith command writing into {shown} to end "
                    f"({path}{_holder(handle)})"
                )
                fcntl.flock(handle, fcntl.LOCK_EX)
        except BaseException:
            handle.close()
            raise
        if _still_there(handle, path):
            break
        handle.close()  # its holder removed it as it finished: lock the file now at path
    try:
        handle.truncate(0)
        handle.write(f"{os.getpid()} {what}\n".encode())
        handle.flush()
    except BaseException as exc:
        # the lock is ours: removed, or a full disk would leave it behind (issue 27)
        with contextlib.suppress(OSError):
            os.unlink(path)
        with contextlib.suppress(OSError):  # the close flushes the pid again: a full disk
            handle.close()
        if isinstance(exc, OSError):
            raise DataError(f"cannot write {shown}: {exc.strerror or exc} (at {path})") from exc
        raise
    _HELD.add(handle)
    return handle


def _still_there(handle: IO[bytes], path: Path) -> bool:
    """Whether the file ``handle`` locked is still the one at ``path`` (``release_lock``
    removes it while it is held: a lock on the removed file guards nothing)."""
    try:
        return os.fstat(handle.fileno()).st_ino == os.stat(path).st_ino
    except FileNotFoundError:
        return False


def release_lock(handle: IO[bytes] | None) -> None:
    """Let go of a lock ``_exclusive_lock`` took. The file is removed while still held, so no
    command leaves a ``.<out>.lock`` behind; one waiting on it then finds it gone and locks a
    new one (``_still_there``)."""
    if handle is not None:
        _HELD.discard(handle)
        with contextlib.suppress(OSError):
            os.unlink(handle.name)
        handle.close()


@contextlib.contextmanager
def build_lock(
    folder: str | Path, what: str, wait: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold the lock a build of ``folder`` holds, for the command ``what`` that writes into
    the build folder in place (``audit apply``, ``audit sample``, ``diff``): it waits while a
    build (or another such command) is writing, and ``wait`` is told so; a build started
    meanwhile fails at once, as it does beside another build."""
    target = Path(os.path.realpath(folder))
    lock = target.parent / lock_name(target.name)
    handle = _exclusive_lock(lock, Path(folder), wait or (lambda _: None), what)
    try:
        yield
    finally:
        release_lock(handle)


def _link_or_copy(source: str, destination: str) -> str:
    try:
        os.link(source, destination)
    except OSError:  # a file system without hard links, or a file we may not link
        shutil.copy2(source, destination)
    return destination


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Delay SIGINT and SIGTERM until the block is done (a swap is two renames)."""
    held = {signal.SIGINT, signal.SIGTERM}
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
