"""A one-line progress bar for long training runs: rounds done, time spent
and time left, rewritten in place on a terminal."""

from __future__ import annotations

import sys
import time
from typing import Callable, TextIO

__all__ = ["ProgressBar", "wants_progress_bar", "AUTO_MIN_ROUNDS"]

# Shorter runs finish before a bar would tell anything.
AUTO_MIN_ROUNDS = 100
_WIDTH = 24
# Redrawing every round of a fast run would cost more than the round.
_REDRAW_SECONDS = 0.1


def _is_terminal(stream) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def wants_progress_bar(progress_bar: bool | None, num_rounds: int, verbose: int) -> bool:
    """Whether to show the bar: as asked, or by default when stderr is a
    terminal, the run is long and the evaluation lines are not printed
    (they already show progress)."""
    if progress_bar is not None:
        if not isinstance(progress_bar, bool):
            raise TypeError(f"progress_bar must be True, False or None, got "
                            f"{type(progress_bar).__name__}")
        return progress_bar
    return (not verbose and num_rounds >= AUTO_MIN_ROUNDS
            and _is_terminal(sys.stderr))


def _clock(seconds: float) -> str:
    """[h:]mm:ss."""
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class ProgressBar:
    """``[#####-----] 40/100 rounds  elapsed 00:12  left 00:18`` on one
    line of the stream, redrawn with a carriage return. The time left
    assumes the remaining rounds take as long as the mean round so far."""

    def __init__(self, total: int, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.total = max(int(total), 1)
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.start = clock()
        self.done = 0
        self._drawn_at: float | None = None
        self._shown = 0  # length of the line on screen

    def line(self) -> str:
        elapsed = self.clock() - self.start
        filled = min(_WIDTH, self.done * _WIDTH // self.total)
        left = ("--:--" if self.done == 0 else
                _clock(elapsed / self.done * max(self.total - self.done, 0)))
        return (f"[{'#' * filled}{'-' * (_WIDTH - filled)}] {self.done}/{self.total} rounds"
                f"  elapsed {_clock(elapsed)}  left {left}")

    def _draw(self) -> None:
        text = self.line()
        pad = " " * max(self._shown - len(text), 0)
        self.stream.write("\r" + text + pad)
        self.stream.flush()
        self._shown = len(text)
        self._drawn_at = self.clock()

    def update(self, rounds_done: int) -> None:
        self.done = rounds_done
        now = self.clock()
        if (self._drawn_at is None or self.done >= self.total
                or now - self._drawn_at >= _REDRAW_SECONDS):
            self._draw()

    def clear(self) -> None:
        """Blank the line, so that other output starts at its beginning;
        the next update draws it again."""
        if self._shown:
            self.stream.write("\r" + " " * self._shown + "\r")
            self.stream.flush()
            self._shown = 0
            self._drawn_at = None

    def close(self) -> None:
        """Draw the final state (also when training stopped early) and end
        the line."""
        self._draw()
        self.stream.write("\n")
        self.stream.flush()
        self._shown = 0
