"""Runs on a Dask cluster give the very tables and summaries of a run
on this machine. A scheduler and two single-threaded workers are started here
as processes on loopback (``dask scheduler``, ``dask worker``), as a user would."""
import contextlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

import analyzer
from analyzer import api
from analyzer.engine.cluster import CONNECT_SECONDS, check_versions, play_task
from analyzer.errors import AnalyzerError
from tests.cli_support import assert_usage_error

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
START_SECONDS = 300  # a worker loading the compiled kernels on a busy machine



def _start(argv, log: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", *argv], env=ENV, stdout=subprocess.DEVNULL,
                            stderr=open(log, "w"), start_new_session=True)


def start_worker(scheduler_file: Path, log: Path, name: str) -> subprocess.Popen:
    # no nanny: a killed worker stays dead (a nanny would restart it)
    return _start(["distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                   "--no-nanny", "--no-dashboard", "--name", name], log)


def wait_for_workers(address: str, n: int) -> None:
    from distributed import Client

    with Client(address, timeout="30s") as client:
        client.wait_for_workers(n, timeout=START_SECONDS)


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """``(address, scheduler_file, log_dir)`` of a scheduler with two workers."""
    logs = tmp_path_factory.mktemp("dask")
    scheduler_file = logs / "scheduler.json"
    procs = [_start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                     "--scheduler-file", str(scheduler_file), "--no-dashboard"], logs / "scheduler.log")]
    try:
        deadline = time.monotonic() + START_SECONDS
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            assert procs[0].poll() is None, (logs / "scheduler.log").read_text()
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written in one go, but let it land
        address = json.loads(scheduler_file.read_text())["address"]
        procs += [start_worker(scheduler_file, logs / f"worker-{i}.log", f"worker-{i}") for i in range(2)]
        wait_for_workers(address, 2)
        yield address, scheduler_file, logs
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def read_tables(run_dir: Path) -> dict[str, pd.DataFrame]:
    return {p.stem: pd.read_parquet(p) for p in sorted(run_dir.glob("*.parquet"))}


def assert_same_tables(a: dict, b: dict) -> None:
    assert sorted(a) == sorted(b)
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], check_exact=True, obj=name)


@pytest.mark.slow
@pytest.mark.parametrize("game, count", [("lemming-mafia", 3000), ("sau-mau-mau", 600)])
def test_a_cluster_run_gives_the_local_tables(scheduler, tmp_path, game, count):
    address = scheduler[0]
    here = api.simulate(game, count, seed=5, threads=2, chunk=250, out=tmp_path / "here")
    # small tasks, so both workers play several; the tables both shipped and written
    there = api.simulate(game, count, seed=5, chunk=100, out=tmp_path / "there", cluster=address)
    assert there.manifest["cluster"]["workers"] == 2
    assert there.summary.as_dict() == here.summary.as_dict()
    assert there.summary.render() == here.summary.render()
    assert_same_tables(there.tables, here.tables)
    assert_same_tables(read_tables(tmp_path / "there"), read_tables(tmp_path / "here"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here", "there"]  # no parts, no partial directory


@pytest.mark.slow
def test_a_worker_killed_mid_run_changes_nothing(scheduler, tmp_path):
    import threading

    from distributed import Client

    address, scheduler_file, logs = scheduler
    extra = start_worker(scheduler_file, logs / "worker-extra.log", "extra")
    try:
        wait_for_workers(address, 3)
        with Client(address, timeout="30s") as observer:
            extra_address = next(w for w, info in observer.scheduler_info()["workers"].items()
                                 if info.get("name") == "extra")
            outcome = {}
            run = threading.Thread(target=lambda: outcome.setdefault("run", api.simulate(
                "lemming-mafia", 60_000, seed=9, chunk=1000, out=tmp_path / "there", tables=False,
                cluster=address, progress=False)))
            run.start()
            killed = False
            while run.is_alive() and not killed:
                if any(key.startswith("play_task") for key in observer.processing([extra_address])
                       .get(extra_address, ())):
                    os.kill(extra.pid, signal.SIGKILL)
                    killed = True
                time.sleep(0.01)
            run.join()
        assert killed, "the run ended before the extra worker took a task"
        here = api.simulate("lemming-mafia", 60_000, seed=9, threads=2, out=tmp_path / "here", tables=False)
        assert outcome["run"].summary.as_dict() == here.summary.as_dict()
        assert_same_tables(read_tables(tmp_path / "there"), read_tables(tmp_path / "here"))
    finally:
        extra.kill()
        extra.wait()


@pytest.mark.slow
def test_a_run_stopped_on_the_client_leaves_nothing_that_looks_complete(scheduler, tmp_path):
    argv = [sys.executable, "-m", "analyzer", "simulate", "lemming-mafia", "--races", "100000000",
            "--out", str(tmp_path / "run"), "--cluster", scheduler[0], "--no-progress"]
    proc = subprocess.Popen(argv, cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + START_SECONDS
    while not any(p.name.startswith(".run.partial-") and (p / "races.parquet").exists()
                  for p in tmp_path.iterdir()):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no table was written in time"
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert err.strip().splitlines() == ["analyzer: stopped by SIGTERM"], err
    assert not (tmp_path / "run").exists()
    # a part a worker was still writing may land after the client left; it stays hidden
    assert all(p.name.startswith(".run.partial-") for p in tmp_path.iterdir())


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:9", "local:0", "localhost:8786"])
def test_a_bad_or_unreachable_cluster_is_one_line(capsys, address):
    line = assert_usage_error(capsys, ["simulate", "lemming-mafia", "--races", "10", "--cluster", address],
                              "--cluster" if address != "tcp://127.0.0.1:9" else address)
    if address.startswith("tcp"):
        assert f"within {CONNECT_SECONDS} s" in line


@contextlib.contextmanager
def listener(greeting: bytes | None):
    """``tcp://127.0.0.1:PORT`` of a server that accepts every connection and
    says ``greeting`` (nothing at all for None), then nothing more."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        held = []
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except socket.timeout:
                continue
            held.append(conn)
            with contextlib.suppress(OSError):
                conn.sendall(greeting or b"")
        for conn in held:
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        server.close()


@pytest.mark.parametrize("greeting, needle", [
    (None, "it accepted the connection but said nothing"),  # a Redis or Postgres port
    (b"\xff" * 64, "it answers in another protocol"),  # read by Dask as a 3.07 EiB message
    (b"SSH-2.0-OpenSSH_9.2p1\r\n", "it answers in another protocol"),
    (struct.pack("<Q", 1 << 31) + b"\0" * 64, "it answers in another protocol"),  # Dask would allocate 2 GiB
    (struct.pack("<Q", 16) + bytes(range(16)), "it answers in another protocol"),  # Dask's framing, not its greeting
], ids=["silent", "ff-bytes", "ssh", "2-GiB-length", "dask-framing-junk"])
def test_a_server_that_is_not_a_dask_scheduler_is_one_line(greeting, needle):
    """Every step of connecting is bounded (docs/cluster.md: about 4 s): a
    listener that never speaks hung the command (still at 300 s), one that
    speaks junk ended in "Unable to allocate 3.07 EiB"."""
    with listener(greeting) as address:
        try:  # a command of its own: one that hangs fails the test at the timeout
            proc = subprocess.run([sys.executable, "-m", "analyzer", "simulate", "lemming-mafia", "--races", "10",
                                   "--cluster", address], env=ENV, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still connecting to {address} after 120 s")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"analyzer: error: cannot reach the Dask scheduler at {address}")
    assert needle in lines[0] and "not a Dask scheduler" in lines[0]


def test_a_worker_of_another_version_is_refused():
    with pytest.raises(AnalyzerError, match=r"worker tcp://10\.0\.0\.2:1 runs analyzer 0\.0\.1, this client "):
        check_versions({"tcp://10.0.0.1:1": analyzer.__version__, "tcp://10.0.0.2:1": "0.0.1"})
    with pytest.raises(AnalyzerError, match="a cluster worker runs analyzer .*, this client 0.0.1"):
        play_task(None, "0.0.1", 1, 0, 1, 1, None, False)


@pytest.mark.slow
def test_compare_tournament_and_tune_give_the_local_numbers_on_a_cluster(scheduler):
    address = scheduler[0]
    duel = dict(races=1200, seed=4, threads=2)
    assert api.compare("lemming-mafia", "favourite", "timer", cluster=address, **duel).text == \
        api.compare("lemming-mafia", "favourite", "timer", **duel).text
    cup = dict(games=300, seed=4, threads=2)
    assert api.tournament("sau-mau-mau", "backer,tempo,random", cluster=address, **cup).text == \
        api.tournament("sau-mau-mau", "backer,tempo,random", **cup).text


@pytest.mark.slow
def test_tune_gives_the_local_result_on_a_cluster(scheduler, capsys):
    from tests.cli_support import run

    argv = ["tune", "lemming-mafia", "--bot", "timer", "--budget", "3000", "--params", "late_bets", "--seed", "4",
            "--threads", "2", "--no-progress"]
    assert run(argv) == 0
    here = capsys.readouterr().out
    assert run(argv + ["--cluster", scheduler[0]]) == 0
    assert capsys.readouterr().out == here


@pytest.mark.slow
def test_a_sweep_on_a_cluster_gives_the_local_table(scheduler, tmp_path):
    from analyzer.sweep import SWEEP_TABLE, load_sweep, run_sweep
    from tests.engine.test_sweep import sweep_file

    run_sweep(load_sweep(sweep_file(tmp_path, "here", name="here.toml")), threads=2, progress=False)
    run_sweep(load_sweep(sweep_file(tmp_path, "there", name="there.toml")), cluster=scheduler[0], progress=False)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "here" / SWEEP_TABLE),
                                  pd.read_parquet(tmp_path / "there" / SWEEP_TABLE), check_exact=True)


def test_a_failure_of_the_cluster_itself_is_one_line():
    """What distributed raises when the cluster cannot finish (a lost scheduler, a
    task that killed its workers) becomes one line, exit 1; a task's own
    one-line error (a bot's fault) passes through as it is."""
    from analyzer.engine.cluster import ClusterError, Session, _ordered
    from analyzer.errors import BotError

    class Failing:
        def __init__(self, error):
            self.error = error

        def result(self):
            raise self.error

    class Client:
        cancelled = []

        def submit(self, error, pure):
            return Failing(error)

        def cancel(self, futures, force):
            self.cancelled += futures

    session = Session(Client(), "tcp://10.0.0.1:8786", 2, 2)
    with pytest.raises(ClusterError, match=r"^the cluster at tcp://10\.0\.0\.1:8786 failed: "
                                           r"RuntimeError: scheduler gone$") as caught:
        list(_ordered(session, [(RuntimeError("scheduler gone\nmore"),)] * 3))
    assert caught.value.exit_code == 1
    assert len(session.client.cancelled) == 2  # what was still in flight
    with pytest.raises(BotError, match="seat 2"):
        list(_ordered(session, [(BotError("bot 'x' in seat 2 failed"),)]))


@pytest.mark.slow
def test_a_user_bot_on_a_cluster_gives_the_local_tables_and_its_fault_line(scheduler, tmp_path):
    """A user bot travels as its source text (the workers read no bot file), is
    compiled on its own once per worker and registered under the client's kind,
    and the workers' kernels (the game's own, loaded from the cache) call it."""
    from analyzer.errors import BotError

    loyal = ROOT / "sims" / "bots" / "lemming-mafia-loyal-fast.py"
    raises = tmp_path / "raises.py"
    raises.write_text("from analyzer.engine.bots import UserBot\n"
                      "from analyzer.games.lemming_mafia.view import *\n"
                      "def decide(view):\n"
                      "    if decision(view) == DECIDE_MOVE:\n"
                      "        return {}['no such key']\n"
                      "    return 0 if decision(view) == DECIDE_FIELD else -1\n"
                      "BOT = UserBot('raises', decide, game='lemming-mafia')\n")
    bots = f"{loyal},random,random,random"
    here = api.simulate("lemming-mafia", 300, bots=bots, seed=3, threads=2, chunk=100, out=tmp_path / "here")
    there = api.simulate("lemming-mafia", 300, bots=bots, seed=3, chunk=50, out=tmp_path / "there",
                         cluster=scheduler[0])
    assert there.summary.as_dict() == here.summary.as_dict()
    assert_same_tables(there.tables, here.tables)
    assert_same_tables(read_tables(tmp_path / "there"), read_tables(tmp_path / "here"))
    faults = []
    for cluster in (None, scheduler[0]):
        with pytest.raises(BotError) as caught:
            api.simulate("lemming-mafia", 40, bots=f"random,{raises},random,random", seed=3, threads=1, chunk=40,
                         cluster=cluster)
        faults.append(str(caught.value))
    assert faults[0] == faults[1]
    assert faults[1].startswith(f"user bot {raises} (seat 2, move decision): raised KeyError at line 5"), faults[1]


@pytest.mark.slow
def test_a_bot_writing_into_the_game_is_one_line_on_a_cluster_too(scheduler, tmp_path):
    """A user bot that writes into ``view.game`` segfaulted locally
    and hung a cluster run. The game's array is read-only to a bot: a plain bot's
    write raises (the same one line from a worker as here), a fast bot's does not
    compile (refused before any task is sent)."""
    from analyzer.errors import BotError

    head = ("from analyzer.engine.bots import UserBot\n"
            "from analyzer.games.lemming_mafia.view import *\n")
    plain, fast = tmp_path / "scribbles.py", tmp_path / "scribbles_fast.py"
    plain.write_text(head + "def decide(view):\n"
                     "    view.game[0] = 7\n"
                     "    return 0\n"
                     "BOT = UserBot('scribbles', decide, game='lemming-mafia')\n")
    fast.write_text(head + "from numba import njit\n"
                    "@njit\n"
                    "def decide(view):\n"
                    "    view.game[0] = 7\n"
                    "    return 0\n"
                    "BOT = UserBot('scribbles_fast', decide, game='lemming-mafia')\n")
    for bot, words in ((plain, ("raised ValueError", "read-only")), (fast, ("does not compile", "read-only"))):
        lines = []
        for cluster in (None, scheduler[0]):
            with pytest.raises(BotError) as caught:
                api.simulate("lemming-mafia", 40, bots=f"random,{bot},random,random", seed=3, threads=1, chunk=40,
                             cluster=cluster)
            lines.append(str(caught.value))
        assert lines[0] == lines[1], lines
        assert "\n" not in lines[1] and str(bot) in lines[1] and all(w in lines[1] for w in words), lines[1]


def test_a_balance_search_on_workers_writes_the_table_it_writes_in_process(scheduler, tmp_path):
    """A balance search's candidates measured on the workers: the same variants
    table, words and recommendation as on one thread (every candidate's games
    are the seed's items whoever plays them; tallies merge exactly)."""
    from analyzer import api
    from analyzer.balance import VARIANTS_TABLE

    address, _, _ = scheduler
    text = ('game = "mafia"\nplayers = 5\nbots = "random"\nbudget = 20000\nseed = 5\nretune = false\n'
            '[vary]\nspaces_to_win = [{ 5 = 3 }, { 5 = 4 }, { 5 = 6 }]\n'
            '[targets]\nskill_gradient = 3.0\nfirst_seat_edge = 5.0\n')
    path = tmp_path / "b.toml"
    path.write_text(text)
    here = api.balance(path, out=tmp_path / "here", threads=1, progress=False)
    there = api.balance(path, out=tmp_path / "there", cluster=address, progress=False)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "here" / VARIANTS_TABLE),
                                  pd.read_parquet(tmp_path / "there" / VARIANTS_TABLE), check_exact=True)
    assert [v.rules.text() for v in here.reported] == [v.rules.text() for v in there.reported]
