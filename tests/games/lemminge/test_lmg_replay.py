"""``replay(seed, index)`` plays the same game a run plays (the same streams),
step by step in the rulebook's words, ending with that game's table rows."""
import pandas as pd

from analyzer.engine.botspec import BotSpec
from analyzer.games.lemminge.match import LemmingeMatch


def test_replay_is_the_game_of_the_run():
    match = LemmingeMatch(None, 3, [BotSpec("random", ()), BotSpec("racer", ()), BotSpec("random", ())])
    chunk = match.play(9, 0, 12)
    run = match.tables_of(chunk)
    r = match.replay(9, 7)
    assert r.index == 7 and r.unit == "games" and "ASSUMED" in r.setup[0]
    for name in ("games", "players", "moves"):
        mine = run[name][run[name]["game"] == 7].reset_index(drop=True)
        assert mine.equals(r.tables[name].reset_index(drop=True)), name
    kinds = [s.kind for s in r.steps]
    assert kinds[-1] == "end" and "wins" in r.steps[-1].text
    assert sum(s.kind == "turn" for s in r.steps) == int(r.tables["games"]["turns"].iloc[0])
    plays = [s for s in r.steps if s.kind == "card" and " plays " in s.text]
    assert len(plays) == len(r.tables["moves"])
    moves = [s for s in r.steps if s.kind == "move" and " steps from " in s.text]
    assert len(moves) == r.tables["players"]["steps"].sum()
    decisions = [s for s in r.steps if s.kind == "decision"]
    assert decisions and all(-1 <= s.chosen < len(s.options) for s in decisions)
    assert any("pushed" in s.text for s in r.steps) == (r.tables["players"]["pushed"].sum() > 0)
    assert isinstance(r.tables["hexes"], pd.DataFrame)
