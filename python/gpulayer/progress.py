"""A progress bar for long training runs: rounds done, time spent and time
left. With tqdm installed it is tqdm's (``tqdm.auto``: a widget in a
Jupyter notebook, a line of text on a terminal); without it, one line
rewritten in place on a terminal."""

from __future__ import annotations

import sys
import time
from typing import Callable, TextIO

__all__ = ["ProgressBar", "TqdmBar", "make_progress_bar", "wants_progress_bar",
           "AUTO_MIN_ROUNDS"]

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


def _tqdm_auto():
    """tqdm.auto's bar class, or None when tqdm is not installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm


def _in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (where stderr is no terminal,
    but tqdm.auto draws a widget)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except Exception:  # an IPython too old or half imported
        return False
    return type(shell).__name__ == "ZMQInteractiveShell"


def wants_progress_bar(progress_bar: bool | None, num_rounds: int, verbose: int) -> bool:
    """Whether to show the bar: as asked, or by default when the run is
    long, the evaluation lines are not printed (they already show
    progress) and stderr is a terminal, or this runs in a notebook and
    tqdm is installed."""
    if progress_bar is not None:
        if not isinstance(progress_bar, bool):
            raise TypeError(f"progress_bar must be True, False or None, got "
                            f"{type(progress_bar).__name__}")
        return progress_bar
    if verbose or num_rounds < AUTO_MIN_ROUNDS:
        return False
    return _is_terminal(sys.stderr) or (_in_notebook() and _tqdm_auto() is not None)


def make_progress_bar(total: int):
    """tqdm's bar (tqdm.auto) when tqdm is installed, else ProgressBar;
    both take update(rounds_done), clear() and close()."""
    tqdm = _tqdm_auto()
    if tqdm is not None:
        return TqdmBar(total, tqdm)
    return ProgressBar(total)


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


class TqdmBar:
    """The training bar drawn by a tqdm class (tqdm.auto's by default):
    rounds done, elapsed time and time left, as tqdm shows them."""

    def __init__(self, total: int, tqdm=None):
        if tqdm is None:
            tqdm = _tqdm_auto()
        self.total = max(int(total), 1)
        self.done = 0
        self._cleared = False
        self._bar = tqdm(total=self.total, unit="round", desc="training",
                         mininterval=_REDRAW_SECONDS, leave=True)

    def update(self, rounds_done: int) -> None:
        step = int(rounds_done) - self.done
        self.done = int(rounds_done)
        if step > 0:
            self._bar.update(step)
        if self._cleared:  # drawn again after the lines printed below it
            self._bar.refresh()
            self._cleared = False

    def clear(self) -> None:
        """Blank the bar, so that other output starts on a clean line; the
        next update draws it again."""
        self._bar.clear()
        self._cleared = True

    def close(self) -> None:
        """Leave the final state (also when training stopped early)."""
        self._bar.close()
