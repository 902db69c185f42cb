"""Mafia user bots (engine/userbots.py through view.py): the examples, a family
bot and a State bot, in their plain and fast versions play, compare and replay
and give identical tables; a bot file is refused in one line in a seat whose
role it does not declare; a bot that raises, answers outside its options or
indexes out of bounds ends the run in one line naming its file. The game's
kernel (compiled once, cached) calls every bot by the address of its own code:
no bot compiles the game."""
from pathlib import Path

import pandas as pd
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.mafia.registry import REGISTRY
from tests.cli_support import assert_usage_error, run

pytestmark = pytest.mark.slow  # a user bot's kernel compile; the fast tier leaves it out

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "sims" / "bots"
HEADER = ("from numba import njit\n"
          "from analyzer.engine.bots import UserBot\n"
          "from analyzer.games.mafia.view import *\n")
BAD = {
    # a plain bot whose move decision raises
    "raises.py": ("def decide(view):\n"
                  "    if decision(view) == DECIDE_MOVE:\n"
                  "        return {}['no such key']\n"
                  "    return 0\n"),
    # a plain bot that answers a move with an option it does not have
    "illegal.py": ("def decide(view):\n"
                   "    if decision(view) == DECIDE_MOVE:\n"
                   "        return n_options(view)\n"
                   "    return 0\n"),
    # a plain bot that writes into the game's own array (the map): read-only to it
    "scribbles.py": ("def decide(view):\n"
                     "    view.game[0] = -1\n"
                     "    return 0\n"),
    # a fast bot that writes into the game's own array: it does not compile
    "scribbles_fast.py": ("@njit\n"
                          "def decide(view):\n"
                          "    view.game[0] = -1\n"
                          "    return 0\n"),
    # a fast bot that reads a move option past the last
    "bounds.py": ("@njit\n"
                  "def decide(view):\n"
                  "    if decision(view) == DECIDE_MOVE:\n"
                  "        return move_to(view, n_options(view), 0) * 0\n"
                  "    return 0\n"),
}


@pytest.fixture(scope="module")
def bots(tmp_path_factory):
    """Every bot file of the module, loaded up front (a fast one compiles as it loads)."""
    folder = tmp_path_factory.mktemp("mafia_bots")
    paths = {name: EXAMPLES / f"mafia-{name}.py" for name in ("squatter", "squatter-fast", "purger", "purger-fast")}
    for name, body in BAD.items():
        path = folder / name
        path.write_text(HEADER + body + f"BOT = UserBot('{path.stem}', decide, game='mafia', roles=('family',))\n")
        paths[path.stem] = path
    for path in paths.values():
        if path.stem != "scribbles_fast":  # it does not load: below
            REGISTRY.resolve(BotSpec(str(path)))
    return paths


def test_a_fast_bot_that_writes_into_the_game_array_does_not_compile(bots, capsys):
    """The kernel's own game array is read-only to a fast bot (a copy-free
    read-only type): the write is refused when the bot compiles, in one line."""
    assert_usage_error(capsys, ["simulate", "mafia", "--players", 3, "--bots", f"random,{bots['scribbles_fast']},random",
                                "--games", 10, "--no-progress"],
                       "scribbles_fast.py", "does not compile", "writes into view.game", "read-only")


def _tables(out: Path) -> dict[str, pd.DataFrame]:
    return {f.stem: pd.read_parquet(f).drop(columns=["bot"], errors="ignore")
            for f in sorted(out.glob("*.parquet"))}


def test_plain_and_fast_give_identical_tables(bots, tmp_path, capsys):
    """The family example in seat 1 and the State example in seat 3, each with a
    parameter set: the plain versions on two threads in chunks, the fast ones on one."""
    tables = {}
    for version, threads in (("", 2), ("-fast", 1)):
        out = tmp_path / f"run{version}"
        table = (f"{bots['squatter' + version]}:caution=2,random,{bots['purger' + version]}:markers=1,"
                 "random,expander")
        code = run(["simulate", "mafia", "--players", 5, "--bots", table, "--games", 120, "--seed", 5,
                    "--threads", threads, "--chunk", 40, "--out", out, "--no-progress"])
        assert code == 0, capsys.readouterr().err
        seated = pd.read_parquet(out / "sides.parquet").groupby("seat").bot.first()
        assert list(seated[[1, 2, 3]]) == [f"squatter{version}:caution=2", "random", f"purger{version}:markers=1"]
        tables[version] = _tables(out)
    assert set(tables[""]) == {"games", "sides", "cards", "spaces"}
    for name, frame in tables[""].items():
        pd.testing.assert_frame_equal(frame, tables["-fast"][name], check_categorical=False)
    sides = tables[""]["sides"]
    # the squatter ends with more spaces than the random family beside it (same dice, 120 games)
    mean = sides.groupby("seat").spaces_end.mean()
    assert mean[1] > mean[2], mean
    assert tables[""]["games"].arrests.sum() > 0


def test_compare_plain_against_fast_is_exactly_even(bots, capsys):
    """Same decisions on the same games: the paired difference is exactly zero."""
    assert run(["compare", "mafia", "--players", 3, "--bot", bots["squatter"], "--vs", bots["squatter-fast"],
                "--field", "random", "--games", 20, "--threads", 1, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "+0.00 pp (exact)" in out and "+0.00 to +0.00" not in out


def test_a_user_bot_game_replays_with_its_decisions(bots, capsys):
    assert run(["replay", "mafia", "--players", 3, "--bots", f"random,random,{bots['purger-fast']}",
                "--game", 2]) == 0
    out = capsys.readouterr().out
    assert "ways to use the roll" in out and "state moves the " in out and "the game ends after" in out


def test_a_bot_is_refused_in_a_role_it_does_not_declare(bots, capsys):
    assert_usage_error(capsys, ["simulate", "mafia", "--players", 5, "--bots",
                                f"{bots['purger']},random,random,random,random", "--games", 10],
                       "cannot play seat 1: that seat's role is family", "the bot plays state")


@pytest.mark.parametrize("bot, needles", [
    ("raises", ("raises.py", "move decision", "raised KeyError at line 6", "no such key")),
    ("illegal", ("illegal.py", "move decision", "illegal choice", "the options are 0-")),
    ("scribbles", ("scribbles.py", "raised ValueError", "read-only")),
    ("bounds", ("bounds.py", "move decision", "IndexError", "move_to(view, i, k): i outside")),
])
def test_a_failing_bot_ends_the_run_in_one_line(bots, capsys, bot, needles):
    assert_usage_error(capsys, ["simulate", "mafia", "--players", 3, "--bots", f"random,{bots[bot]},random",
                                "--games", 30, "--threads", 1, "--no-progress"],
                       "user bot", "(seat 2", *needles)
