"""The time limit of one page (``build.page_timeout``): a SIGALRM timer around its work."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


class PageTimeout(Exception):
    """A page took longer than ``build.page_timeout``."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise PageTimeout in the block after ``seconds`` of wall time.

    A SIGALRM timer, so only in the main thread on Unix (a worker process's, or the CLI's);
    elsewhere, for 0, and while a timer of the calling program is pending (it is left alone),
    there is no limit. The previous handler is put back. Regexes and Python loops are
    interrupted where they are; a libxml2 call finishes first (its work is linear in the page).
    """
    if (
        seconds <= 0
        or not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_REAL)[0] > 0
    ):
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise PageTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
