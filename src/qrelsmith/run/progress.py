"""A one-line progress display on stderr: pages done, pages/s and an ETA, from the page count
when it is known (folders) or from the share of the input bytes read (WARC, JSONL).

Shown only when the stream is a terminal (a log file or a pipe gets nothing) and the user did
not ask for quiet; redrawn at most every ``REDRAW_SECONDS`` so it costs nothing measurable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

#: How often the line is redrawn; faster is flicker, slower looks stuck.
REDRAW_SECONDS = 0.2


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def _size(count: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if count >= scale:
            return f"{count / scale:,.1f} {unit}"
    return f"{count} B"


class Progress:
    """Counts pages and redraws one ``\\r`` line; a no-op when not ``enabled``."""

    def __init__(
        self,
        total: int | None,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        label: str = "pages",
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled
        self.total, self.label = total, label
        self.done = 0
        #: For inputs whose page count is unknown (WARC, JSONL): their size, and how much of
        #: it has been read; the share read gives the ETA.
        self.total_bytes: int | None = None
        self.bytes_done = 0
        self.started = time.monotonic()
        self._drawn = 0.0
        self._width = 0

    def advance(self, count: int = 1) -> None:
        """Count ``count`` more pages done."""
        self.done += count
        if self.enabled:
            now = time.monotonic()
            if now - self._drawn >= REDRAW_SECONDS:
                self._drawn = now
                self._draw(now)

    def line(self, now: float | None = None) -> str:
        """The text of the progress line."""
        elapsed = max((now or time.monotonic()) - self.started, 1e-9)
        rate = self.done / elapsed
        if self.total:
            share = min(self.done / self.total, 1.0)
            text = f"{self.done:,}/{self.total:,} {self.label} ({share:.0%}), {rate:,.0f}/s"
            if rate > 0 and self.done < self.total:
                text += f", ETA {_duration((self.total - self.done) / rate)}"
            return text
        if self.total_bytes:
            share = min(self.bytes_done / self.total_bytes, 1.0)
            text = (
                f"{self.done:,} {self.label} ({share:.0%} of {_size(self.total_bytes)} read), "
                f"{rate:,.0f}/s"
            )
            if 0 < share < 1:
                text += f", ETA {_duration(elapsed * (1 - share) / share)}"
            return text
        return f"{self.done:,} {self.label}, {rate:,.0f}/s, {_duration(elapsed)} elapsed"

    def _draw(self, now: float) -> None:
        self._show(self.line(now))

    def status(self, text: str) -> None:
        """Replace the line with a phase message (e.g. while the outputs are merged)."""
        if self.enabled:
            self._show(text)

    def _show(self, text: str) -> None:
        padding = " " * max(self._width - len(text), 0)
        self._width = len(text)
        self.stream.write(f"\r{text}{padding}")
        self.stream.flush()

    def close(self) -> None:
        """Clear the line, so the summary that follows starts on a clean one."""
        if self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0
