"""Mafia through the game-agnostic command line: simulate with its summary and
--out tables (the columns the issue lists), roles, bad input in one line."""
import json

import pandas as pd
import pytest

from tests.cli_support import assert_usage_error, run

GAMES = 500


def sim(*extra, games=GAMES):
    return ["simulate", "mafia", "--games", games, "--no-progress", "--threads", 1, *extra]


@pytest.fixture(scope="module")
def out_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("mafia") / "run"
    assert run(sim("--players", 5, "--bots", "random", "--out", out, "--seed", 7)) == 0
    return out


def test_summary_names_the_map_and_tables_as_assumed(capsys):
    assert run(sim("--players", 3, "--bots", "random")) == 0
    out = capsys.readouterr().out
    assert f"Mafia: {GAMES:,} games, 3 players" in out
    assert "map: mafia-default (assumed) (ASSUMED reconstruction" in out and "tables: returns" in out
    assert "red+orange" in out and "state" in out and "games/s" in out


COLUMNS = {
    "games": ["game", "players", "calendar_turns", "side_turns", "outcome", "purge_points", "markers_on_map",
              "winner_spaces", "shootouts", "arrests", "holds", "holds_roadblock", "eliminations",
              "commission_freezes", "restaurant_explosions", "air_moves", "drawn_usa", "drawn_rome", "drawn_sisde",
              "played_usa", "played_rome", "played_sisde", "given_up", "markers_placed", "markers_removed",
              "side_turns_frozen", "lead_changes", "decided_after", "comeback"],
    "sides": ["game", "side", "seat", "bot", "role", "base", "won", "side_turns", "markers_end", "spaces_end",
              "pieces_lost", "cards_drawn", "cards_played"],
    "cards": ["game", "calendar_turn", "side", "deck", "card"],
    "spaces": ["space", "name", "type", "landings", "triggers", "markers_placed", "markers_removed", "arrests",
               "holds", "eliminations"],
}


def test_out_tables_have_the_issue_columns(out_run):
    for table, columns in COLUMNS.items():
        df = pd.read_parquet(out_run / f"{table}.parquet")
        assert list(df.columns) == columns, table
    games = pd.read_parquet(out_run / "games.parquet")
    sides = pd.read_parquet(out_run / "sides.parquet")
    assert len(games) == GAMES and len(sides) == 5 * GAMES
    assert games["winner_spaces"].isna().eq(~games["outcome"].isin(["red", "black", "orange", "green"])).all()
    assert set(sides["role"]) == {"state", "family"} and sides.loc[sides.side == "state", "base"].isna().all()
    assert (sides.loc[sides.side == "state", "seat"] == 3).all()
    cards = pd.read_parquet(out_run / "cards.parquet")
    assert cards["card"].notna().all() and (cards.groupby("game").size().sum() == games[
        ["played_usa", "played_rome"]].sum().sum() + (games["played_sisde"] - cards[cards.card == "sisde_pair"]
                                                       .groupby("game").size().reindex(games.game, fill_value=0)
                                                       .values).sum())
    spaces = pd.read_parquet(out_run / "spaces.parquet")
    assert len(spaces) == 26 and spaces["markers_placed"].sum() == games["markers_placed"].sum()
    manifest = json.loads((out_run / "manifest.json").read_text())
    assert manifest["roles"] == ["family", "family", "state", "family", "family"]
    assert manifest["data"][0]["assumed"] is True


def test_bad_input_is_one_line(capsys, tmp_path):
    assert_usage_error(capsys, sim("--players", 6), "--players must be 3-5 for Mafia")
    assert_usage_error(capsys, sim("--bots", "nobody"), "unknown bot 'nobody'")
    bad = tmp_path / "bad.toml"
    bad.write_text("[map]\n", encoding="utf-8")
    assert_usage_error(capsys, sim("--board", bad), str(bad))


def test_a_bot_is_refused_in_a_role_it_cannot_play(capsys):
    # five players: seat 3 is the State's, the expander plays families only
    assert_usage_error(capsys, ["simulate", "mafia", "--players", 5, "--bots", "expander", "--games", 10],
                       "bot 'expander' cannot play seat 3: that seat's role is state")


def test_compare_refuses_bots_of_different_roles(capsys):
    """A State bot against a family bot: no seat both can take, so --role would not help."""
    assert_usage_error(capsys, ["compare", "mafia", "--bot", "hunter", "--vs", "expander", "--games", 10],
                       "the bots share no role: hunter plays state; expander plays family")


def test_tournament_rates_the_bots_of_one_role_against_a_field_of_the_other(capsys):
    """Three players: the family bots take the two family seats (every pair, both
    rotations), the warden the State's seat; a State bot among them is refused."""
    assert run(["tournament", "mafia", "--players", 3, "--bots", "expander,raider,random", "--role", "family",
                "--field", "warden", "--games", 600, "--threads", 1, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "3 bots" in out and "3 tables x 2 seat rotations" in out, out
    rows = {line.split()[0]: line for line in out.splitlines() if line.split() and
            line.split()[0] in ("expander", "raider", "random")}
    assert set(rows) == {"expander", "raider", "random"} and "warden" not in rows
    elo = {bot: float(line.split()[1]) for bot, line in rows.items()}
    assert elo["expander"] > elo["random"] and elo["raider"] > elo["random"]
    assert_usage_error(capsys, ["tournament", "mafia", "--players", 3, "--bots", "expander,hunter",
                                "--role", "family", "--field", "warden", "--games", 60],
                       "bot 'hunter' cannot play the family seats; it plays state")
