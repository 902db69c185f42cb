import random
import threading
import time

import numpy as np
import pytest

from analyzer.engine.runner import run_chunks, split
from analyzer.errors import AnalyzerError


def toy_play(first, count):
    # results depend only on game indices; the jitter shuffles finishing order
    time.sleep(random.random() * 0.002)
    games = np.arange(first, first + count, dtype=np.int64)
    return games * games % 97


def collect(threads, chunk_size, total=103):
    chunks, parts_seen = [], []

    def on_chunk(first, count, parts):
        chunks.append((first, count))
        parts_seen.extend(parts)

    run_chunks(toy_play, total, chunk_size=chunk_size, threads=threads, on_chunk=on_chunk)
    return chunks, np.concatenate(parts_seen) if parts_seen else np.empty(0, np.int64)


def test_split():
    assert split(10, 4) == [(0, 4), (4, 4), (8, 2)]
    assert split(8, 4) == [(0, 4), (4, 4)]
    assert split(0, 4) == []
    with pytest.raises(AnalyzerError):
        split(10, 0)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("chunk_size", [1, 7, 1000])
def test_results_do_not_depend_on_threads_or_chunks(threads, chunk_size):
    chunks, results = collect(threads, chunk_size)
    assert chunks == split(103, chunk_size)
    expected = np.arange(103) ** 2 % 97
    np.testing.assert_array_equal(results, expected)


def test_parts_are_contiguous_sub_ranges_in_order():
    seen = []

    def play(first, count):
        time.sleep(random.random() * 0.002)
        return (first, count)

    run_chunks(play, 23, chunk_size=10, threads=4,
               on_chunk=lambda first, count, parts: seen.append((first, count, parts)))
    assert seen == [
        (0, 10, [(0, 3), (3, 3), (6, 2), (8, 2)]),
        (10, 10, [(10, 3), (13, 3), (16, 2), (18, 2)]),
        (20, 3, [(20, 1), (21, 1), (22, 1)]),  # empty sub-ranges skipped
    ]


def test_zero_games_calls_nothing():
    calls = []
    run_chunks(toy_play, 0, chunk_size=5, threads=2, on_chunk=lambda *a: calls.append(a))
    assert calls == []


def test_next_chunk_runs_while_on_chunk_handles_current():
    started = []

    def play(first, count):
        started.append(first)
        return first

    def on_chunk(first, count, parts):
        if first == 0:
            # chunk 1 must get started without on_chunk returning
            deadline = time.monotonic() + 5
            while 10 not in started and time.monotonic() < deadline:
                time.sleep(0.001)
            assert 10 in started
            # but not chunk 2: at most one chunk ahead
            assert 20 not in started

    run_chunks(play, 30, chunk_size=10, threads=1, on_chunk=on_chunk)


def test_progress_advances_per_chunk():
    class Recorder:
        def __init__(self):
            self.steps = []

        def advance(self, n):
            self.steps.append(n)

    progress = Recorder()
    run_chunks(toy_play, 25, chunk_size=10, threads=2, on_chunk=lambda *a: None,
               progress=progress)
    assert progress.steps == [10, 10, 5]


def test_exception_in_play_propagates_and_cancels():
    played = []

    def play(first, count):
        played.append(first)
        if first == 20:
            raise RuntimeError("boom")
        return first

    delivered = []
    with pytest.raises(RuntimeError, match="boom"):
        run_chunks(play, 1000, chunk_size=10, threads=1,
                   on_chunk=lambda first, count, parts: delivered.append(first))
    assert delivered == [0, 10]
    assert max(played) <= 30  # the rest of the run was never started


def test_exception_in_on_chunk_propagates():
    played = []

    def play(first, count):
        played.append(first)
        return first

    def on_chunk(first, count, parts):
        if first == 10:
            raise ValueError("bad chunk")

    with pytest.raises(ValueError, match="bad chunk"):
        run_chunks(play, 1000, chunk_size=10, threads=2, on_chunk=on_chunk)
    assert max(played) < 30  # chunk 2 at most, nothing beyond


@pytest.mark.parametrize("where", ["play", "on_chunk"])
def test_keyboard_interrupt_propagates(where):
    def play(first, count):
        if where == "play" and first == 10:
            raise KeyboardInterrupt
        return first

    def on_chunk(first, count, parts):
        if where == "on_chunk" and first == 10:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_chunks(play, 100, chunk_size=10, threads=2, on_chunk=on_chunk)


def test_bad_thread_count():
    with pytest.raises(AnalyzerError):
        run_chunks(toy_play, 10, chunk_size=5, threads=0, on_chunk=lambda *a: None)


def test_adaptive_chunks_start_small_grow_and_change_no_result():
    """Progress moves often: chunks start at ``first_chunk`` and are then sized
    from the measured rate (capped at ``chunk_size``); the results, keyed by
    game index, are the same as with fixed chunks."""
    sizes, parts_seen = [], []

    def play(first, count):
        time.sleep(0.0001 * count)  # 10,000 games a second
        return np.arange(first, first + count, dtype=np.int64)

    def on_chunk(first, count, parts):
        sizes.append(count)
        parts_seen.extend(parts)

    run_chunks(play, 20_000, chunk_size=4_000, threads=2, on_chunk=on_chunk, first_chunk=100,
               target_seconds=1.0)
    assert sizes[0] == 100 and max(sizes) <= 4_000 and max(sizes) > 100
    np.testing.assert_array_equal(np.concatenate(parts_seen), np.arange(20_000))
