"""Play a run in chunks on a pool of threads, delivering results in order.

A run of ``total`` games is cut into chunks of ``chunk_size`` games. Each chunk
is cut again into one contiguous sub-range per thread, and ``play(first, count)``
plays a sub-range. ``play`` releases the GIL (it calls a ``nogil`` kernel), so
the threads really run in parallel.

Because every game draws from its own random stream keyed by its index (see
``rng.py``), the concatenated results depend only on the game indices, never on
``threads`` or ``chunk_size``.

Memory stays bounded: at most two chunks exist at a time, the one being
delivered to ``on_chunk`` and the next one being played.
"""
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from analyzer.engine import stop
from analyzer.errors import AnalyzerError

T = TypeVar("T")


def split(total: int, chunk_size: int) -> list[tuple[int, int]]:
    """``(first, count)`` ranges of at most ``chunk_size`` games covering ``range(total)``."""
    if total < 0:
        raise AnalyzerError(f"the number of games must not be negative, got {total}")
    if chunk_size < 1:
        raise AnalyzerError(f"the chunk size must be at least 1, got {chunk_size}")
    return [(first, min(chunk_size, total - first)) for first in range(0, total, chunk_size)]


def _sub_ranges(first: int, count: int, parts: int) -> list[tuple[int, int]]:
    """``count`` games from ``first`` in ``parts`` contiguous, near-equal, non-empty ranges."""
    base, extra = divmod(count, parts)
    ranges = []
    for i in range(parts):
        size = base + (1 if i < extra else 0)
        if size:
            ranges.append((first, size))
            first += size
    return ranges


class _Chunks:
    """The chunks of a run, cut as they are needed (a run of 10 billion races
    never holds a list of its chunks). Fixed: every chunk ``chunk_size`` games.
    Adaptive: chunks sized so each takes about ``target`` seconds at the rate
    measured so far (from ``first_size``, at most ``chunk_size``), so progress
    moves at least that often whatever the game's speed; which games a thread
    plays never changes a result (streams are keyed by game index)."""

    def __init__(self, total: int, chunk_size: int, first_size: int | None, target: float):
        self.total, self.chunk_size, self.target = total, chunk_size, target
        self.next_first = 0
        self.size = chunk_size if first_size is None else max(1, min(first_size, chunk_size))
        self.adaptive = first_size is not None

    def take(self) -> tuple[int, int] | None:
        if self.next_first >= self.total:
            return None
        first, count = self.next_first, min(self.size, self.total - self.next_first)
        self.next_first += count
        return first, count

    def measured(self, count: int, seconds: float) -> None:
        if self.adaptive and seconds > 0:
            self.size = max(1, min(self.chunk_size, int(count / seconds * self.target)))


def run_chunks(
    play: Callable[[int, int], T],
    total: int,
    *,
    chunk_size: int,
    threads: int,
    on_chunk: Callable[[int, int, list[T]], None],
    progress=None,
    first_chunk: int | None = None,
    target_seconds: float = 0.25,
) -> None:
    """Play games ``0 .. total-1`` and hand each chunk's results to ``on_chunk``.

    ``on_chunk(first, count, parts)`` runs in the calling thread, once per chunk,
    in chunk order, with ``parts`` in game order. While it runs, the next chunk
    is already being played. ``progress.advance(count)`` follows each chunk.
    With ``first_chunk``, chunks start at that size and then take about
    ``target_seconds`` each (at most ``chunk_size``).
    An exception from ``play`` or ``on_chunk`` (KeyboardInterrupt included)
    cancels the games not started yet and propagates.
    """
    import time

    if threads < 1:
        raise AnalyzerError(f"the number of threads must be at least 1, got {threads}")
    if total < 0:
        raise AnalyzerError(f"the number of games must not be negative, got {total}")
    if chunk_size < 1:
        raise AnalyzerError(f"the chunk size must be at least 1, got {chunk_size}")
    chunks = _Chunks(total, chunk_size, first_chunk, target_seconds)
    pool = ThreadPoolExecutor(threads, thread_name_prefix="analyzer-play")
    in_flight: list[tuple[int, int, float, list[Future]]] = []

    def submit() -> None:
        taken = chunks.take()
        if taken is not None:
            first, count = taken
            in_flight.append((first, count, time.perf_counter(),
                              [pool.submit(play, f, c) for f, c in _sub_ranges(first, count, threads)]))

    try:
        submit()
        while in_flight:
            # Queue chunk k+1 before waiting for chunk k: threads that finish
            # their part of chunk k early move straight on instead of idling.
            if len(in_flight) < 2:
                submit()
            first, count, started, futures = in_flight.pop(0)
            parts = [future.result() for future in futures]
            stop.check()  # a signal whose KeyboardInterrupt was lost (see stop.py)
            chunks.measured(count, time.perf_counter() - started)
            on_chunk(first, count, parts)
            del parts  # let the chunk go before the next one is played
            if progress is not None:
                progress.advance(count)
    except BaseException as exc:
        # A running kernel cannot be stopped. After an error we wait for it so
        # nothing runs behind the caller's back; after Ctrl-C (or a SIGTERM,
        # which the CLI turns into one) we return at once so the user is not
        # kept waiting for a whole sub-range.
        pool.shutdown(wait=not isinstance(exc, KeyboardInterrupt), cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def interruptible(fn: Callable[[], T]) -> T:
    """``fn()`` run in a daemon thread while the calling thread waits in short
    steps, so Ctrl-C and SIGTERM reach the caller even while ``fn`` is stuck in
    compiled code (a user bot's warm-up race that never ends). On interrupt the
    thread is abandoned; the CLI then exits without waiting for it."""
    import threading

    box: dict = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as e:  # handed to the caller
            box["error"] = e

    worker = threading.Thread(target=target, name="analyzer-warm-up", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.1)
        stop.check()
    if "error" in box:
        raise box["error"]
    return box.get("value")
