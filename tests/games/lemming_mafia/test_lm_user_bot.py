"""A user's own bot file plugs in without editing the engine (sims/my_bot.py),
and a fast bot runs whatever numba compiles (an array it makes, too)."""
from pathlib import Path

import pandas as pd

from tests.cli_support import run

ROOT = Path(__file__).resolve().parents[3]
MY_BOT = ROOT / "sims" / "my_bot.py"


def test_the_example_bot_plays_and_its_parameter_counts(tmp_path, capsys):
    tables = {}
    for chance in (0, 1):
        out = tmp_path / f"run{chance}"
        code = run(["simulate", "lemming-mafia", "--bots", f"{MY_BOT}:bet_chance={chance},random,random,random",
                    "--races", "2000", "--seed", "3", "--out", out, "--no-progress"])
        assert code == 0, capsys.readouterr().err
        tables[chance] = pd.read_parquet(out / "players.parquet")
    assert "underdog:bet_chance=1" in capsys.readouterr().out
    never = tables[0][tables[0].seat == 1]
    always = tables[1][tables[1].seat == 1]
    assert (never.bets_placed == 0).all()  # bet_chance=0: it never bets
    # bet_chance=1: it bets at every bookmaker while it holds cards, more than random
    random_seat = tables[1][tables[1].seat == 2]
    assert always.bets_placed.mean() > random_seat.bets_placed.mean() + 0.5


def test_a_bot_that_allocates_plays(tmp_path, capsys):
    """A fast bot is compiled on its own, with numba's memory management (the
    kernel calls it by address), so an array it makes is allocated and freed at
    each decision: slow, but it plays (it used to be refused, compiled into a
    kernel without it)."""
    bot = tmp_path / "alloc_bot.py"
    bot.write_text(
        "import numpy as np\n"
        "from numba import njit\n"
        "from analyzer.games.lemming_mafia.registry import UserBot\n"
        "@njit\n"
        "def decide(what, seat, kind, game, state, params, n_options):\n"
        "    buf = np.zeros(3, np.int64)\n"
        "    buf[1] = n_options - 1\n"
        "    return -1 if what >= 2 else int(buf[1])\n"
        "BOT = UserBot(name='alloc', decide=decide)\n")
    out = tmp_path / "run"
    code = run(["simulate", "lemming-mafia", "--bots", f"{bot},random,random,random", "--races", "200",
                "--out", out, "--no-progress"])
    assert code == 0, capsys.readouterr().err
    seats = pd.read_parquet(out / "players.parquet")
    assert (seats[seats.seat == 1].bets_placed == 0).all()  # it passes every bet, as it says
