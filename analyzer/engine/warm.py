"""The first compile of the kernels a command needs, on every core. Knows no game.

A kernel compiles in the process that first calls it, on one core (numba's
compiler holds a lock), so the kernels a command needs (a game's table, the
report's controlled tables, a game's experiments) compile one after another.
Where the numba cache lacks some of them (a new install, a new version, an
edited kernel), :func:`compile_ahead` compiles them in worker processes, at
most one per core, each filling the shared cache; the command then loads them
in a fraction of a second each. With every kernel cached it does nothing but
look for the cache files (microseconds a kernel).

A :class:`Job` is an independent compile: a picklable call that compiles (a
match's first play, say) and the kernels it fills, by which it is found cold or
warm. Jobs that fill the same kernels are one job. A job that fails in a worker
is left to the command itself, which compiles it in-process and reports any
error in its own words: compiling ahead only ever saves time.

A scenario of several runs (``analyzer run``) starts every run's jobs at once,
in the order of the runs (``wait=False``), and each run waits only for its own
(``compile_ahead(its jobs)``): the first run plays while the workers compile
the next ones' kernels.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Callable

from analyzer.engine import stop

DEFAULT_SECONDS = 30.0  # a kernel's cold compile when its game gives no estimate
END_SECONDS = 5.0  # a worker told to end (SIGTERM) is killed after this long


@dataclass
class Job:
    """``call()`` compiles ``kernels`` (numba dispatchers with a cache), about
    ``seconds[kernel]`` each when cold on a 2-core machine (``make bench``
    measures them)."""
    label: str
    call: Callable[[], None]
    kernels: tuple = ()
    seconds: dict = field(default_factory=dict)  # "module.function" -> estimated cold seconds

    def key(self) -> frozenset:
        return frozenset(_name(k) for k in self.kernels)

    def cold(self) -> list:
        """The kernels of this job that have no compiled code in the cache."""
        return [k for k in self.kernels if not cached(k)]

    def estimate(self) -> float:
        return sum(self.seconds.get(_name(k), DEFAULT_SECONDS) for k in self.cold())


def _name(dispatcher) -> str:
    return f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"


def cached(dispatcher) -> bool:
    """Whether the numba cache holds compiled code of ``dispatcher`` (its index
    file: written when the first overload was saved). Already compiled in this
    process counts as cached."""
    if dispatcher.overloads:
        return True
    cache = getattr(dispatcher, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    if index is None or os.path.exists(index):
        return True  # (no cache at all: nothing to compile ahead)
    # a cache folder that cannot be written: a worker's compile would fill nothing
    return not os.access(os.path.dirname(index), os.W_OK)


def cold_jobs(jobs: list[Job]) -> list[Job]:
    """The jobs with a cold kernel, one per set of kernels, in the given order."""
    seen, out = set(), []
    for job in jobs:
        if job.key() in seen or not job.cold():
            continue
        seen.add(job.key())
        out.append(job)
    return out


def workers_for(n_jobs: int) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cores, n_jobs))


class _Ahead:
    """The worker processes of this process's compiles ahead, and their jobs
    by key (``Job.key``): submitted once, waited for by whoever needs them."""

    def __init__(self):
        self.lock = threading.Lock()
        self.pool = None
        self.futures: dict = {}  # job key -> future
        self.estimates: dict = {}  # job key -> seconds
        self.started = False  # a pool was started (and with it multiprocessing's resource tracker)

    def submit(self, jobs: list[Job]) -> list:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with self.lock:
            new = [job for job in jobs if job.key() not in self.futures]
            if new and self.pool is None:
                # a pool as wide as the machine: later submissions use it too
                self.pool = ProcessPoolExecutor(workers_for(1 << 10), mp_context=multiprocessing.get_context("spawn"),
                                                initializer=_worker_start, initargs=(os.getpid(),))
                self.started = True
            for job in new:
                self.estimates[job.key()] = job.estimate()
                self.futures[job.key()] = self.pool.submit(_run, job.call)
            return [self.futures[job.key()] for job in jobs]

    def close(self, kill: bool = False) -> None:
        """Shut the workers down when their jobs are done, or (``kill``) end
        them now, whatever they are compiling, and wait until they are gone."""
        with self.lock:
            pool, self.pool = self.pool, None
            self.futures.clear()
        if pool is None:
            return
        if not kill:
            pool.shutdown(wait=True)
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        for process in processes:
            while True:
                try:
                    process.join(END_SECONDS)
                    if process.exitcode is None:  # a worker that ignored SIGTERM
                        process.kill()
                        process.join()
                    break
                except KeyboardInterrupt:
                    continue  # a second Ctrl-C or SIGTERM: they are ending already, and are waited for
        pool.shutdown(wait=True, cancel_futures=True)

    def idle(self) -> bool:
        with self.lock:
            return all(f.done() for f in self.futures.values())


_ahead = _Ahead()


def end_workers() -> None:
    """End this process's compile-ahead workers, if any, and wait until they
    are gone: a command's last step, also after an error, Ctrl-C or SIGTERM.
    No process of a command outlives it (the CLI ends with ``os._exit``, which
    would skip the pool's own shutdown and leave them running, ~0.8 GB each);
    what a worker was still compiling is compiled again when a command needs it."""
    _ahead.close(kill=True)
    if not _ahead.started:
        return
    _ahead.started = False
    # multiprocessing's resource tracker (started with the pool) would end only
    # when this process's end closes its pipe: it is told to end now, and waited for
    import multiprocessing.resource_tracker as tracker

    stop_tracker = getattr(tracker._resource_tracker, "_stop", None)
    if stop_tracker is not None:
        stop_tracker()


def _worker_start(parent: int) -> None:
    """In a worker, first: Ctrl-C at the terminal reaches the whole process
    group, and the command ends its workers itself (``end_workers``), so the
    worker ignores it; the command's warnings about the kernel cache are its
    own to give, once; and a worker whose command is gone (killed outright:
    SIGKILL, no handler ran) ends within a second."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from analyzer.engine import jit

    jit.CACHE_WARNINGS = False

    def watch() -> None:
        import time

        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="analyzer-parent-watch", daemon=True).start()


def compile_ahead(jobs: list[Job], progress: bool | None = None, wait: bool = True) -> int:
    """Compile the cold jobs among ``jobs`` in worker processes, one per core at
    most, and (``wait``) wait for them, with "compiling" and an estimate on the
    progress line; ``wait=False`` only starts them (a scenario's later runs).
    Returns how many of ``jobs`` were cold. A single cold job, not already
    started, is left to the caller (compiling in-process is as fast). Ctrl-C and
    SIGTERM stop the wait and end the workers."""
    todo = cold_jobs(jobs)
    if not todo or (len(todo) < 2 and todo[0].key() not in _ahead.futures):
        return len(todo)
    futures = _ahead.submit(todo)
    if not wait:
        return len(todo)
    from concurrent.futures import FIRST_COMPLETED
    from concurrent.futures import wait as wait_for

    from analyzer.engine.progress import Progress

    total = sum(_ahead.estimates.get(job.key(), job.estimate()) for job in todo)
    cores = workers_for(len(todo))
    label = f"compiling {len(todo)} kernels, {cores} cores (first run: ~{_duration(total / cores)})"
    try:
        with Progress(len(todo), label, enabled=progress) as bar:
            pending = set(futures)
            while pending:
                done, pending = wait_for(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                stop.check()
                bar.advance(len(done))
    except BaseException:
        _ahead.close(kill=True)
        raise
    if _ahead.idle():  # nothing else started: the workers' memory goes back
        _ahead.close()
    return len(todo)


def _run(call: Callable[[], None]) -> bool:
    """In a worker: compile; a failure is the command's to report, not ours."""
    try:
        call()
    except Exception:
        return False
    return True


def _duration(seconds: float) -> str:
    seconds = max(5, round(seconds / 5) * 5)
    return f"{seconds // 60:.0f} min {seconds % 60:02.0f} s" if seconds >= 60 else f"{seconds:.0f} s"


def warm_match(match, detail: bool) -> None:
    """A job's call: ``match``'s first play (compiles or loads its kernel)."""
    match.warm_up(detail)
