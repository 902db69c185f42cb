"""Every input is a regular file of bounded size (``engine/inputs.py``), refused
in one line otherwise, exit 2, naming the file and why: a FIFO (or /dev/stdin on
a pipe) hung for ever at open, /dev/zero read without limit to a MemoryError,
and a bot file that is a FIFO was "not found". Nothing is opened before it is
looked at."""
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.cli_support import assert_usage_error

ROOT = Path(__file__).resolve().parents[2]
SIMS = ROOT / "sims"


@pytest.fixture
def fifo(tmp_path):
    """``make(path, content)``: a FIFO at ``path``. Should the command open it
    after all, a writer comes after a few seconds, writes ``content`` and
    closes, so the test fails on what follows rather than hanging."""
    made, done = [], threading.Event()

    def release() -> None:
        while not done.wait(5.0):
            for path, content in made:
                try:
                    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
                except OSError:
                    continue  # no reader: nothing waits on it
                try:
                    os.write(fd, content)
                finally:
                    os.close(fd)

    def make(path: Path, content: bytes = b"") -> Path:
        os.mkfifo(path)
        made.append((path, content))
        return path

    thread = threading.Thread(target=release, daemon=True)
    thread.start()
    yield make
    done.set()
    thread.join()


def sim(*extra):
    return ["simulate", "lemming-mafia", "--races", "10", "--threads", "1", "--no-progress", *extra]


@pytest.mark.parametrize("option, name, what", [
    ("--board", "board.toml", "board file"),
    ("--bots", "bot.py", "bot file"),
    ("--bots", "bot.toml", "bot file"),
])
def test_a_fifo_as_an_input_file_is_refused(tmp_path, capsys, fifo, option, name, what):
    path = fifo(tmp_path / name)
    assert_usage_error(capsys, sim(option, path), f"{what} {path} is a FIFO", "not a regular file")


def test_a_fifo_as_a_scenario_or_sweep_file_is_refused(tmp_path, capsys, fifo):
    scenario = fifo(tmp_path / "s.toml")
    assert_usage_error(capsys, ["run", scenario], f"scenario file {scenario} is a FIFO")
    sweep = fifo(tmp_path / "w.toml")
    assert_usage_error(capsys, ["sweep", sweep], f"sweep file {sweep} is a FIFO")


def test_a_device_as_a_board_is_refused_unread(capsys):
    assert_usage_error(capsys, sim("--board", "/dev/zero"), "board file /dev/zero is a device")


def test_a_file_too_large_for_an_input_is_refused_unread(tmp_path, capsys):
    board = tmp_path / "board.toml"
    with open(board, "wb") as f:
        f.truncate(17 << 20)  # sparse: nothing is written, nothing should be read
    assert_usage_error(capsys, sim("--board", board), f"board file {board} is too large", "16 MiB")


def test_stdin_on_a_pipe_as_a_scenario_file_is_refused():
    proc = subprocess.run([sys.executable, "-m", "analyzer", "run", "/dev/stdin"], input="",
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "analyzer: error: scenario file /dev/stdin is a FIFO (a named pipe), not a regular file; "
        "give the path of a file"]


def test_a_run_directory_whose_manifest_is_a_fifo(tmp_path, capsys, fifo):
    run = tmp_path / "run"
    run.mkdir()
    manifest = fifo(run / "manifest.json")
    assert_usage_error(capsys, ["report", run], f"run manifest {manifest} is a FIFO")
    # as an --out: not taken for a run of ours (nor opened), so not replaced
    assert_usage_error(capsys, sim("--out", run), f"{run} is a directory with other files in it")


def test_a_report_folder_whose_mark_is_a_fifo(tmp_path, capsys, fifo):
    folder = tmp_path / "page_files"
    folder.mkdir()
    fifo(folder / ".analyzer-files.json", b'{"written_by": "analyzer", "files": []}')
    assert_usage_error(capsys, sim("--report", tmp_path / "page.html"), "was not written by analyzer")
