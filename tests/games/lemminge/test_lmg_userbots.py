"""Lemminge user bots (engine/userbots.py through view.py): the examples in
their plain and fast versions play, compare and give identical tables; a bot
that raises, answers outside its options, indexes out of bounds or discards
cards it does not hold ends the run in one line naming its file. The game's
kernel (compiled once, cached) calls every bot by the address of its own code:
no bot compiles the game (the tests that play are in the slow tier; the
view's own test compiles no kernel)."""
from pathlib import Path

import pandas as pd
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge import rules as R
from analyzer.games.lemminge import view as V
from analyzer.games.lemminge.registry import REGISTRY
from tests.cli_support import assert_usage_error, run
from tests.games.lemminge.lmg_support import FOREST, Table, card, make_map

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "sims" / "bots"
HEADER = ("from numba import njit\n"
          "from analyzer.engine.bots import UserBot\n"
          "from analyzer.games.lemminge.view import *\n")
BAD = {
    # a plain bot that divides by zero when it chooses its card
    "raises.py": ("def decide(view):\n"
                  "    if decision(view) == DECIDE_ACTION:\n"
                  "        return 1 // (hand_size(view) - hand_size(view))\n"
                  "    return 0\n"),
    # a plain bot that answers with an option past the last
    "illegal.py": ("def decide(view):\n"
                   "    if decision(view) == DECIDE_ACTION:\n"
                   "        return n_options(view)\n"
                   "    return 0\n"),
    # a fast bot that asks for an option past the last
    "bounds.py": ("@njit\n"
                  "def decide(view):\n"
                  "    if decision(view) == DECIDE_ACTION:\n"
                  "        return options(view, n_options(view) + 3) * 0 - 1\n"
                  "    return 0\n"),
    # a fast bot that refills and discards cards past its hand (the kernel's own check)
    "discards.py": ("@njit\n"
                    "def decide(view):\n"
                    "    if decision(view) == DECIDE_ACTION:\n"
                    "        return -1\n"
                    "    return 63 if decision(view) == DECIDE_DISCARD else 0\n"),
}


@pytest.fixture(scope="module")
def bots(tmp_path_factory):
    """Every bot file of the module, loaded up front (a fast one compiles as it loads)."""
    folder = tmp_path_factory.mktemp("lmg_bots")
    paths = {name: EXAMPLES / f"lemminge-{name}.py" for name in ("sprinter", "sprinter-fast", "pusher", "pusher-fast")}
    for name, body in BAD.items():
        path = folder / name
        path.write_text(HEADER + body + f"BOT = UserBot('{path.stem}', decide, game='lemminge')\n")
        paths[path.stem] = path
    for path in paths.values():
        REGISTRY.resolve(BotSpec(str(path)))
    return paths


def test_the_view_reads_the_table_by_name_and_checks_its_index():
    """One row of hexes, finish to start: Z M F M A (cells 0-4). No kernel is compiled."""
    t = Table(make_map("ZMFMA"), players=2)
    t.hand(0, [card(FOREST, 3), card(FOREST, 1)])
    t.place(2, 3, 0)  # seat 1's first lemming on the meadow next to the start
    s = t.state
    s[L.S_VIEW:L.S_VIEW + L.OWN_LEN] = t.hidden[:L.OWN_LEN]  # seat 0's own row, as ask_bot copies it
    n = R.list_steps(t.game, s, 0, FOREST, 3, L.S_OPTIONS)  # seat 0's first lemming, from the start
    view = V.View(L.DECIDE_STEP, 0, n, t.game, s, t.params[0])
    assert [V.position(view, k) for k in range(4)] == [L.AT_START, L.AT_START, 3, L.AT_START]
    assert [V.terrain(view, c) for c in range(5)] == [V.FINISH, V.MEADOW, V.FOREST, V.MEADOW, V.START]
    assert [V.finish_distance(view, c) for c in range(4)] == [0, 1, 2, 3]
    assert V.occupant(view, 3) == 2 and V.occupant(view, 2) == -1 and V.distance(view, 2) == 3
    assert V.neighbour(view, 2, 1) == 1 and V.neighbour(view, 0, 1) == -1  # direction 1: west
    assert V.can_enter(view, 2, FOREST) == 1 and V.can_enter(view, 2, FOREST + 1) == 0
    assert V.can_enter(view, 1, FOREST + 1) == 1  # meadow takes every card
    # the only step: into hex 3, pushing the rival on into hex 2 (cost 2)
    assert n == 1 and V.step_cost(view, 0) == 2 and V.step_direction(view, 0) == 1
    assert V.step_distance(view, 0) == 3 and V.step_from(view, 0) == 4
    # the hand against the opening 2 of the forest column: 3 starts a new column, 1 adds to it
    assert [V.hand(view, i) for i in range(V.hand_size(view))] == [card(FOREST, 3), card(FOREST, 1)]
    assert V.column_card(view, FOREST, 0) == card(FOREST, 2) and V.column_sum(view, FOREST) == 2
    assert [V.movement(view, V.hand(view, i)) for i in range(2)] == [3, 3]
    assert [V.new_column(view, V.hand(view, i)) for i in range(2)] == [1, 0]
    assert V.card_terrain(view, card(FOREST, 1)) == FOREST and V.card_value(view, card(FOREST, 1)) == 1
    action = V.View(L.DECIDE_ACTION, 0, 2, t.game, s, t.params[0])
    for bad in (lambda: V.step_cost(action, 0), lambda: V.step_cost(view, 1), lambda: V.terrain(view, 5),
                lambda: V.occupant(view, -1), lambda: V.neighbour(view, 2, 6), lambda: V.position(view, 10),
                lambda: V.column_card(view, FOREST, 1), lambda: V.card_value(view, 5 * 11)):
        with pytest.raises(IndexError):
            bad()
    assert "decision step" in repr(view) and "position: [-1, -1, 3, -1" in repr(view)


def _tables(out: Path) -> dict[str, pd.DataFrame]:
    return {f.stem: pd.read_parquet(f).drop(columns=["bot"], errors="ignore")
            for f in sorted(out.glob("*.parquet"))}


@pytest.mark.slow  # plays through the module's one user-bot kernel
@pytest.mark.parametrize("example, spec", [("sprinter", ":refill_below=5"), ("pusher", ":push=2")])
def test_plain_and_fast_give_identical_tables(bots, tmp_path, capsys, example, spec):
    tables = {}
    # the plain bot on two threads in chunks, the fast one on one: a seed fixes the tables either way
    for version, threads in ((example, 2), (f"{example}-fast", 1)):
        out = tmp_path / version
        code = run(["simulate", "lemminge", "--bots", f"{bots[version]}{spec},random,racer,random",
                    "--games", 40, "--seed", 5, "--threads", threads, "--chunk", 10,
                    "--out", out, "--no-progress"])
        assert code == 0, capsys.readouterr().err
        assert list(pd.read_parquet(out / "players.parquet").bot.unique())[0] == f"{version}{spec}"
        tables[version] = _tables(out)
    assert set(tables[example]) == {"games", "players", "moves", "hexes"}
    for table, frame in tables[example].items():
        pd.testing.assert_frame_equal(frame, tables[f"{example}-fast"][table], check_categorical=False)
    mine = tables[example]["players"].query("seat == 1")
    assert mine.moves.sum() > 0 and mine.refills.sum() > 0  # it plays and refills
    if example == "pusher":
        assert mine.pushes_made.sum() > 0  # it walks into lemmings


@pytest.mark.slow  # plays through the module's one user-bot kernel
def test_compare_plain_against_fast_is_exactly_even(bots, capsys):
    """Same decisions on the same games: the paired difference is exactly zero."""
    assert run(["compare", "lemminge", "--bot", bots["sprinter"], "--vs", bots["sprinter-fast"],
                "--games", 16, "--threads", 1]) == 0
    out = capsys.readouterr().out
    assert "+0.00 pp (exact)" in out and "+0.00 to +0.00" not in out


@pytest.mark.slow  # plays through the module's one user-bot kernel
@pytest.mark.parametrize("bot, needles", [
    ("raises", ("raises.py", "(seat 2, action decision)", "raised ZeroDivisionError at line")),
    ("illegal", ("illegal.py", "(seat 2, action decision)", "illegal choice", "the options are 0-")),
    ("bounds", ("bounds.py", "(seat 2, action decision)", "IndexError", "options(view, i): i outside")),
    ("discards", ("discards.py", "(seat 2)", "discarded cards it does not hold")),
])
def test_a_failing_bot_ends_the_run_in_one_line(bots, capsys, bot, needles):
    assert_usage_error(capsys, ["simulate", "lemminge", "--bots", f"random,{bots[bot]},random",
                                "--players", 3, "--games", 20, "--threads", 1, "--no-progress"],
                       "user bot", *needles)


@pytest.mark.slow  # plays through the module's one user-bot kernel
def test_a_scenario_file_runs_a_user_bot(bots, tmp_path, capsys):
    scenario = tmp_path / "mine.toml"
    scenario.write_text(f'game = "lemminge"\nplayers = 3\nbots = "{bots["pusher-fast"]},random,convoy"\n'
                        f'games = 30\nseed = 3\nthreads = 1\n')
    assert run(["run", scenario]) == 0
    assert "pusher-fast" in capsys.readouterr().out


@pytest.mark.slow  # plays through the module's one user-bot kernel
def test_replay_shows_a_user_bots_game_turn_by_turn(bots, capsys):
    assert run(["replay", "lemminge", "--bots", f"{bots['sprinter-fast']},random,random", "--players", 3,
                "--game", 2]) == 0
    out = capsys.readouterr().out
    assert "turn 1: seat 1 (sprinter-fast)" in out
    assert "seat 1 plays" in out  # its cards, decided in the user kernel
