"""Lemming Mafia user bots (engine/userbots.py through view.py): the examples in
their plain and fast versions play, compare, tune and give identical tables;
a bot that raises, answers outside its options or indexes out of bounds ends
the run in one line naming its file. The game's kernel (compiled once, cached)
calls every bot by the address of its own code: no bot compiles the game."""
from pathlib import Path

import pandas as pd
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.lemming_mafia.registry import REGISTRY
from tests.cli_support import assert_usage_error, run

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "sims" / "bots"
HEADER = ("from numba import njit\n"
          "from analyzer.engine.bots import UserBot\n"
          "from analyzer.games.lemming_mafia.view import *\n")
BAD = {
    # a plain bot whose move decision raises
    "raises.py": ("def decide(view):\n"
                  "    if decision(view) == DECIDE_MOVE:\n"
                  "        return {}['no such key']\n"
                  "    return 0 if decision(view) == DECIDE_FIELD else -1\n"),
    # a plain bot that answers a move with an option it does not have
    "illegal.py": ("def decide(view):\n"
                   "    if decision(view) == DECIDE_MOVE:\n"
                   "        return n_options(view)\n"
                   "    return 0 if decision(view) == DECIDE_FIELD else -1\n"),
    # a fast bot that reads past the end of its view
    "bounds.py": ("@njit\n"
                  "def decide(view):\n"
                  "    if decision(view) == DECIDE_MOVE:\n"
                  "        return view.state[10 ** 6]\n"
                  "    return 0 if decision(view) == DECIDE_FIELD else -1\n"),
    # a fast bot that bets a colour outside 0-5
    "illegal_fast.py": ("@njit\n"
                        "def decide(view):\n"
                        "    if decision(view) == DECIDE_BET:\n"
                        "        return 6\n"
                        "    return 0 if decision(view) <= DECIDE_FIELD else -1\n"),
}


@pytest.fixture(scope="module")
def bots(tmp_path_factory):
    """Every bot file of the module, loaded up front (a fast one compiles as it loads)."""
    folder = tmp_path_factory.mktemp("lm_bots")
    paths = {name: EXAMPLES / f"lemming-mafia-{name}.py"
             for name in ("underdog", "underdog-fast", "loyal", "loyal-fast")}
    for name, body in BAD.items():
        path = folder / name
        path.write_text(HEADER + body + f"BOT = UserBot('{path.stem}', decide, game='lemming-mafia')\n")
        paths[path.stem] = path
    for path in paths.values():
        REGISTRY.resolve(BotSpec(str(path)))
    return paths


def _tables(out: Path) -> dict[str, pd.DataFrame]:
    return {f.stem: pd.read_parquet(f).drop(columns=["bot"], errors="ignore")
            for f in sorted(out.glob("*.parquet"))}


@pytest.mark.parametrize("example, spec", [("underdog", ":bet_chance=0.8"), ("loyal", "")])
def test_plain_and_fast_give_identical_tables(bots, tmp_path, capsys, example, spec):
    tables = {}
    # the plain bot on two threads in chunks, the fast one on one: a seed fixes the tables either way
    for version, threads in ((example, 2), (f"{example}-fast", 1)):
        out = tmp_path / version
        code = run(["simulate", "lemming-mafia", "--bots", f"{bots[version]}{spec},random,random,random",
                    "--races", 150, "--seed", 5, "--threads", threads, "--chunk", 50,
                    "--out", out, "--no-progress"])
        assert code == 0, capsys.readouterr().err
        assert list(pd.read_parquet(out / "players.parquet").bot.unique())[0] == f"{version}{spec}"
        tables[version] = _tables(out)
    assert set(tables[example]) == {"races", "players", "contracts", "bets", "fields"}
    for table, frame in tables[example].items():
        pd.testing.assert_frame_equal(frame, tables[f"{example}-fast"][table], check_categorical=False)
    players = tables[example]["players"]
    assert players[players.seat == 1].bets_placed.mean() > 0  # it bets (underdog: its parameter is read)


def test_compare_plain_against_fast_is_exactly_even(bots, capsys):
    """Same decisions on the same races: the paired difference is exactly zero."""
    assert run(["compare", "lemming-mafia", "--bot", bots["underdog"], "--vs", bots["underdog-fast"],
                "--races", 40, "--threads", 1]) == 0
    out = capsys.readouterr().out
    assert "+0.00 pp (exact)" in out and "+0.00 to +0.00" not in out


def test_tune_searches_the_declared_parameter(bots, capsys):
    code = run(["tune", "lemming-mafia", "--bot", f"{bots['underdog-fast']}:bet_chance=0.1", "--against", "random",
                "--budget", 16000, "--threads", 1])
    text = capsys.readouterr()
    assert code == 0, text.err
    assert "bet_chance" in text.out and "generation 1:" in text.err


@pytest.mark.parametrize("bot, needles", [
    ("raises", ("raises.py", "move decision", "raised KeyError at line 6", "no such key")),
    ("illegal", ("illegal.py", "move decision", "illegal choice", "the options are 0-")),
    ("bounds", ("bounds.py", "move decision", "IndexError", "out of bounds")),
    ("illegal_fast", ("illegal_fast.py", "bet decision", "illegal choice 6", "the answer is -1 to 5")),
])
def test_a_failing_bot_ends_the_run_in_one_line(bots, capsys, bot, needles):
    assert_usage_error(capsys, ["simulate", "lemming-mafia", "--bots", f"random,{bots[bot]},random",
                                "--players", 3, "--races", 30, "--threads", 1, "--no-progress"],
                       "user bot", "(seat 2", *needles)


def test_a_bot_for_the_other_game_is_refused(bots, capsys):
    assert_usage_error(capsys, ["simulate", "lemming-mafia", "--bots",
                                ROOT / "sims" / "bots" / "sau-mau-mau-greedy.py", "--races", 10],
                       "sau-mau-mau-greedy.py is a bot for 'sau-mau-mau', not 'lemming-mafia'")


def test_a_scenario_file_runs_a_user_bot(bots, tmp_path, capsys):
    scenario = tmp_path / "mine.toml"
    scenario.write_text(f'game = "lemming-mafia"\nplayers = 3\nbots = "{bots["underdog-fast"]},random,favourite"\n'
                        f'races = 100\nseed = 3\nthreads = 1\n')
    assert run(["run", scenario]) == 0
    assert "underdog-fast" in capsys.readouterr().out
