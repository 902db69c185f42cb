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


def run_chunks(
    play: Callable[[int, int], T],
    total: int,
    *,
    chunk_size: int,
    threads: int,
    on_chunk: Callable[[int, int, list[T]], None],
    progress=None,
) -> None:
    """Play games ``0 .. total-1`` and hand each chunk's results to ``on_chunk``.

    ``on_chunk(first, count, parts)`` runs in the calling thread, once per chunk,
    in chunk order, with ``parts`` in game order. While it runs, the next chunk
    is already being played. ``progress.advance(count)`` follows each chunk.
    An exception from ``play`` or ``on_chunk`` (KeyboardInterrupt included)
    cancels the games not started yet and propagates.
    """
    if threads < 1:
        raise AnalyzerError(f"the number of threads must be at least 1, got {threads}")
    chunks = split(total, chunk_size)
    pool = ThreadPoolExecutor(threads, thread_name_prefix="analyzer-play")
    in_flight: list[list[Future]] = []
    try:
        for k, (first, count) in enumerate(chunks):
            # Queue chunk k+1 before waiting for chunk k: threads that finish
            # their part of chunk k early move straight on instead of idling.
            while len(in_flight) < 2 and k + len(in_flight) < len(chunks):
                next_first, next_count = chunks[k + len(in_flight)]
                in_flight.append([pool.submit(play, f, c)
                                  for f, c in _sub_ranges(next_first, next_count, threads)])
            parts = [future.result() for future in in_flight.pop(0)]
            on_chunk(first, count, parts)
            del parts  # let the chunk go before the next one is played
            if progress is not None:
                progress.advance(count)
    except BaseException as exc:
        # A running kernel cannot be stopped. After an error we wait for it so
        # nothing runs behind the caller's back; after Ctrl-C we return at once
        # so the user is not kept waiting for a whole sub-range.
        pool.shutdown(wait=not isinstance(exc, KeyboardInterrupt), cancel_futures=True)
        raise
    pool.shutdown(wait=True)
