"""Sau Mau Mau through the game-agnostic command line: simulate (summary, --out
tables with the columns the issue lists), bad input, compare and tournament."""
import json

import numpy as np
import pandas as pd
import pytest

from tests.cli_support import assert_usage_error, run

GAMES = 400


def sim(*extra, games=GAMES):
    return ["simulate", "sau-mau-mau", "--games", games, "--no-progress", "--threads", 1, *extra]


@pytest.fixture(scope="module")
def out_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("smm") / "run"
    assert run(sim("--players", 4, "--out", out, "--seed", 7)) == 0
    return out


def test_summary_names_the_game_the_unit_and_the_assumed_track(capsys):
    assert run(sim("--players", 3, "--bots", "random")) == 0
    out = capsys.readouterr().out
    assert f"Sau Mau Mau: {GAMES:,} games, 3 players" in out
    assert "track:" in out and "ASSUMED reconstruction" in out and "crown on space 15" in out
    assert "race end: crown" in out and "race wins by pig" in out
    assert "games/s" in out


REQUIRED = {
    "races": ["game", "race", "first_seat", "turns", "end", "both_ends", "winning_pigs", "queue_length"],
    "players": ["game", "race", "seat", "bot", "race_points", "bet_points", "crown_points", "hand_points",
                "bets_placed", "bets_changed"],
    "games": ["game", "seat", "bot", "total", "won"],
    "bets": ["game", "race", "seat", "pig", "queue_position", "turn_placed", "changed", "points"],
}


def test_out_tables_have_the_issue_columns_and_agree(out_run):
    t = {name: pd.read_parquet(out_run / f"{name}.parquet") for name in REQUIRED}
    for name, cols in REQUIRED.items():
        assert set(cols) <= set(t[name].columns), (name, set(cols) - set(t[name].columns))
    races, players, games, bets = t["races"], t["players"], t["games"], t["bets"]
    assert len(races) == 4 * GAMES and len(players) == 4 * GAMES * 4 and len(games) == GAMES * 4
    assert sorted(races["race"].unique()) == [1, 2, 3, 4]
    # the first player passes left: seat 1 starts race 1, seat 2 race 2, ...
    assert (races["first_seat"] == races["race"]).all()
    assert set(races["end"].astype(str)) <= {"crown", "hand", "cap"}
    assert races.loc[races["both_ends"], "end"].astype(str).eq("crown").all()
    # one bet card per player at most: the queue length is the number of bets rows of the race
    per_race = bets.groupby(["game", "race"]).size()
    q = races.set_index(["game", "race"])["queue_length"]
    assert (per_race.reindex(q.index, fill_value=0) == q).all()
    assert bets.groupby(["game", "race", "seat"]).size().max() == 1
    # bet points: 6, 4, 3, 2, 1 in queue order over the bets on winning pigs
    for (_, _), g in bets.groupby(["game", "race"]):
        paid = g.sort_values("queue_position")["points"].to_numpy()
        winners = paid[paid > 0]
        assert list(winners) == [6, 4, 3, 2, 1][:len(winners)]
    # points add up: race points per seat, game totals, the winners
    pts = players["bet_points"] + players["crown_points"] + players["hand_points"]
    assert (pts == players["race_points"]).all()
    totals = players.groupby(["game", "seat"])["race_points"].sum()
    assert (games.set_index(["game", "seat"])["total"] == totals).all()
    best = games.groupby("game")["total"].transform("max")
    assert (games["won"] == (games["total"] == best)).all()
    # the pig names in winning_pigs, and crown races have one winner
    crown = races[races["end"].astype(str) == "crown"]
    assert (~crown["winning_pigs"].astype(str).str.contains(",")).all()
    m = json.loads((out_run / "manifest.json").read_text())
    assert m["complete"] and m["game"] == "sau-mau-mau" and m["unit"] == "games" and m["games"] == GAMES
    assert m["data"][0]["part"] == "track" and m["data"][0]["assumed"] is True


def test_same_seed_same_tables_whatever_threads_and_chunks(tmp_path, out_run):
    other = tmp_path / "again"
    assert run(["simulate", "sau-mau-mau", "--games", GAMES, "--no-progress", "--threads", 2, "--chunk", 37,
                "--players", 4, "--out", other, "--seed", 7]) == 0
    for name in REQUIRED:
        a = pd.read_parquet(out_run / f"{name}.parquet")
        b = pd.read_parquet(other / f"{name}.parquet")
        pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("extra, needles", [
    (["--players", 6], ["--players must be 2-5"]),
    (["--players", 1], ["--players must be 2-5"]),
    (["--bots", "favourite"], ["unknown bot 'favourite'"]),
    (["--bots", "random,random"], ["2 bots given for 4 players"]),
    (["--bots", "random:nerve=2"], ["has no parameter 'nerve'"]),
    (["--bots", "./no-such-bot.py"], ["bot file not found: ./no-such-bot.py"]),
    (["--games", 0], ["--games must be at least 1"]),
])
def test_bad_options(capsys, extra, needles):
    assert_usage_error(capsys, sim(*extra), *needles)


@pytest.mark.parametrize("text, needles", [
    ("[track]\n", ["no [track.crown] table"]),
    ("[track.crown]\n2 = 12\n3 = 15\n4 = 18\n", ["lacks player count(s) 5"]),
    ("[track.crown]\n2 = 12\n3 = 15\n4 = -1\n5 = 21\n", ["crown for 4 players must be a positive whole number"]),
    ("[track.crown]\n2 = 12\n3 = 15\n4 = 18\n5 = 21\n7 = 30\n", ["unknown player count '7'"]),
    ("[track\n", ["is not valid TOML"]),
])
def test_bad_track_files(capsys, tmp_path, text, needles):
    path = tmp_path / "track.toml"
    path.write_text(text)
    assert_usage_error(capsys, sim("--board", path), *needles)


def test_a_user_track_is_named_user_supplied(capsys, tmp_path):
    path = tmp_path / "short.toml"
    path.write_text('[track]\nname = "short"\n[track.crown]\n2 = 6\n3 = 7\n4 = 8\n5 = 9\n')
    assert run(sim("--board", path, "--players", 2, "--bots", "random")) == 0
    out = capsys.readouterr().out
    assert "track: short (user-supplied; crown on space 6 for 2 players" in out


def test_compare_runs_on_games(capsys):
    assert run(["compare", "sau-mau-mau", "--bot", "random", "--vs", "random", "--games", 400,
                "--threads", 1]) == 0
    out = capsys.readouterr().out
    assert "games per arm" in out
    # the same bot against itself on the same deals: no difference at all
    assert "+0.00 pp (exact)" in out and "+0.00 to +0.00" not in out


def test_bots_lists_the_sau_mau_mau_bots(capsys):
    assert run(["bots", "sau-mau-mau"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("random: the reference random bot")
    assert "A user bot: a path to a .py file defining BOT = UserBot(...); its API: docs/bots-sau-mau-mau.md" in out


def test_tournament_rates_the_heuristic_bots_above_random(capsys, tmp_path):
    report = tmp_path / "t.html"
    assert run(["tournament", "sau-mau-mau", "--bots", "random,backer,tempo,switcher", "--games", 800,
                "--threads", 1, "--no-progress", "--report", report]) == 0
    out = capsys.readouterr().out
    assert "= 800 games" in out
    rows = {line.split()[0]: float(line.split()[1]) for line in out.splitlines()
            if line.split() and line.split()[0] in ("random", "backer", "tempo", "switcher")
            and line.split()[1].startswith(("+", "-"))}
    assert set(rows) == {"random", "backer", "tempo", "switcher"}
    assert rows["random"] == min(rows.values())
    page = report.read_text()
    assert "Sau Mau Mau tournament" in page and "ASSUMED reconstruction" in page


def test_simulate_report_has_the_game_sections(tmp_path, capsys):
    report = tmp_path / "r.html"
    assert run(sim("--report", report, games=300)) == 0
    page = report.read_text()
    assert "Sau Mau Mau balance report" in page and "ASSUMED reconstruction" in page
    for key in ("win_rates", "queue_position", "bet_timing", "race_ends", "first_player", "pigs"):
        assert f'id="{key}"' in page, key


def test_a_report_shows_player_counts_side_by_side(tmp_path, capsys):
    """Runs of two player counts are never blended: without --by the report says what
    differs in one line; with --by players every answer is given per run."""
    runs = []
    for players in (2, 5):
        out = tmp_path / f"p{players}"
        assert run(sim("--players", players, "--bots", "random", "--out", out, games=200)) == 0
        runs.append(out)
    capsys.readouterr()
    assert_usage_error(capsys, ["report", *runs, "--out", tmp_path / "x.html"], "the runs differ in players")
    report = tmp_path / "by.html"
    assert run(["report", *runs, "--by", "players", "--out", report]) == 0
    page = report.read_text()
    assert "2 runs side by side by players" in page
    answers = page[page.index('<h2 id="answers">'):]
    for q in ("Which queue position earned most? (hindsight: bets the bots laid)", "Are the pigs balanced?"):
        assert answers.count(q) == 1
    # the scorecard first, each run's verdict per question (the pigs: a threshold; the queue: none)
    card = page[page.index('<section id="scorecard">'):page.index("</section>")]
    assert page.index('<section id="scorecard">') < page.index('<table class="meta">')
    assert "Are the pigs balanced?" in card and "Which queue position" not in card
    assert card.count("<b>2 players (p2):</b>") == card.count("<b>5 players (p5):</b>") >= 1
    assert answers.count("<b>2 players (p2):</b>") == answers.count("<b>5 players (p5):</b>") == 9
    # the questions are matched by key, and the 5-player run warns that its seat 5 never starts a race
    assert card.count('<li class="q q-pig_balance">') == 1
    assert "5 players (p5): Seat 5 never starts a race at 5 players (0 of the 4 races of each of 200 games)" in card
    ends = pd.read_csv(tmp_path / "by_files" / "run1_ends_by_players.csv")
    assert ends["players"].unique().tolist() == [2] and ends["races"].sum() == 800
    # the same runs merged: two runs of one setup are one blended report
    same = tmp_path / "p2b"
    assert run(sim("--players", 2, "--bots", "random", "--out", same, "--seed", 9, games=200)) == 0
    assert run(["report", runs[0], same, "--out", tmp_path / "merged.html"]) == 0
    assert "2 merged" in (tmp_path / "merged.html").read_text()
    capsys.readouterr()


def test_a_report_refuses_runs_of_two_games(tmp_path, capsys):
    smm = tmp_path / "smm"
    lm = tmp_path / "lm"
    assert run(sim("--out", smm, "--bots", "random", games=20)) == 0
    assert run(["simulate", "lemming-mafia", "--races", 20, "--no-progress", "--bots", "random", "--out", lm]) == 0
    assert_usage_error(capsys, ["report", smm, lm], "different games")
