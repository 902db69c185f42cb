"""The progress display of long commands: a rich progress bar on stderr.

Left to decide for itself it shows only when stderr is a terminal, so pipes,
files and notebooks stay clean; ``--progress``/``--no-progress`` force it.
Rich redraws it from its own thread four times a second, so the elapsed time
moves even while a chunk is being played; the simulate loop sizes its chunks
so the count moves about as often (``runner.run_chunks``). A compile or
warm-up shows as its own phase (``phase``) before the bar fills.
"""
from __future__ import annotations

import sys
from contextlib import contextmanager

REFRESH_PER_SECOND = 4


def wanted(enabled: bool | None, stream) -> bool:
    """``enabled``, or (None) whether ``stream`` is a terminal."""
    if enabled is not None:
        return enabled
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


class Progress:
    """``with Progress(total, "races") as p: ... p.advance(n)``.

    ``enabled``: True always draws, False never does, None draws when ``stream``
    (default stderr, looked up when the bar is made) is a terminal. ``done`` counts
    what was advanced, drawn or not.
    """

    def __init__(self, total: int, label: str, *, enabled: bool | None = None, stream=None):
        self.stream = sys.stderr if stream is None else stream
        self.total = total
        self.label = label
        self.done = 0
        self.enabled = wanted(enabled, self.stream)
        self._bar = None
        self._task = None

    def __enter__(self) -> "Progress":
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress,
                                       SpinnerColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn,
                                       TimeRemainingColumn)

            console = Console(file=self.stream, force_terminal=True, highlight=False)
            self._bar = RichProgress(
                SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                console=console, refresh_per_second=REFRESH_PER_SECOND, transient=False)
            self._task = self._bar.add_task(self.label, total=self.total)
            self._bar.start()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self._bar is None:
            return
        if exc_type is not None:
            # wipe the bar so the error message starts on a clean line
            self._bar.live.transient = True
        self._bar.stop()
        self._bar = None

    @contextmanager
    def phase(self, text: str):
        """Show ``text`` (e.g. "compiling the bots") while the block runs."""
        if self._bar is not None:
            self._bar.update(self._task, description=f"{self.label}: {text}")
        try:
            yield
        finally:
            if self._bar is not None:
                self._bar.update(self._task, description=self.label)

    def advance(self, n: int) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)
