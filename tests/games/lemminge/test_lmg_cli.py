"""Lemminge through the game-agnostic command line: simulate (summary naming
the assumed map, --out tables with the issue's columns), the report, bots,
compare, and bad input (one line, exit 2)."""
import json

import pandas as pd
import pytest

from tests.cli_support import assert_usage_error, run

GAMES = 300


def sim(*extra, games=GAMES):
    return ["simulate", "lemminge", "--games", games, "--no-progress", "--threads", 1, *extra]


@pytest.fixture(scope="module")
def out_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("lm") / "run"
    assert run(sim("--players", 4, "--bots", "racer,random,blocker,convoy", "--out", out, "--seed", 7)) == 0
    return out


def test_summary_names_the_game_and_the_assumed_map(capsys):
    assert run(sim("--players", 3, "--bots", "random")) == 0
    out = capsys.readouterr().out
    assert f"Lemminge: {GAMES:,} games, 3 players" in out
    assert "map: assumed-default (ASSUMED reconstruction" in out
    assert "game length:" in out and "games/s" in out


REQUIRED = {
    "games": ["game", "players", "turns", "winner_seat", "capped", "reshuffles", "lead_changes", "decided_after",
              "comeback"],
    "players": ["game", "seat", "bot", "won", "finished", "refills", "moves", "steps", "pushes_made", "pushed",
                "new_columns", "tiles_placed", "hand_start"],
    "moves": ["game", "turn", "seat", "terrain", "value", "column_sum_before", "new_column", "movement", "steps",
              "pushes", "lemming", "distance_before", "distance_after"],
    "hexes": ["x", "y", "terrain", "entered", "pushed_into", "tiles_placed"],
}


def test_out_tables_have_the_issue_columns_and_agree(out_run):
    t = {name: pd.read_parquet(out_run / f"{name}.parquet") for name in REQUIRED}
    for name, cols in REQUIRED.items():
        assert set(cols) <= set(t[name].columns), (name, set(cols) - set(t[name].columns))
    games, players, moves, hexes = t["games"], t["players"], t["moves"], t["hexes"]
    assert len(games) == GAMES and len(players) == 4 * GAMES and len(hexes) == 147 + 2 + 3
    assert sorted(games["game"]) == list(range(GAMES))
    assert players["seat"].min() == 1 and players["seat"].max() == 4
    assert (players.groupby("game")["won"].sum() == 1).all()
    assert (games["winner_seat"].between(1, 4)).all()
    assert len(moves) == players["moves"].sum()
    assert moves.groupby(["game", "seat"])["steps"].sum().sum() == players["steps"].sum() == hexes["entered"].sum()
    assert hexes["tiles_placed"].sum() == players["tiles_placed"].sum()
    assert (players.groupby("game")["moves"].sum() + players.groupby("game")["refills"].sum()
            == games.set_index("game")["turns"]).all()
    manifest = json.loads((out_run / "manifest.json").read_text())
    assert manifest["game"] == "lemminge" and manifest["games"] == GAMES
    assert manifest["data"][0]["assumed"] is True and manifest["data"][0]["part"] == "map"


def test_report_from_a_run_directory(out_run, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert run(["report", out_run, "--out", out]) == 0
    page = out.read_text()
    assert "Lemminge balance report" in page and "ASSUMED" in page
    for words in ("starting hands of 2-6 cards", "new column", "What do pushes do", "Where do tiles go"):
        assert words in page
    files = {p.name for p in (tmp_path / "r_files").iterdir()}
    assert {"hexes.png", "column_value.png", "pushes.png", "hexes.csv", "seat_advantage.csv"} <= files


def test_simulate_with_report(tmp_path, capsys):
    out = tmp_path / "s.html"
    assert run(sim("--players", 2, "--bots", "random", "--report", out, games=200)) == 0
    assert "Lemminge balance report" in out.read_text()


def test_bots_lists_every_family(capsys):
    assert run(["bots", "lemminge"]) == 0
    out = capsys.readouterr().out
    for name in ("random", "racer", "convoy", "blocker", "refill_below", "push"):
        assert name in out


def test_bad_input_is_one_line(capsys, tmp_path):
    assert_usage_error(capsys, sim("--players", 6), "--players must be 2-5")
    bad = tmp_path / "bad.toml"
    bad.write_text('[map]\ngrid = """\nAMMZ\nAMQZ\n"""\n[cards]\nvalues = [4, 3, 2, 1, 0, 0]\n'
                   '[tiles]\nper_terrain = 3\nmeadow = 6\n')
    assert_usage_error(capsys, sim("--board", bad), "bad.toml", "row 2, column 3", "'Q'")
    bad.write_text('[map]\ngrid = """\nAM.MZ\nAM.MZ\n"""\n[cards]\nvalues = [4, 3, 2, 1, 0, 0]\n'
                   '[tiles]\nper_terrain = 3\nmeadow = 6\n')
    assert_usage_error(capsys, sim("--board", bad), "bad.toml", "no finish hex (Z) can be reached")
    bad.write_text('[map]\ngrid = """\nAMMZ\nAMZ\n"""\n[cards]\nvalues = [4, 3, 2, 1, 0, 0]\n'
                   '[tiles]\nper_terrain = 3\nmeadow = 6\n')
    assert_usage_error(capsys, sim("--board", bad), "bad.toml", "row 2 has 3 hexes")
    bad.write_text('[map]\ngrid = """\nAMMM\n"""\n[cards]\nvalues = [4, 3, 2, 1, 0, 0]\n'
                   '[tiles]\nper_terrain = 3\nmeadow = 6\n')
    assert_usage_error(capsys, sim("--board", bad), "bad.toml", "no finish hex (Z)")
    bad.write_text('[map]\ngrid = """\nAMMZ\n"""\n[cards]\nvalues = [4, 3, 1]\n'
                   '[tiles]\nper_terrain = 3\nmeadow = 6\n')
    assert_usage_error(capsys, sim("--board", bad), "bad.toml", "cards.values: no 2")
    bad.write_text('[map]\ngrid = """\nAMMZ\n"""\n[cards]\nvalues = [2, 1, 0]\n'
                   '[tiles]\nper_terrain = 3\nmeadow = 6\n')
    assert_usage_error(capsys, sim("--board", bad), "bad.toml", "fewer than the 20 dealt")
    bad.write_text('[map]\ngrid = """\nAMMZ\n"""\n[cards]\nvalues = [4, 3, 2, 1, 0, 0]\n'
                   '[tiles]\nper_terrain = -1\nmeadow = 6\n')
    assert_usage_error(capsys, sim("--board", bad), "bad.toml", "per_terrain")


def test_compare_runs(capsys):
    assert run(["compare", "lemminge", "--bot", "racer", "--vs", "random", "--games", 80, "--threads", 1]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out
