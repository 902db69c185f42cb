""""Nothing lost, nothing silent": the cases an adversarial user found,
each reproduced through the command line. Every bad input is one line on
stderr and exit 2 (exit 1 when the output cannot be written), before any race
is played; nothing of the user's is lost."""
import json
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from tests.cli_support import assert_usage_error, run

ROOT = Path(__file__).resolve().parents[2]
HUGE = str(10 ** 30)


def sim(*extra, game="lemming-mafia", races=10):
    return ["simulate", game, "--races", races, "--no-progress", "--threads", 1, *extra]


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


# ------------------------------------------------------------ 1. data loss

def test_out_refuses_a_folder_of_the_users_own_parquet_files(tmp_path, capsys):
    """Case 1: a folder holding only the user's .parquet files is not a previous run."""
    out = tmp_path / "mine"
    out.mkdir()
    pd.DataFrame({"x": [1, 2]}).to_parquet(out / "results.parquet")
    before = (out / "results.parquet").read_bytes()
    assert_usage_error(capsys, sim("--out", out), "no analyzer run manifest")
    assert sorted(p.name for p in out.iterdir()) == ["results.parquet"]
    assert (out / "results.parquet").read_bytes() == before


def test_out_replaces_a_previous_run(tmp_path, capsys):
    """The control: a directory whose manifest says it is a run of ours is replaced."""
    out = tmp_path / "run"
    assert run(sim("--out", out, "--bots", "random", races=20)) == 0
    assert run(sim("--out", out, "--bots", "random", "--seed", 5, races=30)) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 5 and manifest["races"] == 30 and manifest["written_by"] == "analyzer"
    capsys.readouterr()


# ------------------------------------------------------------ 2. exit codes

def test_ctrl_c_is_exit_130_with_a_message(capsys, monkeypatch):
    """Case 2: typer returns 130 on KeyboardInterrupt; it must reach the exit code."""
    import analyzer.cli as cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "run_simulation", interrupted)
    assert run(["simulate", "lemming-mafia"]) == 130
    assert capsys.readouterr().err == "analyzer: interrupted\n"


def test_interruptible_returns_at_once_while_compiled_code_runs():
    """Case 2: a warm-up stuck in nogil compiled code (a user bot's endless loop)
    no longer holds Ctrl-C back: the caller gets the KeyboardInterrupt."""
    import _thread
    import threading

    import numpy as np
    from numba import njit

    from analyzer.engine.runner import interruptible

    @njit(nogil=True)
    def spin(flag):
        n = 0
        while flag[0] == 0:
            n += 1
        return n

    flag = np.zeros(1, np.int64)
    spin(np.ones(1, np.int64))  # compile first, so the timer measures the loop
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            interruptible(lambda: spin(flag))
    finally:
        flag[0] = 1  # let the abandoned thread end
        timer.cancel()


def test_stdout_to_a_full_device_is_one_line_and_exit_1():
    """Case 5: stdout on /dev/full: no traceback."""
    if not Path("/dev/full").exists():
        pytest.fail("/dev/full is missing on this machine")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "analyzer", "bots", "lemming-mafia"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 1
    assert proc.stderr == "analyzer: error: cannot write the output: No space left on device\n"


# ------------------------------------------------------------ 3./4. bounds

@pytest.mark.parametrize("argv, needle", [
    (sim(races=HUGE), "--races must be at most 10,000,000,000"),
    (["simulate", "sau-mau-mau", "--games", HUGE, "--no-progress"], "--games must be at most"),
    (sim("--threads", HUGE), "--threads must be at most 256"),
    (sim("--players", HUGE), "--players must be at most 16"),
    (sim("--players", HUGE, "--bots", "random"), "--players must be at most 16"),
    (["compare", "lemming-mafia", "--bot", "random", "--vs", "timer", "--races", HUGE], "--races must be at most"),
    (["compare", "lemming-mafia", "--bot", "random", "--vs", "timer", "--players", HUGE, "--field", "random"],
     "--players must be at most 16"),
    (["tournament", "lemming-mafia", "--bots", "random,timer", "--races", HUGE], "--races must be at most"),
    (["tune", "lemming-mafia", "--bot", "timer", "--budget", HUGE], "--races must be at most"),
    (["tune", "lemming-mafia", "--bot", "timer", "--threads", HUGE], "--threads must be at most 256"),
])
def test_huge_counts_fail_at_once(capsys, argv, needle):
    """Case 4: 1e30 races, threads or players ran out of memory, hung or ended in a
    traceback; now each is refused before any work (the whole test takes well
    under a second per case)."""
    assert_usage_error(capsys, argv, needle)


def test_a_board_too_long_for_the_records_is_refused(tmp_path, capsys):
    """Case 3: 20,000 sections wrote negative turns; boards are bounded so every
    16-bit record fits."""
    from analyzer.games.lemming_mafia.board import MAX_SECTIONS

    sections = ",".join(['["empty", "concrete"]'] * (MAX_SECTIONS + 1))
    board = write(tmp_path / "long.toml", f"[board]\nsections = [{sections}]\n")
    assert_usage_error(capsys, sim("--board", board), str(board),
                       f"{MAX_SECTIONS + 1} sections, at most {MAX_SECTIONS}")
    card = '[[contracts]]\nkind = "winner_clean"\n'
    deck = write(tmp_path / "deck.toml", card * 1001)
    assert_usage_error(capsys, sim("--board", deck), "contracts", "at most 1000")


def test_the_longest_board_allowed_records_true_numbers(tmp_path, capsys):
    """Case 3, the control: on the longest, widest board allowed (no concrete, so
    no lemming drops out and races are as long as they get), turns, decisions
    and field numbers are recorded exactly: past 32,767 they would wrap negative."""
    from analyzer.games.lemming_mafia.board import MAX_SECTION_FIELDS, MAX_SECTIONS

    section = ["bookmaker", "boss", "jackhammer"] + ["empty"] * (MAX_SECTION_FIELDS - 3)
    sections = ",".join(['["' + '", "'.join(section) + '"]'] * MAX_SECTIONS)
    board = write(tmp_path / "longest.toml", f"[board]\nsections = [{sections}]\n")
    out = tmp_path / "run"
    assert run(sim("--board", board, "--bots", "random", "--out", out, races=3)) == 0
    capsys.readouterr()
    races = pd.read_parquet(out / "races.parquet")
    players = pd.read_parquet(out / "players.parquet")
    # the winner moved once per section and once more into the water; every
    # move takes a lemming at least a section on
    assert (races.turns > MAX_SECTIONS).all() and (races.turns <= 6 * MAX_SECTIONS + 1).all()
    fields = MAX_SECTIONS * MAX_SECTION_FIELDS
    assert races.winner_field.between(0, fields).all()
    assert (players.decisions >= 0).all()
    table = pd.read_parquet(out / "fields.parquet")
    assert table.field.tolist() == list(range(fields))


# ------------------------------------------------------------ 5. tracebacks

def test_a_full_disk_is_one_line_exit_1_and_leaves_nothing(tmp_path, capsys, monkeypatch):
    """Case 5: a full disk while the tables are written."""
    import errno
    import os

    import pyarrow.parquet as pq

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(pq.ParquetWriter, "write_table", full)
    assert run(sim("--out", tmp_path / "run", "--bots", "random", races=50)) == 1
    out, err = capsys.readouterr()
    assert err == f"analyzer: error: cannot write to {tmp_path / 'run'}: No space left on device\n"
    assert list(tmp_path.iterdir()) == []


def test_a_track_key_that_is_a_digit_but_no_number(tmp_path, capsys):
    """Case 5: the key "²" passed str.isdigit and crashed int()."""
    track = write(tmp_path / "t.toml", '[track.crown]\n2 = 12\n3 = 15\n4 = 18\n5 = 21\n"²" = 3\n')
    assert_usage_error(capsys, sim("--board", track, game="sau-mau-mau"), str(track), "unknown player count '²'")


def test_a_user_bot_whose_default_is_a_string(tmp_path, capsys):
    """Case 5: a user bot declaring a parameter default "high"."""
    bot = write(tmp_path / "text_bot.py",
                "from numba import njit\nfrom analyzer.engine.bots import UserBot\n"
                "@njit\ndef decide(what, seat, kind, game, state, params, n_options):\n    return 0\n"
                "BOT = UserBot('text', decide, params={'level': ('high', 'how high')})\n")
    assert_usage_error(capsys, sim("--bots", f"{bot},random,random,random"), str(bot),
                       "default of parameter 'level' must be a number, got 'high'")


def test_a_manifest_with_bots_as_a_string(tmp_path, capsys):
    """Case 5: ``analyzer report`` on a run whose manifest was edited."""
    out = tmp_path / "run"
    assert run(sim("--out", out, "--bots", "random", races=20)) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    (out / "manifest.json").write_text(json.dumps({**manifest, "bots": "random"}))
    assert_usage_error(capsys, ["report", out], "manifest.json", "bots")


# ------------------------------------------------------------ 6. bot parameters

@pytest.mark.parametrize("bots, needle", [
    ("favourite:sharpness=100", "parameter sharpness must be a number from 0 to 20, got 100"),
    ("lookahead:rollouts=-5", "parameter rollouts must be a whole number from 1 to 4096, got -5"),
    ("lookahead:rollouts=0.5", "parameter rollouts must be a whole number from 1 to 4096, got 0.5"),
    ("lookahead:rollouts=1e19", "parameter rollouts must be a whole number from 1 to 4096, got 1e+19"),
    ("lookahead:shared=2", "parameter shared must be a whole number from 0 to 1, got 2"),
    ("lookahead:drop=-1", "parameter drop must be a number from 0 to 100, got -1"),
    ("timer:late_bets=7", "parameter late_bets must be a number from 0 to 6"),
])
def test_parameters_out_of_their_declared_range(capsys, bots, needle):
    """Case 6: values the bot cannot play with are refused, naming the bot."""
    assert_usage_error(capsys, sim("--bots", bots), needle)


def test_sau_mau_mau_parameters_have_ranges_too(capsys):
    assert_usage_error(capsys, sim("--bots", "backer:crowding=2", game="sau-mau-mau"),
                       "parameter crowding must be a number from 0 to 1")


def test_a_bot_file_out_of_range(tmp_path, capsys):
    bot = write(tmp_path / "sharp.toml", 'family = "favourite"\n[params]\nsharpness = 100\n')
    assert_usage_error(capsys, sim("--bots", bot), str(bot), "sharpness must be a number from 0 to 20")


def test_sharp_favourite_on_a_long_board_bets_only_cards_it_holds(tmp_path, capsys):
    """Case 6: exp(sharpness x progress) overflowed below the "not in hand" mark
    and the bot bet a card it did not hold. At the largest sharpness allowed,
    on a board long enough to overflow exp, the run completes."""
    sections = ",".join(['["bookmaker", "empty"]'] * 60)  # exp(20 x 60) overflows
    board = write(tmp_path / "long.toml", f"[board]\nsections = [{sections}]\n")
    assert run(sim("--board", board, "--bots", "favourite:sharpness=20", races=200)) == 0
    assert "favourite:sharpness=20" in capsys.readouterr().out


# ------------------------------------------------------------ 7. user bots (no compile)

def test_sys_exit_in_a_bot_file_is_an_error(tmp_path, capsys):
    """Case 7: ``sys.exit(0)`` in a bot file exited 0 with no output."""
    bot = write(tmp_path / "quitter.py", "import sys\nsys.exit(0)\n")
    assert_usage_error(capsys, sim("--bots", f"{bot},random,random,random"), str(bot), "SystemExit")


def test_a_user_bot_labelled_like_a_built_in_one(tmp_path, capsys):
    """Case 7: a user bot named "random" was merged with the built-in random bot."""
    bot = write(tmp_path / "impostor.py",
                "from numba import njit\nfrom analyzer.engine.bots import UserBot\n"
                "@njit\ndef decide(what, seat, kind, game, state, params, n_options):\n    return 0\n"
                "BOT = UserBot('random', decide)\n")
    assert_usage_error(capsys, sim("--bots", f"{bot},random,random,random"),
                       "two different bots are both labelled 'random'", str(bot))


# ------------------------------------------------------------ 8. outputs

def test_out_dot_fails_before_any_race(tmp_path, capsys, monkeypatch):
    """Case 8: ``--out .`` failed only after every race."""
    monkeypatch.chdir(tmp_path)
    started = time.perf_counter()
    assert_usage_error(capsys, sim("--out", ".", races=10_000_000), "current directory")
    assert list(tmp_path.iterdir()) == []
    assert time.perf_counter() - started < 60  # not the ten million races (about a minute at best)


def test_tune_save_to_an_unwritable_place_fails_before_the_search(tmp_path, capsys, monkeypatch):
    """Case 8: ``tune --out`` to a place it cannot write failed after the search."""
    import analyzer.engine.tune as tune

    def no_search(*args, **kwargs):
        raise AssertionError("the search ran")

    monkeypatch.setattr(tune, "tune", no_search)
    blocker = write(tmp_path / "file", "x")
    for option in ("--save", "--out"):
        assert_usage_error(capsys, ["tune", "lemming-mafia", "--bot", "timer", option, blocker / "t.toml"],
                           "cannot write", str(blocker / "t.toml"))


def test_the_same_run_twice_in_one_report(tmp_path, capsys):
    """Case 8: ``analyzer report RUN RUN`` counted the run twice."""
    out = tmp_path / "run"
    assert run(sim("--out", out, "--bots", "random", races=20)) == 0
    assert_usage_error(capsys, ["report", out, tmp_path / "." / "run"], "given twice")


def test_duplicated_rows_are_detected(tmp_path, capsys):
    """Case 8: a table appended to itself (with the manifest's count adjusted)."""
    out = tmp_path / "run"
    assert run(sim("--out", out, "--bots", "random", races=20)) == 0
    races = pd.read_parquet(out / "races.parquet")
    pd.concat([races, races.iloc[:5]]).to_parquet(out / "races.parquet")
    manifest = json.loads((out / "manifest.json").read_text())
    (out / "manifest.json").write_text(json.dumps({**manifest, "races": 25}))
    assert_usage_error(capsys, ["report", out], "races.parquet", "5 duplicated rows")


# ------------------------------------------------------------ 9. board files

@pytest.mark.parametrize("text, needle", [
    ('[board]\nassumed = "false"\nsections = [["empty"]]\n', "board.assumed: input should be a valid boolean"),
    ('[board]\nsections = [["empty"]]\nsection = [["empty"]]\n', "board: unknown key 'section'"),
    ('deck = 5\n[board]\nsections = [["empty"]]\n', "deck: must be a table, got 5"),
    ('[board]\nname = 3\nsections = [["empty"]]\n', "board.name: input should be a valid string"),
    ('[[contracts]]\nkind = "top3"\ncolors = ["red"]\npoints = 2.5\n', "contract 1.points"),
])
def test_board_files_are_validated(tmp_path, capsys, text, needle):
    """Case 9: a board file with ``assumed = "false"``, unknown keys or ``deck = 5``
    was accepted (and labelled assumed)."""
    board = write(tmp_path / "b.toml", text)
    assert_usage_error(capsys, sim("--board", board), str(board), needle)


def test_a_copy_of_the_default_counts_as_assumed_in_both_games(tmp_path):
    from analyzer.games.lemming_mafia.board import default_board_path, load_setup
    from analyzer.games.sau_mau_mau.board import default_track_path, load_track

    lm = write(tmp_path / "mine.toml", default_board_path().read_text().replace("assumed = true", "assumed = false"))
    board, deck = load_setup(lm)
    assert board.assumed and deck.assumed
    smm = write(tmp_path / "track.toml", default_track_path().read_text().replace("assumed = true", ""))
    assert load_track(smm).assumed


def test_tune_searches_inside_the_declared_ranges(capsys):
    """Parameter ranges and the tuner agree: a default search range (0.25x to 3x
    the default) is cut to what the parameter takes, and a range given beyond
    the declared one is refused before the search."""
    from analyzer.engine.tune import _within
    from analyzer.engine.tune import search_space
    from analyzer.games import bot_families

    timer = bot_families("lemming-mafia")["timer"]
    space = [_within(p, timer.range_of(p.name)) for p in search_space(timer.defaults(), timer.defaults(), None)]
    late = next(p for p in space if p.name == "late_bets")
    assert (late.lo, late.hi) == (0.75, 6.0)  # 3x the default 3 would be 9 of 6 cards
    assert_usage_error(capsys, ["tune", "lemming-mafia", "--bot", "timer", "--params", "late_bets=0:9"],
                       "late_bets must be a number from 0 to 6, got 9")


def test_a_report_over_another_games_report_leaves_none_of_its_files(tmp_path, capsys):
    """Case 8: a report written over another game's report left the old CSVs
    (and figures) in ``_files/``. Files the user put there stay."""
    html = tmp_path / "report.html"
    assert run(sim("--report", html, "--bots", "random", races=200)) == 0
    folder = tmp_path / "report_files"
    lemming_files = {p.name for p in folder.iterdir()}
    (folder / "notes.txt").write_text("mine")
    assert run(sim("--report", html, "--bots", "random", game="sau-mau-mau", races=50)) == 0
    capsys.readouterr()
    left = {p.name for p in folder.iterdir()}
    pigs_files = left - {"notes.txt"}
    assert "notes.txt" in left
    only_old = lemming_files - pigs_files
    assert only_old and pigs_files and not only_old & left  # nothing only the old report wrote
    assert "Sau Mau Mau" in html.read_text()
