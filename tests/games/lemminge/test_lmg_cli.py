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


# ---------------------------------------------------------------------- rules variants

VARIANT = "rules: hand_limit 5; push_cost 2 (box otherwise)"
DEAL = "deal: 2,3,4,5 cards by seat (the box's deal follows hand_limit 5"


def _summary(out: str) -> list[str]:
    """The summary's table of seats and its length line (not the speed line)."""
    return [line for line in out.splitlines() if line[:1].isdigit() or line.startswith("game length")]


def test_simulate_plays_a_variant_by_rule_or_by_file_and_names_it(tmp_path, capsys):
    args = ("--players", 4, "--bots", "racer,convoy,blocker,random", "--seed", 3)
    assert run(sim(*args, "--rule", "hand_limit=5", "--rule", "push_cost=2", games=100)) == 0
    by_rule = capsys.readouterr().out
    assert VARIANT in by_rule and DEAL in by_rule
    rules = tmp_path / "short.toml"
    rules.write_text("[rules]\nhand_limit = 5\npush_cost = 2\n")
    out = tmp_path / "run"
    assert run(sim(*args, "--rules", rules, "--out", out, games=100)) == 0
    by_file = capsys.readouterr().out
    assert f"{VARIANT} from {rules}" in by_file
    assert _summary(by_file) == _summary(by_rule)  # the same variant, the same games
    assert run(sim(*args, games=100)) == 0
    assert _summary(capsys.readouterr().out) != _summary(by_rule)  # not the box's
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["rules"]["changed"] == {"hand_limit": 5, "push_cost": 2}
    players = pd.read_parquet(out / "players.parquet")
    assert sorted(players["hand_start"].unique()) == [2, 3, 4, 5]
    moves = pd.read_parquet(out / "moves.parquet")
    assert (moves["steps"] + 2 * moves["pushes"] <= moves["movement"]).all() and moves["pushes"].sum() > 0
    page = tmp_path / "r.html"
    assert run(["report", out, "--out", page]) == 0
    text = page.read_text()
    assert "hand_limit 5; push_cost 2" in text and "starting hands of these rules" in text


def test_replay_compare_and_tournament_name_the_variant(capsys):
    assert run(["replay", "lemminge", "--rule", "push_cost=2", "--rule", "hand_limit=5", "--game", 1]) == 0
    out = capsys.readouterr().out
    assert VARIANT in out and DEAL in out and "is dealt 2:" in out
    assert run(["compare", "lemminge", "--bot", "racer", "--vs", "random", "--games", 40, "--threads", 1,
                "--rule", "backward_push=true"]) == 0
    assert "rules: backward_push true (box otherwise)" in capsys.readouterr().out
    assert run(["tournament", "lemminge", "--bots", "racer,convoy", "--players", 2, "--games", 20, "--threads", 1,
                "--rule", "double_zero=false"]) == 0
    assert "rules: double_zero false (box otherwise)" in capsys.readouterr().out


def test_bad_rules_are_one_line(capsys, tmp_path):
    assert_usage_error(capsys, sim("--rule", "hand_size=5"), "unknown rule 'hand_size'", "hand_limit")
    assert_usage_error(capsys, sim("--rule", "push_cost=cheap"), "push_cost must be a whole number")
    assert_usage_error(capsys, sim("--rule", "backward_push=1"), "backward_push: must be true or false")
    assert_usage_error(capsys, sim("--rule", "hand_limit=11"), "hand_limit: must be 1 to 10, got 11")
    assert_usage_error(capsys, sim("--rule", "push_cost=-1"), "push_cost: must be 0 to 10, got -1")
    assert_usage_error(capsys, sim("--rule", "start_hands={4=[3,4,5]}"),
                       "start_hands: for 4 players: must list 4 numbers (one per seat), got 3")
    assert_usage_error(capsys, sim("--rule", "start_hands={6=[1,1,1,1,1,1]}"), "the player counts are 2 to 5")
    # ranges that depend on the other keys, the player count or the map: the match's check
    assert_usage_error(capsys, sim("--rule", "start_hands={3=[4,5,7]}"),
                       "start_hands: for 3 players 4,5,7 deals seat 3 7 cards, above hand_limit 6")
    assert_usage_error(capsys, sim("--rule", "hand_limit=4", "--rule", "start_hands={4=[5,5,5,5]}"),
                       "above hand_limit 4")
    small = tmp_path / "small.toml"
    small.write_text('[map]\ngrid = """\nAMMZ\n"""\n[cards]\nvalues = [2, 1, 1, 0, 0]\n'
                     '[tiles]\nper_terrain = 3\nmeadow = 6\n')
    assert_usage_error(capsys, sim("--board", small, "--players", 5, "--rule", "start_hands={5=[4,4,4,4,5]}"),
                       "start_hands: for 5 players 4,4,4,4,5 deals 21 cards, the map's draw pile holds 20")
    rules = tmp_path / "bad.toml"
    rules.write_text("[rules]\npush_cost = 2\nlemmings = 3\n")
    assert_usage_error(capsys, sim("--rules", rules), "bad.toml", "unknown rule 'lemmings'")
    rules.write_text("[rules]\nstart_hands = { 2 = [5, 6, 7] }\n")
    assert_usage_error(capsys, sim("--rules", rules), "bad.toml", "for 2 players: must list 2 numbers")
    rules.write_text("[rules\npush_cost = 2\n")
    assert_usage_error(capsys, sim("--rules", rules), "bad.toml")
    assert_usage_error(capsys, sim("--rules", tmp_path), str(tmp_path))
    assert not list(tmp_path.glob("*.parquet"))  # nothing written
