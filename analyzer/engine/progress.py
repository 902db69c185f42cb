"""A one-line progress bar on stderr, for runs long enough to need one.

The bar is redrawn in place with a carriage return, at most ten times a second,
so drawing costs nothing next to the games. Left to decide for itself it shows
only on a terminal and only once the run has lasted half a second: short runs
and redirected output stay clean.
"""
import shutil
import sys
import time
from collections.abc import Callable

_REDRAW_EVERY = 0.1  # seconds
_AUTO_DELAY = 0.5  # seconds before an automatic bar appears
_BAR_WIDTH = 24


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


class Progress:
    """``with Progress(total, "games") as p: ... p.advance(n)``.

    ``enabled``: True always draws, False never does, None draws when ``stream``
    is a terminal and the run is still going after half a second.
    """

    def __init__(self, total: int, label: str, *, enabled: bool | None = None,
                 stream=None, clock: Callable[[], float] = time.monotonic):
        # stderr is looked up now, not at import, so a redirected stderr is honoured
        self.stream = sys.stderr if stream is None else stream
        self.total = total
        self.label = label
        self.done = 0
        self._clock = clock
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            self._enabled = bool(isatty and isatty())
            self._delay = _AUTO_DELAY
        else:
            self._enabled = enabled
            self._delay = 0.0
        self._start = clock()
        self._last_draw = None
        self._shown = False
        self._width = 0

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if not self._shown:
            return
        if exc_type is None:
            self._draw(self._clock())
            self.stream.write("\n")
        else:
            # wipe the bar so the error message starts on a clean line
            self.stream.write("\r" + " " * self._width + "\r")
        self.stream.flush()

    def advance(self, n: int) -> None:
        self.done += n
        if not self._enabled:
            return
        now = self._clock()
        if now - self._start < self._delay:
            return
        if self._last_draw is not None and now - self._last_draw < _REDRAW_EVERY:
            return
        self._draw(now)

    def render(self, now: float) -> str:
        """The bar's text at time ``now`` (of the progress clock)."""
        total = max(self.total, 1)
        fraction = min(self.done / total, 1.0)
        filled = int(fraction * _BAR_WIDTH)
        bar = "#" * filled + "." * (_BAR_WIDTH - filled)
        elapsed = max(now - self._start, 1e-9)
        rate = self.done / elapsed
        if self.done >= self.total:
            eta = f"in {_duration(elapsed)}"
        elif rate > 0:
            eta = f"ETA {_duration((self.total - self.done) / rate)}"
        else:
            eta = "ETA ?"
        return (f"{self.label} [{bar}] {fraction:4.0%} "
                f"{self.done:,}/{self.total:,} {rate:,.0f}/s {eta}")

    def _draw(self, now: float) -> None:
        text = self.render(now)
        # a line longer than the terminal would wrap, and \r only rewinds one row
        columns = shutil.get_terminal_size((80, 24)).columns - 1
        text = text[:columns]
        # pad over the tail of a longer previous line
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()
        self._width = len(text)
        self._last_draw = now
        self._shown = True
