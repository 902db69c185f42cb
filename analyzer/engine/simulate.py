"""Run a match for many games: chunked, threaded, streamed to tables and a summary.
Knows no game: the match object supplies playing, tables and summary."""
from __future__ import annotations

import contextlib
import os
import platform
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

import numba
import numpy as np

from analyzer.version import __version__
# the upper bounds every run is checked against before any work (engine/limits.py)
from analyzer.engine.limits import MAX_CHUNK, MAX_COUNT, MAX_PLAYERS, MAX_SEED, MAX_THREADS  # noqa: F401
from analyzer.engine.progress import Progress
from analyzer.engine.raceset import items_entry
from analyzer.engine.runner import interruptible, run_chunks
from analyzer.errors import AnalyzerError

DEFAULT_CHUNK = 1 << 16


@dataclass
class RunResult:
    summary: object
    seconds: float  # playing time, compile excluded
    manifest: dict

    @property
    def count(self) -> int:
        """Races or games played (the match's unit)."""
        return self.manifest[self.manifest["unit"]]

    @property
    def rate(self) -> float:
        """Races or games per second."""
        return self.count / self.seconds if self.seconds > 0 else float("inf")


def default_threads() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def check_run_options(races: int, seed: int, threads: int, chunk_size: int, unit: str = "races") -> None:
    def bounded(option, value, lo, hi):
        if value < lo:
            raise AnalyzerError(f"{option} must be at least {lo}, got {value}")
        if value > hi:
            raise AnalyzerError(f"{option} must be at most {hi:,}, got {value:,}")

    bounded(f"--{unit}", races, 1, MAX_COUNT)
    if not 0 <= seed <= MAX_SEED:
        raise AnalyzerError(f"--seed must be 0 to {MAX_SEED}, got {seed}")
    bounded("--threads", threads, 1, MAX_THREADS)
    bounded("chunk size", chunk_size, 1, MAX_CHUNK)


def check_players(players: int) -> None:
    """A first, game-blind bound on ``--players``, before bot lists of that
    length are built; the game then checks its own range."""
    if players > MAX_PLAYERS:
        raise AnalyzerError(f"--players must be at most {MAX_PLAYERS} in any game (the game's own range is "
                            f"smaller), got {players:,}")


def versions() -> dict:
    return {"analyzer": __version__, "numba": numba.__version__, "numpy": np.__version__,
            "pandas": metadata.version("pandas"), "python": platform.python_version()}


def simulate(match, races: int, seed: int, *, threads: int | None = None,
             chunk_size: int = DEFAULT_CHUNK, out_dir: Path | None = None,
             progress: bool | None = None, stats=None, cluster=None) -> RunResult:
    """Play ``races`` races (or games: the match's ``unit``) of ``match``;
    summarise them, and stream their tables to ``out_dir`` and/or into the
    aggregator ``stats`` (for reports). ``cluster``: a ``cluster.Session``
    whose workers play the races instead of this process's threads (the
    same results)."""
    threads = default_threads() if threads is None else threads
    check_run_options(races, seed, threads, chunk_size, match.unit)
    stats = None if stats is None else _Fed(stats)
    writer = None
    if out_dir is not None:
        # pandas and pyarrow load only when tables are written: a plain run starts faster
        from analyzer.engine.writer import RunWriter
        writer = RunWriter(Path(out_dir), list(match.tables))  # refuses a bad --out before any work
    with contextlib.ExitStack() as stack:
        if writer is not None:
            stack.enter_context(writer)  # an interrupted or failed run leaves nothing behind
        bar = stack.enter_context(Progress(races, f"{match.title} ({match.unit})", enabled=progress))
        summary = match.new_summary()
        manifest = {
            "game": match.game, "unit": match.unit, match.unit: races, "seed": seed, "threads": threads,
            "chunk_size": chunk_size, "versions": versions(),
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            **match.describe(),
        }
        manifest["items"] = items_entry(manifest)  # the races it holds: report refuses to count them twice
        if cluster is not None:
            from analyzer.engine.cluster import run_on_cluster  # dask loads only for a cluster run

            manifest["cluster"] = {"address": cluster.address, "workers": cluster.workers,
                                   "threads": cluster.threads}
            with bar.phase("loading the compiled core on the workers"):
                cluster.send(match, warm=True)
            start = time.perf_counter()
            run_on_cluster(cluster, match, races, seed, chunk_size=chunk_size, summary=summary, writer=writer,
                           on_tables=None if stats is None else stats.add, progress=bar)
        else:
            start = _play_here(match, races, seed, threads, chunk_size, summary, writer, stats, bar)
        _finish(match, summary, writer, manifest)
    seconds = time.perf_counter() - start
    if stats is not None:  # the tables known only at the end (e.g. counts per board field) go to the report too;
        # one a game also sums per chunk (``chunk_extras``) has reached it already: fed twice it would count double
        final = {name: df for name, df in match.final_tables(summary).items() if name not in stats.names}
        if final:
            stats.add(final)
    manifest.setdefault("summary", summary.as_dict())
    return RunResult(summary, seconds, manifest)


class _Fed:
    """The report aggregator of a run, noting the names of the tables it was given."""

    def __init__(self, stats):
        self.stats, self.names = stats, set()

    def add(self, tables: dict) -> None:
        self.names.update(tables)
        self.stats.add(tables)


def _finish(match, summary, writer, manifest) -> None:
    if writer is not None:
        for name, df in match.final_tables(summary).items():
            writer.write(name, df)
        manifest["summary"] = summary.as_dict()
        writer.finish(manifest)


def _play_here(match, races, seed, threads, chunk_size, summary, writer, stats, bar) -> float:
    """Play the run on this process's threads; returns when play started."""
    # compiled (or loaded from the cache) off the main thread, so Ctrl-C stops
    # even a user bot stuck in an endless loop during its warm-up race
    detail = writer is not None or stats is not None  # else only the summary reads the chunks
    with bar.phase("compiling" if match.user_sources else "loading the compiled core"):
        interruptible(lambda: match.warm_up(detail))
    match.reserve(-(-min(chunk_size, races) // threads))

    def on_chunk(first, count, parts):
        for part in parts:
            summary.add(part)
            if not detail:
                continue
            tables = match.tables_of(part)
            if writer is not None:
                for name, df in tables.items():
                    writer.write(name, df)
            if stats is not None:
                stats.add({**tables, **match.chunk_extras(part)})
        match.release(parts)  # after the tables are built: the buffers get reused

    def play(first, count):
        return match.play(seed, first, count, detail)

    # small chunks first, then chunks of about a quarter second (at most
    # chunk_size): progress moves often whatever the game's speed
    start = time.perf_counter()
    run_chunks(play, races, chunk_size=chunk_size, threads=threads, on_chunk=on_chunk, progress=bar,
               first_chunk=min(chunk_size, 256 * threads))
    return start
