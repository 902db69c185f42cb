"""Runs on a Dask distributed cluster (``--cluster ADDRESS``). Knows no game.

A run is cut into tasks by (seed, item range) exactly as the local runner cuts
it into chunks; a task plays its range on a worker and returns the range's
summary (sums and counts: exactly mergeable, whatever the cut) and, with
``--out``, writes the range's Parquet parts into the hidden partial directory
of the run, which the client appends in range order and commits only when
every part is in (``RunWriter``). Items are keyed by (seed, index), so the
tables and summaries are the ones a local run gives, at any worker count or
task size. The match travels as data (board, deck, bot parameters; kernels by
name, loaded on each worker from its numba cache; user Python bots as their
source text, loaded and compiled into the game's kernel once per worker
process: ``PooledMatch.__getstate__``).

``ADDRESS`` is ``tcp://HOST:PORT`` of a running scheduler (``dask scheduler``),
or ``local:N`` for a ``LocalCluster`` of N single-threaded worker processes.
"""
from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
import re
import threading
import uuid
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analyzer.version import __version__
from analyzer.engine import stop
from analyzer.errors import AnalyzerError

CONNECT_SECONDS = 4  # an unreachable scheduler fails after this long
HANDSHAKE_BYTES = 1 << 16  # a Dask scheduler's greeting is ~60 bytes; a longer one is not Dask's
WORKERS_SECONDS = 30  # a scheduler without workers: how long to wait for one
MAX_LOCAL_WORKERS = 256
TASKS_PER_THREAD = 4  # at least this many tasks per worker thread, for balance
_LOCAL = re.compile(r"local:(\d+)")
_REMOTE = re.compile(r"tcp://[^\s/]+:\d+")


def check_address(address) -> str:
    """``tcp://HOST:PORT`` or ``local:N``, or one line saying what is expected."""
    if isinstance(address, str):
        m = _LOCAL.fullmatch(address)
        if m:
            n = int(m.group(1))
            if not 1 <= n <= MAX_LOCAL_WORKERS:
                raise AnalyzerError(f"--cluster local:N takes 1 to {MAX_LOCAL_WORKERS} workers, got {n}")
            return address
        if _REMOTE.fullmatch(address):
            return address
        if address.startswith("tls://"):  # Dask's TLS needs certificates we take no options for
            raise AnalyzerError(f"--cluster {address}: TLS is not supported (it needs certificates the analyzer "
                                "takes no options for); give tcp://HOST:PORT, e.g. through an SSH tunnel")
    raise AnalyzerError(f"--cluster must be tcp://HOST:PORT (a Dask scheduler) or local:N "
                        f"(N worker processes on this machine), got {address!r}")


class ClusterError(AnalyzerError):
    """The cluster could not finish the work (the scheduler went away, a task
    killed its workers again and again): the input was fine. Exit code 1."""

    exit_code = 1


def worker_version() -> str:
    """The analyzer version a worker runs (compared with the client's)."""
    return __version__


def _check_version(client_version: str) -> None:
    if __version__ != client_version:
        raise AnalyzerError(f"a cluster worker runs analyzer {__version__}, this client "
                            f"{client_version}: install the same version on every worker")


def check_versions(versions: dict) -> None:
    """Refuse the cluster if any worker (address -> version) differs from us."""
    for address, version in sorted(versions.items()):
        if version != __version__:
            raise AnalyzerError(f"worker {address} runs analyzer {version}, this client {__version__}: "
                                "install the same version on every worker")


def _quiet() -> None:
    """Dask's own log lines (a lost worker, a closing comm) are not ours to
    print: our errors are one line each. Errors still show."""
    names = ("distributed", "tornado", "asyncio")
    # Dask's logging config gives some child loggers their own level
    # (distributed.client: a dying scheduler's "Failed to reconnect" line): those too
    children = [n for n in list(logging.root.manager.loggerDict) if n.startswith(tuple(f"{p}." for p in names))]
    for name in (*names, *children):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


@dataclass
class Session:
    """A connected client and how many worker threads it has."""
    client: object
    address: str
    threads: int
    workers: int
    _matches: dict = field(default_factory=dict)

    def send(self, match, warm: bool = False) -> tuple[str, bytes]:
        """The match as (token, pickled bytes), every task's first argument;
        ``warm``: its kernels are loaded on every worker now (before a run is
        timed). Not scattered: data held only by a worker dies with it, and a
        task run again elsewhere must find its match."""
        key = id(match)
        if key not in self._matches:
            payload = pickle.dumps(match, protocol=pickle.HIGHEST_PROTOCOL)
            self._matches[key] = (match, (hashlib.sha256(payload).hexdigest()[:16], payload))
            # (the match is kept, so its id stays unique)
        sent = self._matches[key][1]
        if warm:
            _gather(self.client, [self.client.submit(_warm_up, sent, __version__, workers=[w],
                                                     pure=False, allow_other_workers=True)
                                  for w in self.client.scheduler_info()["workers"]])
        return sent


_MATCHES: OrderedDict = OrderedDict()  # on a worker: token -> match, the latest few
_KEEP_MATCHES = 8
_MATCHES_LOCK = threading.Lock()


def _match_of(sent: tuple[str, bytes]):
    """The worker's copy of a sent match: unpickled once per process and kept,
    with its buffer pool, for the tasks that follow."""
    token, payload = sent
    with _MATCHES_LOCK:
        match = _MATCHES.get(token)
        if match is None:
            match = _MATCHES[token] = pickle.loads(payload)
            while len(_MATCHES) > _KEEP_MATCHES:
                _MATCHES.popitem(last=False)
        _MATCHES.move_to_end(token)
        return match


def _gather(client, futures) -> list:
    return [f.result() for f in futures]


def _within(seconds: float, call, *args):
    """``call(*args)`` in a thread of its own, waited for at most ``seconds``
    (TimeoutError after): a connection step of Dask's own that has no bound
    (its handshake waits for the server's answer for ever) cannot hang the
    command. Ctrl-C still ends the wait."""
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["value"] = call(*args)
        except BaseException as e:  # handed to the caller
            outcome["error"] = e

    thread = threading.Thread(target=run, name="analyzer-cluster-connect", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TimeoutError(f"no answer within {seconds:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _host_port(address: str) -> tuple[str, int]:
    host, _, port = address.removeprefix("tcp://").rpartition(":")
    return host.strip("[]"), int(port)


def _receive(sock, n: int, deadline: float) -> bytes:
    import time

    data = bytearray()
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        sock.settimeout(left)
        block = sock.recv(n - len(data))
        if not block:
            raise ConnectionResetError("it closed the connection")
        data += block
    return bytes(data)


def probe(address: str, seconds: float = CONNECT_SECONDS) -> None:
    """The server at ``tcp://HOST:PORT`` greets as a Dask scheduler does, all
    within ``seconds``, or one line says what it did instead. Dask's own
    connection waits for the greeting without bound (a listener that accepts
    and never speaks, a Redis or Postgres port, hung the command for good),
    and takes any reply's first bytes for the length of a message (a server
    speaking another protocol: "Unable to allocate 3.07 EiB"). A scheduler
    speaks first: its greeting (a message of Dask's framing, ~60 bytes, with
    its Python and pickle versions) is read and the connection closed."""
    import socket
    import struct
    import time

    deadline = time.monotonic() + seconds
    host, port = _host_port(address)
    where = f"cannot reach the Dask scheduler at {address} (within {seconds:g} s)"
    try:
        infos = _within(seconds, socket.getaddrinfo, host, port, 0, socket.SOCK_STREAM)
    except TimeoutError:
        raise AnalyzerError(f"{where}: its host name did not resolve") from None
    except OSError as e:
        raise AnalyzerError(f"{where}: {e.strerror or e}") from None
    sock, error = None, None
    while sock is None:  # refused: perhaps a scheduler still starting, tried again as Dask does
        for family, kind, proto, _, addr in infos:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            candidate = socket.socket(family, kind, proto)
            try:
                candidate.settimeout(left)
                candidate.connect(addr)
                sock = candidate
                break
            except OSError as e:
                candidate.close()
                error = e
        if sock is None:
            if time.monotonic() >= deadline:
                reason = "no connection" if error is None or isinstance(error, TimeoutError) else \
                    (error.strerror or str(error))
                raise AnalyzerError(f"{where}: {reason}")
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))
    other = (f"cannot reach the Dask scheduler at {address}: it answers in another protocol "
             "(not a Dask scheduler?)")
    try:
        (size,) = struct.unpack("<Q", _receive(sock, 8, deadline))
        if not 0 < size <= HANDSHAKE_BYTES:
            raise AnalyzerError(other)
        greeting = _receive(sock, size, deadline)
    except TimeoutError:
        raise AnalyzerError(f"{where}: it accepted the connection but said nothing "
                            "(not a Dask scheduler?)") from None
    except OSError as e:
        raise AnalyzerError(f"{where}: {e.strerror or e}") from None
    finally:
        sock.close()
    try:
        from distributed.protocol.core import loads
        from distributed.protocol.utils import unpack_frames

        frames, more = unpack_frames(greeting, partial=True)
        message = loads(frames, deserialize=False) if not more else None
    except Exception:
        message = None
    if not isinstance(message, dict) or "pickle-protocol" not in message:
        raise AnalyzerError(other)


@contextlib.contextmanager
def connect(address: str):
    """A ``Session`` on the cluster at ``address``; closed (and a local
    cluster stopped) on leaving, also after Ctrl-C. Every step of connecting
    is bounded: a scheduler that is not there, not Dask or does not answer is
    one line naming its address."""
    address = check_address(address)
    from distributed import Client

    _quiet()
    local = None
    client = None
    try:
        m = _LOCAL.fullmatch(address)
        if m:
            from distributed import LocalCluster

            local = LocalCluster(n_workers=int(m.group(1)), threads_per_worker=1, processes=True,
                                 dashboard_address=None, silence_logs=logging.CRITICAL)
            client = Client(local, timeout=f"{CONNECT_SECONDS}s")
        else:
            probe(address)
            # Dask's own steps: connect, greet, ask who it is, register (each up to the timeout)
            client = _within(3 * CONNECT_SECONDS + 1, lambda: Client(address, timeout=f"{CONNECT_SECONDS}s"))
    except AnalyzerError:
        raise
    except Exception as e:  # unreachable, refused, or a scheduler that speaks another protocol
        if local is not None:
            local.close()
        raise AnalyzerError(f"cannot reach the Dask scheduler at {address} "
                            f"(within {CONNECT_SECONDS} s): {_first_line(e)}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=WORKERS_SECONDS)
        except (OSError, TimeoutError):
            raise AnalyzerError(f"the Dask scheduler at {address} has no workers "
                                f"(none joined within {WORKERS_SECONDS} s)") from None
        try:
            versions = _within(WORKERS_SECONDS, client.run, worker_version)
            nthreads = _within(WORKERS_SECONDS, client.nthreads)
        except TimeoutError:
            raise ClusterError(f"the Dask scheduler at {address} or its workers did not answer "
                               f"within {WORKERS_SECONDS} s") from None
        check_versions(versions)
        yield Session(client, address, max(1, sum(nthreads.values())), len(nthreads))
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=CONNECT_SECONDS)
        if local is not None:
            with contextlib.suppress(Exception):
                local.close(timeout=CONNECT_SECONDS)


def _warm_up(sent, client_version: str) -> None:
    _check_version(client_version)
    _match_of(sent).warm_up()


# ------------------------------------------------------------------ tasks

@dataclass
class TaskResult:
    count: int  # items played
    summary: object  # the range's summary (a fresh one, added to)
    parts: list  # (table, path) written into the part directory, in order
    shipped: list  # per piece: its tables and chunk extras, when the client keeps them


def play_task(sent, client_version: str, seed: int, first: int, count: int, piece: int,
              part_dir: str | None, ship_tables: bool) -> TaskResult:
    """Play items ``first .. first+count-1`` of the sent match in pieces of at
    most ``piece`` (bounded buffers). Runs on a worker."""
    _check_version(client_version)
    match = _match_of(sent)
    summary = match.new_summary()
    parts, shipped = [], []
    match.reserve(min(piece, count))
    detail = part_dir is not None or ship_tables  # else only the summary reads the chunks
    for start in range(first, first + count, piece):
        n = min(piece, first + count - start)
        chunk = match.play(seed, start, n, detail)
        summary.add(chunk)
        if detail:
            tables = match.tables_of(chunk)
            if part_dir is not None:
                for name, df in tables.items():
                    parts.append((name, _write_part(Path(part_dir), name, start, df)))
            if ship_tables:
                # the tables are shipped after the task: their buffer is not reused
                shipped.append({**tables, **match.chunk_extras(chunk)})
                continue
        match.release([chunk])
    return TaskResult(count, summary, parts, shipped)


def _write_part(part_dir: Path, table: str, first: int, df) -> str:
    """One Parquet part, written under a temporary name and renamed: a worker
    killed mid-write leaves no part that looks whole, and the task run again
    elsewhere writes the very same part."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = part_dir / f"{table}-{first:020d}.parquet"
    tmp = part_dir / f".{path.name}.{uuid.uuid4().hex}.tmp"
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), tmp)
    os.replace(tmp, path)
    return str(path)


def _is_number(value) -> bool:
    return isinstance(value, (np.ndarray, int, float, np.number)) and not isinstance(value, bool)


def merge_summaries(total, part, fresh) -> None:
    """Add ``part``'s sums and counts into ``total``: three summaries of one
    match, ``fresh`` with nothing added. A summary holds sums and counts
    (``games.protocol.Summary``) beside sizes (players, bounds) that are the
    same in all three: ``total + part - fresh`` adds the first and keeps the
    second. Integer-valued float64 sums stay exact below 2**53, so the order
    of merging changes no bit."""
    for key, value in vars(part).items():
        mine, base = getattr(total, key), getattr(fresh, key)
        if _is_number(value) and (base is None or _is_number(base)):
            if base is None:  # a sum that starts at its first chunk
                setattr(total, key, value.copy() if mine is None else mine + value)
            else:
                setattr(total, key, mine + (value - base))
        elif mine is None:
            setattr(total, key, value)


def _ordered(session: Session, tasks, window: int | None = None):
    """Submit ``(fn, *args)`` from ``tasks`` with at most ``window`` in flight
    and yield their results in submission order; leaving early (an error,
    Ctrl-C) cancels what is still in flight."""
    client = session.client
    window = window or max(2, 3 * session.threads)
    in_flight: deque = deque()
    tasks = iter(tasks)

    def submit() -> None:
        task = next(tasks, None)
        if task is not None:
            in_flight.append(client.submit(*task, pure=False))

    try:
        for _ in range(window):
            submit()
        while in_flight:
            try:
                result = in_flight.popleft().result()
            except (AnalyzerError, KeyboardInterrupt):
                raise  # a task's own one-line error (a bot's fault, another version), or Ctrl-C
            except Exception as e:  # distributed's: a lost scheduler, a task that killed its workers
                raise ClusterError(f"the cluster at {session.address} failed: {type(e).__name__}: "
                                   f"{_first_line(e)}") from None
            stop.check()  # a signal whose KeyboardInterrupt was lost (see stop.py)
            submit()
            yield result
    finally:
        if in_flight:
            with contextlib.suppress(Exception):
                client.cancel(list(in_flight), force=True)


def task_size(session: Session, total: int, chunk_size: int) -> int:
    """Items per task: at most ``chunk_size``, and small enough that every
    worker thread gets several tasks (the results do not depend on it)."""
    return max(1, min(chunk_size, -(-total // (TASKS_PER_THREAD * session.threads))))


def run_on_cluster(session: Session, match, total: int, seed: int, *, chunk_size: int, summary,
                   writer=None, on_tables=None, progress=None) -> None:
    """Play items ``0 .. total-1`` of ``match`` on the cluster into ``summary``
    (a fresh one); with ``writer``, the tables are appended in item order;
    ``on_tables(dict)`` gets each piece's tables in item order (as the local
    runner's chunk callback would)."""
    sent = session.send(match)
    size = task_size(session, total, chunk_size)
    part_dir = None
    if writer is not None:
        writer.part_dir.mkdir()
        part_dir = str(writer.part_dir)
    fresh = match.new_summary()
    tasks = ((play_task, sent, __version__, seed, first, min(size, total - first), chunk_size, part_dir,
              on_tables is not None) for first in range(0, total, size))
    for result in _ordered(session, tasks):
        merge_summaries(summary, result.summary, fresh)
        for name, path in result.parts:
            writer.append_part(name, Path(path))
        if on_tables is not None:
            for tables in result.shipped:
                on_tables(tables)
        if progress is not None:
            progress.advance(result.count)


def outcomes_task(sent, client_version: str, seed: int, first: int, count: int, piece: int):
    """Per item of ``first .. first+count-1`` and seat: ``(won, score)``, as
    ``match.outcomes`` gives them, the pieces joined. Runs on a worker."""
    _check_version(client_version)
    match = _match_of(sent)
    match.reserve(min(piece, count))
    won, score = [], []
    for start in range(first, first + count, piece):
        chunk = match.play(seed, start, min(piece, first + count - start), detail=False)  # outcomes only
        w, s = match.outcomes(chunk)
        won.append(np.array(w, copy=True))
        score.append(np.array(s, copy=True))
        match.release([chunk])
    return np.concatenate(won), np.concatenate(score)


def stream_outcomes(session: Session, match, seed: int, first: int, total: int, chunk_size: int):
    """Yield ``(start, won, score)`` for items ``first .. first+total-1`` of
    ``match``, in order, ``start`` counted from ``first`` (what compare,
    tournament and tune read of a race: ``match.outcomes``)."""
    sent = session.send(match)
    size = task_size(session, total, chunk_size)
    starts = range(0, total, size)
    tasks = ((outcomes_task, sent, __version__, seed, first + start, min(size, total - start), chunk_size)
             for start in starts)
    for start, (won, score) in zip(starts, _ordered(session, tasks)):
        yield start, won, score
