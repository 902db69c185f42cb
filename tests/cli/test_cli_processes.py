"""No process of a command outlives it: the worker processes that compile
kernels ahead (``engine/warm.py``, ~0.8 GB each) end with the command, whether
it finished or was stopped. A cold ``make run`` left two of them running for
an hour: the command ends with ``os._exit``, which skips the process pool's
own shutdown."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]

# two runs of the smallest kernels there are (Lemming Mafia's random table, with
# and without its detail tables): two cold compile jobs, so the command starts
# its workers for them. The first run is long enough that the second's kernel
# is compiled before the second run starts (the case that left them running).
SCENARIO = """
players = 4
seed = 1

[[run]]
game = "lemming-mafia"
races = 1000000
bots = "random"

[[run]]
game = "lemming-mafia"
races = 20
bots = "random"
out = "run"
"""


def start_cold(tmp_path: Path) -> subprocess.Popen:
    """``analyzer run`` of the scenario on an empty kernel cache, in a session of
    its own: every process it starts carries its session id."""
    scenario = tmp_path / "two.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    # SIG_DFL: as from a terminal (a test session started in the background has SIGINT ignored)
    return subprocess.Popen([sys.executable, "-m", "analyzer", "run", str(scenario), "--no-progress"], cwd=tmp_path,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def left_behind(session: int) -> list[str]:
    """The processes of ``session`` still running (zombies have ended)."""
    found = []
    for p in psutil.process_iter(["pid", "status", "cmdline"]):
        try:
            if os.getsid(p.info["pid"]) == session and p.info["status"] != psutil.STATUS_ZOMBIE:
                found.append(f"{p.info['pid']}: {' '.join(p.info['cmdline'] or [])[:120]}")
        except (ProcessLookupError, PermissionError):
            continue
    return found


def kill_session(session: int) -> None:
    try:
        os.killpg(session, signal.SIGKILL)
    except ProcessLookupError:
        pass


BUSY_WORKER = """
import sys
import time
from functools import partial

from analyzer.engine import warm

if __name__ == "__main__":
    # a compile ahead still running when the command is done (no run waited for it)
    warm._ahead.submit([warm.Job("a long compile", partial(time.sleep, 600))])
    sys.argv = ["analyzer", *sys.argv[1:]]
    from analyzer.cli import console

    console()
"""


@pytest.mark.parametrize("argv, code", [(["bots", "lemming-mafia"], 0),
                                        (["simulate", "lemming-mafia", "--players", "9"], 2)])
def test_a_command_ends_the_workers_it_started(tmp_path, argv, code):
    """A worker still compiling when the command ends (it finished or failed)
    ends with it: the command's ``os._exit`` would leave it running."""
    script = tmp_path / "busy.py"
    script.write_text(BUSY_WORKER, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script), *argv], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        # (a worker left running holds the command's stdout and stderr open)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == code, err
        assert "Traceback" not in err and "resource_tracker" not in err
        assert left_behind(proc.pid) == []
    finally:
        kill_session(proc.pid)


@pytest.mark.slow
def test_a_cold_scenario_leaves_no_process_behind(tmp_path):
    proc = start_cold(tmp_path)
    try:
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err
        assert err == ""
        assert "Lemming Mafia: 1,000,000 races, 4 players, seed 1" in out
        assert "Lemming Mafia: 20 races, 4 players, seed 1" in out
        assert (tmp_path / "run" / "manifest.json").is_file()
        assert left_behind(proc.pid) == []
    finally:
        kill_session(proc.pid)


@pytest.mark.parametrize("signum, code, message", [
    (signal.SIGTERM, 143, "analyzer: stopped by SIGTERM"),
    (signal.SIGINT, 130, "analyzer: interrupted"),
])
def test_a_scenario_stopped_while_compiling_ends_its_workers(tmp_path, signum, code, message):
    """Stopped while its workers compile: they end with it. SIGINT goes to the
    whole process group, as Ctrl-C at a terminal does."""
    proc = start_cold(tmp_path)
    try:
        deadline = time.monotonic() + 300
        while not psutil.Process(proc.pid).children():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no worker started"
            time.sleep(0.05)
        time.sleep(1.0)  # the workers are compiling
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == code, err
        assert err.strip().splitlines() == [message], err
        assert left_behind(proc.pid) == []
    finally:
        kill_session(proc.pid)
