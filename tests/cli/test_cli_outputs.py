"""Through the command line: every writer
(a run's tables, reports, tournament and sweep reports, replay timelines,
tuned bots) refuses a FIFO or a symbolic link at its path before the work and
leaves it as it was; on a full disk or a SIGTERM while it writes it exits 1
(143) with one line and leaves nothing behind."""
import os
import shutil
import signal
from pathlib import Path

import pytest

from tests.cli_support import assert_usage_error, run
from tests.engine.test_output import FullDisk, listing, not_a_file

SIM = ["simulate", "lemming-mafia", "--races", 200, "--bots", "random", "--threads", 1, "--no-progress"]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "run"
    assert run([*SIM, "--out", out]) == 0
    return out


def writers(run_dir: Path, target: Path, tmp_path: Path) -> dict[str, list]:
    """Each command that writes a file, writing it to ``target``."""
    return {
        "simulate --report": [*SIM, "--report", target],
        "report": ["report", run_dir, "--report", target],
        "tournament --report": ["tournament", "lemming-mafia", "--bots", "random,timer", "--players", 3,
                                "--races", 60, "--threads", 1, "--no-progress", "--report", target],
        "replay --html": ["replay", "sau-mau-mau", "--seed", 3, "--html", target],
        "tune --save": ["tune", "lemming-mafia", "--bot", "timer", "--params", "late_bets", "--budget", 2000,
                        "--threads", 1, "--no-progress", "--save", target.with_suffix(".toml")],
        "sweep report": ["sweep", sweep_file(tmp_path, target), "--threads", 1, "--no-progress"],
    }


def sweep_file(tmp_path: Path, report: Path) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(f'game = "lemming-mafia"\nraces = 60\nseed = 3\nout = "sweep"\nreport = "{report}"\n'
                    "[grid]\nplayers = [3, 4]\n")
    return path


WRITERS = ["simulate --report", "report", "tournament --report", "replay --html", "tune --save", "sweep report"]


def one_error_line(capsys, code: int, expected: int, *needles) -> str:
    out, err = capsys.readouterr()
    lines = [line for line in err.strip().splitlines() if not line.startswith("generation ")]  # tune's
    assert code == expected and len(lines) == 1 and lines[0].startswith("analyzer: "), (code, err)
    assert "Traceback" not in out + err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return out


@pytest.mark.parametrize("kind", ["fifo", "symlink"])
@pytest.mark.parametrize("writer", WRITERS)
def test_a_fifo_or_a_link_is_refused_before_the_work(run_dir, tmp_path, capsys, writer, kind):
    """Item 7: a sweep's report and ``tune --save`` onto a FIFO hung once the work
    was done; item 1 for every writer: nothing at the path is replaced."""
    target = not_a_file(tmp_path, kind)
    if writer == "tune --save":
        target.rename(target.with_suffix(".toml"))
    argv = writers(run_dir, target, tmp_path)[writer]
    before = listing(tmp_path)
    out = one_error_line(capsys, run(argv), 2, "it exists and is not a file")
    assert "speed:" not in out and "generation" not in out and "cell 1/" not in out  # no work done
    assert listing(tmp_path) == before


ROOM = {"replay --html": 0, "tune --save": 0, "sweep report": 3}  # files written before the failing one


def ready(writer: str, run_dir: Path, tmp_path: Path, capsys) -> tuple[list, dict]:
    """The writer's command aimed at ``rep.html`` and the listing it must leave. A
    sweep runs its cells first, then is resumed: its manifest and table are
    written again (``ROOM``) before its report fails."""
    target = tmp_path / "rep.html"
    argv = writers(run_dir, target, tmp_path)[writer]
    if writer == "sweep report":
        assert run(argv) == 0, capsys.readouterr()
        target.unlink()
        shutil.rmtree(tmp_path / "rep_files")
        argv = [*argv, "--resume"]
    return argv, listing(tmp_path)


def left_as_before(writer: str, before: dict, tmp_path: Path) -> bool:
    after = listing(tmp_path)
    if writer == "sweep report":  # its table is written again
        return after.keys() == before.keys()
    return after == before


@pytest.mark.parametrize("writer", WRITERS)
def test_a_full_disk_is_exit_1_one_line_and_leaves_nothing(run_dir, tmp_path, capsys, monkeypatch, writer):
    """Item 9: a full disk left ``.rep.html.tmp-PID`` and a partly written
    ``rep_files/`` (exit 1), a temporary (replay, exit 2), a 0-byte bot file (tune, exit 2)."""
    argv, before = ready(writer, run_dir, tmp_path, capsys)
    FullDisk(monkeypatch, room=ROOM.get(writer, 1))  # a page fails after its first file
    one_error_line(capsys, run(argv), 1, "No space left on device")
    assert left_as_before(writer, before, tmp_path)


@pytest.mark.parametrize("writer", WRITERS)
def test_sigterm_while_writing_leaves_nothing(run_dir, tmp_path, capsys, monkeypatch, writer):
    """Item 18: SIGTERM in the report phase left an empty ``NAME_files/``. The
    signal arrives while a file is written; the handler raises there, as in a
    real run."""
    from analyzer.engine import output

    argv, before = ready(writer, run_dir, tmp_path, capsys)
    real, calls = output._put, []

    def put(path, data):
        calls.append(path)
        real(path, data)
        if len(calls) == ROOM.get(writer, 1) + 1:
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(output, "_put", put)
    one_error_line(capsys, run(argv), 143, "stopped by SIGTERM")
    assert len(calls) == ROOM.get(writer, 1) + 1 and left_as_before(writer, before, tmp_path)


def test_a_report_into_a_folder_of_the_users_is_refused(run_dir, tmp_path, capsys):
    """Item 18: an existing ``rep_files/`` of the user's had same-named files overwritten."""
    folder = tmp_path / "rep_files"
    folder.mkdir()
    (folder / "bots.csv").write_text("the user's")
    assert_usage_error(capsys, ["report", run_dir, "--report", tmp_path / "rep.html"],
                       "rep_files exists and was not written by analyzer")
    assert listing(tmp_path) == {"rep_files": b"", "rep_files/bots.csv": b"the user's"}


@pytest.mark.parametrize("kind", ["fifo", "symlink"])
def test_a_run_out_that_is_a_fifo_or_a_link_is_refused(run_dir, tmp_path, capsys, kind):
    """``simulate --out``: a link to a previous run was replaced by the new run's directory."""
    out = tmp_path / "out"
    if kind == "fifo":
        os.mkfifo(out)
    else:
        shutil.copytree(run_dir, tmp_path / "run")
        out.symlink_to(tmp_path / "run")
    before = listing(tmp_path)
    out_text = one_error_line(capsys, run([*SIM, "--out", out]), 2, "exists and is not a directory")
    assert "speed:" not in out_text and listing(tmp_path) == before
    assert out.is_fifo() if kind == "fifo" else out.is_symlink()


@pytest.mark.parametrize("key", ["report", "out"])
def test_a_scenarios_outputs_are_all_checked_before_its_first_run(tmp_path, capsys, key):
    """A FIFO as the second run's output was found only after the first run."""
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "s.toml").write_text(
        'game = "lemming-mafia"\nraces = 50\nbots = "random"\n[[run]]\nreport = "first.html"\n'
        f'[[run]]\nseed = 2\n{key} = "fifo"\n')
    out = one_error_line(capsys, run(["run", tmp_path / "s.toml", "--no-progress"]), 2, "fifo")
    assert "speed:" not in out and sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "s.toml"]


def test_a_sweep_out_that_is_a_fifo_is_refused(tmp_path, capsys):
    os.mkfifo(tmp_path / "sweep")
    assert_usage_error(capsys, ["sweep", sweep_file(tmp_path, tmp_path / "rep.html")],
                       "sweep", "exists and is not a directory")
    assert (tmp_path / "sweep").is_fifo()


def test_out_under_a_device_names_the_device(capsys):
    """Item 16: ``--out /dev/full/x`` said "File exists"."""
    assert_usage_error(capsys, [*SIM, "--out", "/dev/full/x"], "/dev/full is not a directory")


def test_a_run_dir_with_extra_files_is_named_as_a_run(run_dir, tmp_path, capsys):
    """Item 16: ``--out`` of a run dir with extra files said "no analyzer run manifest"."""
    out = tmp_path / "run"
    shutil.copytree(run_dir, out)
    (out / "notes.txt").write_text("mine")
    line = assert_usage_error(capsys, [*SIM, "--out", out], "is an analyzer run with other files put in it",
                              "notes.txt")
    assert "no analyzer run manifest" not in line
    assert (out / "notes.txt").read_text() == "mine"


def test_a_250_character_out_is_written(tmp_path, capsys):
    """Item 16: a 250-character ``--out`` failed on the hidden temporary's name."""
    out = tmp_path / ("r" * 250)
    assert run([*SIM, "--races", 20, "--out", out]) == 0, capsys.readouterr()
    assert (out / "manifest.json").is_file() and [p.name for p in tmp_path.iterdir()] == [out.name]


DATA = Path(__file__).resolve().parents[2] / "analyzer" / "games"


@pytest.mark.parametrize("game, folder, name_line", [
    ("lemming-mafia", "lemming_mafia", 'name = "assumed-default"'),
    ("sau-mau-mau", "sau_mau_mau", 'name = "assumed-default"'),
    ("lemminge", "lemminge", 'name = "assumed-default"'),
    ("mafia", "mafia", 'name = "assumed-default"'),
])
@pytest.mark.parametrize("name, needle", [("two\\nlines", "must be one line of text"), ("  ", "must not be empty")])
def test_a_board_name_must_be_one_line(tmp_path, capsys, game, folder, name_line, name, needle):
    """Item 18: a newline in a map's name broke the one-line header."""
    text = (DATA / folder / "data" / "assumed-default.toml").read_text()
    assert name_line in text
    board = tmp_path / "board.toml"
    board.write_text(text.replace(name_line, f'name = "{name}"', 1))
    assert_usage_error(capsys, ["simulate", game, "--board", board, "--races", 10, "--threads", 1,
                                "--no-progress"], str(board), needle)


@pytest.mark.parametrize("name, needle", [("", "must not be empty"), ("a\\nb", "must be one line of text")])
def test_a_bot_name_must_be_one_line(tmp_path, capsys, name, needle):
    """Item 18: an empty bot name was accepted, a newline broke the header."""
    toml = tmp_path / "b.toml"
    toml.write_text(f'family = "timer"\nname = "{name}"\n')
    assert_usage_error(capsys, [*SIM, "--bots", toml], "name", needle)
    bot = tmp_path / "b.py"
    bot.write_text("from analyzer.engine.bots import UserBot\n"
                   f"BOT = UserBot('{name}', lambda view: 0, game='lemming-mafia')\n")
    assert_usage_error(capsys, [*SIM, "--bots", bot], "the UserBot's name", needle)


@pytest.mark.parametrize("argv, code", [(["bots", "lemming-mafia"], 0), (["bots", "no-such-game"], 2)])
def test_closed_stderr_keeps_the_exit_code(argv, code):
    """Item 16: with stderr closed (``2>&-``) a successful run exited 1."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "analyzer", *argv], capture_output=False,
                          stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(DATA.parents[1])},
                          pass_fds=(), preexec_fn=lambda: os.close(2), timeout=120)
    assert proc.returncode == code
    assert (b"analyzer:" not in proc.stdout) and (bool(proc.stdout) == (code == 0))
