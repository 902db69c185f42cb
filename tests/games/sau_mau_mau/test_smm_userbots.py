"""Sau Mau Mau user bots (engine/userbots.py through view.py): the example in
its plain and fast versions plays, compares, rates and gives identical tables;
a bot that raises, answers outside its options or indexes out of bounds ends
the run in one line naming its file. The game's kernel (compiled once, cached)
calls every bot by the address of its own code: no bot compiles the game."""
from pathlib import Path

import pandas as pd
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.sau_mau_mau.registry import REGISTRY
from tests.cli_support import assert_usage_error, run

ROOT = Path(__file__).resolve().parents[3]
PLAIN = ROOT / "sims" / "bots" / "sau-mau-mau-greedy.py"
FAST = ROOT / "sims" / "bots" / "sau-mau-mau-greedy-fast.py"
HEADER = ("from numba import njit\n"
          "from analyzer.engine.bots import UserBot\n"
          "from analyzer.games.sau_mau_mau.view import *\n")
BAD = {
    # a plain bot that divides by zero when it has a bet to make
    "raises.py": ("def decide(view):\n"
                  "    if decision(view) == DECIDE_BET:\n"
                  "        return 1 // (hand_size(view) - hand_size(view))\n"
                  "    return 0 if decision(view) == DECIDE_COLOR else -1\n"),
    # a plain bot that names a colour that does not exist
    "illegal.py": ("def decide(view):\n"
                   "    if decision(view) == DECIDE_COLOR:\n"
                   "        return 4\n"
                   "    if decision(view) == DECIDE_PLAY or decision(view) == DECIDE_FLAPI:\n"
                   "        return 0 if n_options(view) > 0 else -1\n"
                   "    return -1\n"),
    # a fast bot that asks for an option past the last
    "bounds.py": ("@njit\n"
                  "def decide(view):\n"
                  "    if decision(view) == DECIDE_PLAY:\n"
                  "        return options(view, n_options(view) + 3) * 0 - 1\n"
                  "    return 0 if decision(view) == DECIDE_COLOR else -1\n"),
}


@pytest.fixture(scope="module")
def bots(tmp_path_factory):
    """Every bot file of the module, loaded up front (a fast one compiles as it loads)."""
    folder = tmp_path_factory.mktemp("smm_bots")
    paths = {"plain": PLAIN, "fast": FAST}
    for name, body in BAD.items():
        path = folder / name
        path.write_text(HEADER + body + f"BOT = UserBot('{path.stem}', decide, game='sau-mau-mau')\n")
        paths[path.stem] = path
    for path in paths.values():
        REGISTRY.resolve(BotSpec(str(path)))
    return paths


def _tables(out: Path) -> dict[str, pd.DataFrame]:
    return {f.stem: pd.read_parquet(f).drop(columns=["bot"], errors="ignore")
            for f in sorted(out.glob("*.parquet"))}


def test_plain_and_fast_give_identical_tables(bots, tmp_path, capsys):
    tables = {}
    # the plain bot on two threads in chunks, the fast one on one: a seed fixes the tables either way
    for version, threads in (("plain", 2), ("fast", 1)):
        out = tmp_path / version
        code = run(["simulate", "sau-mau-mau", "--bots", f"{bots[version]}:switch_lead=2,random,backer,random",
                    "--games", 60, "--seed", 5, "--threads", threads, "--chunk", 20,
                    "--out", out, "--no-progress"])
        assert code == 0, capsys.readouterr().err
        tables[version] = _tables(out)
    for version, name in (("plain", "greedy"), ("fast", "greedy-fast")):
        seated = pd.read_parquet(tmp_path / version / "players.parquet").bot.unique()
        assert list(seated)[0] == f"{name}:switch_lead=2"
    assert set(tables["plain"]) == {"races", "players", "games", "bets", "bet_events"}
    for name, table in tables["plain"].items():
        pd.testing.assert_frame_equal(table, tables["fast"][name], check_categorical=False)
    bets = tables["plain"]["bets"]
    assert (bets[bets.seat == 1].changed).any()  # it changes bets (switch_lead is read)


def test_compare_plain_against_fast_is_exactly_even(bots, capsys):
    """Same decisions on the same games: the paired difference is exactly zero."""
    assert run(["compare", "sau-mau-mau", "--bot", bots["plain"], "--vs", bots["fast"],
                "--games", 20, "--threads", 1]) == 0
    out = capsys.readouterr().out
    assert "+0.00 pp (exact)" in out and "+0.00 to +0.00" not in out


def test_tournament_rates_the_greedy_bot_above_random(bots, capsys):
    assert run(["tournament", "sau-mau-mau", "--bots", f"random,{bots['fast']},backer", "--players", 3,
                "--games", 600, "--threads", 1, "--no-progress"]) == 0
    out = capsys.readouterr().out
    elo = {line.split()[0]: float(line.split()[1]) for line in out.splitlines()
           if line.split() and line.split()[0] in ("random", "greedy-fast", "backer")}
    assert elo["greedy-fast"] > elo["random"]


@pytest.mark.parametrize("bot, needles", [
    ("raises", ("raises.py", "bet decision", "raised ZeroDivisionError at line")),
    ("illegal", ("illegal.py", "color decision", "illegal choice 4", "the answer is 0 to 3")),
    ("bounds", ("bounds.py", "play decision", "IndexError", "options(view, i): i outside")),
])
def test_a_failing_bot_ends_the_run_in_one_line(bots, capsys, bot, needles):
    assert_usage_error(capsys, ["simulate", "sau-mau-mau", "--bots", f"random,{bots[bot]},random",
                                "--players", 3, "--games", 30, "--threads", 1, "--no-progress"],
                       "user bot", "(seat 2", *needles)


def test_a_scenario_file_runs_a_user_bot(bots, tmp_path, capsys):
    scenario = tmp_path / "mine.toml"
    scenario.write_text(f'game = "sau-mau-mau"\nplayers = 3\nbots = "{bots["fast"]},random,tempo"\n'
                        f'games = 40\nseed = 3\nthreads = 1\n')
    assert run(["run", scenario]) == 0
    assert "greedy-fast" in capsys.readouterr().out
