"""files.py's build lock where fcntl is missing (Windows): msvcrt's byte lock, played here."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


class _FakeMsvcrt:
    """msvcrt's byte locks as Windows gives them (a failed try raises OSError; no wait of its
    own here), played by flock on this system; and Windows' refusal to remove an open file."""

    LK_NBLCK, LK_UNLCK = 2, 0

    def __init__(self) -> None:
        import fcntl

        self._fcntl = fcntl
        self.tries = 0

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        assert nbytes == 1
        if mode == self.LK_UNLCK:
            self._fcntl.flock(fd, self._fcntl.LOCK_UN)
            return
        self.tries += 1
        try:
            self._fcntl.flock(fd, self._fcntl.LOCK_EX | self._fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise PermissionError(13, "Permission denied") from exc  # what msvcrt raises


def test_the_lock_on_windows_is_msvcrts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Without fcntl (Windows) a second writer is refused, a waiting one gets the lock when the
    # first lets go, and no lock file stays behind once nobody holds it open.
    import contextlib
    import sys
    import threading
    import time

    from qrelsmith.errors import DataError
    from qrelsmith.store import files
    from qrelsmith.store.files import _exclusive_lock, release_lock

    fake = _FakeMsvcrt()
    real_unlink = os.unlink

    def windows_unlink(name: str | Path) -> None:
        # Windows removes no file a process holds open (here: any descriptor of this one).
        held_open = False
        for fd in os.listdir("/proc/self/fd"):
            with contextlib.suppress(OSError):
                held_open |= os.readlink(f"/proc/self/fd/{fd}") == os.fspath(name)
        if held_open:
            raise PermissionError(13, "The process cannot access the file", name)
        real_unlink(name)

    monkeypatch.setitem(sys.modules, "fcntl", None)  # import fcntl raises ImportError
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    monkeypatch.setattr(files, "LOCK_RETRY_SECONDS", 0.01)
    monkeypatch.setattr(os, "unlink", windows_unlink)
    path = tmp_path / ".out.lock"
    first = _exclusive_lock(path, tmp_path / "out")
    with pytest.raises(DataError, match="is writing into"):
        _exclusive_lock(path, tmp_path / "out")
    waiting = threading.Event()
    held: list[object] = []
    waiter = threading.Thread(
        target=lambda: held.append(
            _exclusive_lock(path, tmp_path / "out", lambda _: waiting.set(), "audit")
        )
    )
    waiter.start()
    assert waiting.wait(10)
    time.sleep(0.2)
    assert not held  # still waiting while the first holds the lock
    tries = fake.tries
    release_lock(first)
    waiter.join(10)
    assert held and fake.tries > tries  # the waiter tried again until the lock was free
    release_lock(held[0])  # type: ignore[arg-type]
    assert not path.exists()
