"""Sau Mau Mau's rules on the command line: ``--rule KEY=VALUE`` and ``--rules
FILE`` play the same variant and every command names it (simulate's summary,
--out's manifest, a report, replay, compare, tournament); bad rules are one line
and exit 2 before any work, nothing written."""
import json

import pandas as pd
import pytest

from tests.cli_support import assert_usage_error, run

VARIANT = "bet_payouts 5,3,2,1,1; hand_size 6 (box otherwise)"
PAIRS = ("--rule", "bet_payouts=5,3,2,1,1", "--rule", "hand_size=6")
FILE_TEXT = "[rules]\nbet_payouts = [5, 3, 2, 1, 1]\nhand_size = 6\n"


def sim(*extra, games=300):
    return ["simulate", "sau-mau-mau", "--games", games, "--no-progress", "--threads", 1, "--seed", 5, *extra]


def seat_rows(out: str) -> list[str]:
    """The summary's table and race lines (not the timing)."""
    return [line for line in out.splitlines() if line and not line.startswith(("speed", "rules:"))]


def test_rule_pairs_and_a_rules_file_play_the_same_named_variant(capsys, tmp_path):
    assert run(sim(*PAIRS)) == 0
    by_pairs = capsys.readouterr().out
    rules = tmp_path / "variant.toml"
    rules.write_text(FILE_TEXT)
    assert run(sim("--rules", rules)) == 0
    by_file = capsys.readouterr().out
    assert f"rules: {VARIANT}\n" in by_pairs
    assert f"rules: {VARIANT} from {rules}" in by_file
    assert seat_rows(by_pairs) == seat_rows(by_file)
    assert run(sim()) == 0
    box = capsys.readouterr().out
    assert "rules: box" in box and seat_rows(box) != seat_rows(by_pairs)


def test_out_and_report_name_the_variant(capsys, tmp_path):
    out, report = tmp_path / "run", tmp_path / "report.html"
    assert run(sim(*PAIRS, "--rule", "races_per_game=3", "--out", out, "--report", report, games=200)) == 0
    capsys.readouterr()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["rules"]["changed"] == {"bet_payouts": [5, 3, 2, 1, 1], "hand_size": 6, "races_per_game": 3}
    races = pd.read_parquet(out / "races.parquet")
    assert sorted(races["race"].unique()) == [1, 2, 3] and len(races) == 200 * 3
    players = pd.read_parquet(out / "players.parquet")
    assert (players["cards_left"] - players["cards_drawn"] + players["cards_played"] == 6).all()
    bets = pd.read_parquet(out / "bets.parquet")
    assert set(bets.loc[bets["won"], "points"]) <= {5, 3, 2, 1}
    html = report.read_text()
    assert "bet_payouts 5,3,2,1,1; hand_size 6; races_per_game 3 (box otherwise)" in html


def test_replay_compare_and_tournament_name_the_variant(capsys):
    assert run(["replay", "sau-mau-mau", "--game", 2, *PAIRS]) == 0
    out = capsys.readouterr().out
    assert f"rules: {VARIANT}" in out and "six cards each" in out
    assert run(["compare", "sau-mau-mau", "--bot", "backer", "--vs", "tempo", "--games", 100, "--no-progress",
                *PAIRS]) == 0
    assert f"rules: {VARIANT}" in capsys.readouterr().out
    assert run(["tournament", "sau-mau-mau", "--bots", "backer,tempo,random", "--games", 30, "--no-progress",
                *PAIRS]) == 0
    assert f"rules: {VARIANT}" in capsys.readouterr().out


@pytest.mark.parametrize("rule, needles", [
    ("nope=3", ("unknown rule 'nope'", "bet_payouts, hand_size")),
    ("hand_size=abc", ("hand_size", "'abc'")),
    ("hand_size=true", ("hand_size", "whole number", "True")),
    ("hand_size=11", ("hand_size", "1 to 10", "11")),
    ("races_per_game=9", ("races_per_game", "1 to 8", "9")),
    ("crown_points=-1", ("crown_points", "0 to 99", "-1")),
    ("bet_payouts=6,4,3,2,1,1", ("bet_payouts", "1 to 5 numbers", "got 6")),
    ("bet_payouts=[]", ("bet_payouts", "1 to 5 numbers", "got 0")),
    ("bet_payouts=6,x", ("bet_payouts",)),
    ("flapi_move=2.5", ("flapi_move", "whole number")),
])
def test_a_bad_rule_is_one_line_and_nothing_is_written(capsys, tmp_path, rule, needles):
    out = tmp_path / "run"
    assert_usage_error(capsys, sim("--rule", rule, "--out", out), *needles)
    assert not out.exists()


def test_a_hand_the_deck_cannot_deal_for_the_players_is_refused(capsys, tmp_path):
    out = tmp_path / "run"
    assert_usage_error(capsys, sim("--rule", "hand_size=8", "--players", 5, "--out", out),
                       "hand_size 8", "5 players", "1 to 7")
    assert not out.exists()
    assert_usage_error(capsys, sim("--rule", "hand_size=10", "--players", 4), "hand_size 10", "4 players", "1 to 9")


@pytest.mark.parametrize("text, needles", [
    ("[rules]\nhand_size = 6\nbet_payout = [1]\n", ("unknown rule 'bet_payout'",)),
    ("[rules]\nbet_payouts = []\n", ("bet_payouts", "1 to 5 numbers")),
    ("[rules]\nbet_payouts = [6, 4, 3, 2, 1, 0]\n", ("bet_payouts", "1 to 5 numbers", "got 6")),
    ("[rules]\nraces_per_game = \"4\"\n", ("races_per_game", "whole number")),
    ("[rules]\nhand_size = [5]\n", ("hand_size", "whole number")),
    ("[rule]\nhand_size = 6\n", ("rules file",)),
    ("hand_size = = 6\n", ("rules file",)),
])
def test_a_bad_rules_file_is_one_line_and_nothing_is_written(capsys, tmp_path, text, needles):
    rules, out = tmp_path / "bad.toml", tmp_path / "run"
    rules.write_text(text)
    assert_usage_error(capsys, sim("--rules", rules, "--out", out), *needles)
    assert not out.exists()


def test_a_rules_directory_is_refused(capsys, tmp_path):
    assert_usage_error(capsys, sim("--rules", tmp_path), str(tmp_path))
