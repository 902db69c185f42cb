"""The balance report of Mafia runs (one run, and runs at several player counts
merged), its statistics against the tables, and replay."""
import pandas as pd
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.match import MafiaMatch
from analyzer.games.mafia.stats import new_stats
from tests.cli_support import run

GAMES = 600


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("mafia-report")
    for n, bots in ((5, "random,random,hunter,random,random"), (4, "random"), (3, "expander,random,warden")):
        assert run(["simulate", "mafia", "--players", n, "--bots", bots, "--games", GAMES, "--threads", 1,
                    "--no-progress", "--out", base / f"run{n}"]) == 0
    return base


def test_report_of_merged_runs_answers_the_issue_questions(runs):
    out = runs / "mafia.html"
    assert run(["report", runs / "run5", runs / "run4", runs / "run3", "--by", "players", "--out", out]) == 0
    page = out.read_text(encoding="utf-8")
    for question in ("Is the State strong enough at 3 and 5 players?", "Does the family that moves first win more?",
                     "How did families fare with each base city? (association: the bots chose the base)",
                     "Which cards go with winning? (association: win rates with and without a card)",
                     "Where do markers go? (counts)", "How long are games?"):
        assert question in page
    assert "(assumed reconstruction)" in page and "ASSUMED" in page and "observational" in page
    assert "Method: not stated" not in page
    assert "everyone loses" in page and "hunter" in page
    assert page.count('id="glossary"') == 1  # the side-by-side page carries the glossary too
    # each run says which of the asked player counts it did not play
    assert "Cannot tell at 3 or 5 players, because this run played 4 players only" in page
    files = runs / "mafia_files"
    # side by side (the runs differ in players): each run's figures and tables, named by run
    assert list(files.glob("*spaces*.png")) and list(files.glob("*outcomes*.csv"))


def test_statistics_agree_with_the_tables(runs):
    stats = new_stats()
    games = pd.read_parquet(runs / "run5" / "games.parquet")
    tables = {t: pd.read_parquet(runs / "run5" / f"{t}.parquet") for t in ("games", "sides", "cards", "spaces")}
    stats.add(tables)
    res = stats.result()
    o = res["outcomes"].set_index("outcome")
    assert o.loc["state", "games"] == (games.outcome == "state").sum()
    roles = res["roles"]
    state = roles[roles.side == "state"].iloc[0]
    assert state.bot == "hunter" and state.n == GAMES and state.wins == (games.outcome == "state").sum()
    cards = tables["cards"]
    assert res["cards"]["plays"].sum() == len(cards)
    assert res["spaces"]["markers_placed"].sum() == games.markers_placed.sum()


def test_replay_plays_the_same_game_step_by_step():
    match = MafiaMatch(None, 5, [BotSpec("random")] * 5)
    chunk = match.play(3, 0, 10)
    rows = match.tables_of(chunk)
    rp = match.replay(3, 7)
    assert rp.index == 7 and rp.steps[-1].kind == "end"
    pd.testing.assert_frame_equal(rp.tables["games"].reset_index(drop=True),
                                  rows["games"][rows["games"].game == 7].reset_index(drop=True))
    pd.testing.assert_frame_equal(rp.tables["cards"].reset_index(drop=True),
                                  rows["cards"][rows["cards"].game == 7].reset_index(drop=True))
    kinds = {s.kind for s in rp.steps}
    assert {"setup", "turn", "dice", "move", "decision", "end"} <= kinds
    # a move is its own step, or the step of the roll's decision that made it
    moves = [s for s in rp.steps if s.kind == "move" or s.kind == "decision" and " moves the " in s.text]
    assert len(moves) >= int(rows["games"].loc[7, "side_turns"]) // 2
    assert any(s.options and 0 <= s.chosen < len(s.options) for s in rp.steps if s.kind == "decision")
    assert L.OUTCOMES[int(chunk.games[7, L.GM_OUTCOME])] in rp.steps[-1].text
