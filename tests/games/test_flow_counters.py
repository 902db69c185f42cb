"""Each game's game-flow columns (lead_changes, decided_after,
comeback) against a plain-Python recomputation from the game's own replay (the
standing after every step, as its docs page defines it), and the relations
between the columns and the rest of the row on small runs."""
import pandas as pd
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games import game_info

NO_LEADER = -1


def match_of(game, bots):
    return game_info(game).load("match")(None, len(bots), [BotSpec(b) for b in bots])


def sole(values) -> int:
    top = max(values)
    return values.index(top) if values.count(top) == 1 else NO_LEADER


def recount(leaders, winner):
    """The definitions of docs (engine/flow.py) in plain Python: the holder of the lead
    is the last side to lead alone."""
    holders, held = [], NO_LEADER
    for x in leaders:
        held = x if x != NO_LEADER else held
        holders.append(held)
    known = [h for h in holders if h != NO_LEADER]
    changes = sum(a != b for a, b in zip(known, known[1:]))
    if winner < 0:
        return changes, None, False
    decided = min(s for s in range(len(holders) + 1) if all(h == winner for h in holders[s:]))
    half = len(leaders) // 2
    return changes, decided, half > 0 and holders[half - 1] != winner


def recorded(row):
    decided = row["decided_after"]
    return int(row["lead_changes"]), (None if pd.isna(decided) else int(decided)), bool(row["comeback"])


@pytest.mark.parametrize("bots", [["random"] * 4, ["backer", "tempo", "switcher", "random"]],
                         ids=["random", "mixed"])
def test_sau_mau_mau_races_against_the_replay(bots):
    """The standing is the pigs' spaces, printed after every turn of the replay."""
    from analyzer.games.sau_mau_mau.layout import PIGS

    match = match_of("sau-mau-mau", bots)
    checked = 0
    for index in range(4):
        replay = match.replay(11, index)
        races = replay.tables["races"]
        race, spaces, leaders = -1, None, {}
        for step in replay.steps:
            if step.kind == "deal":
                race += 1
                spaces = [0] * len(PIGS)
                leaders[race] = []
            elif step.kind == "turn":
                if step.text.startswith("pigs: "):
                    board = step.text[len("pigs: "):].split(";")[0]
                    spaces = [int(part.rsplit(" ", 1)[1]) for part in board.split(", ")]
                leaders[race].append(sole(spaces))  # a skipped turn: the pigs stand as they stood
        for r, row in races.reset_index(drop=True).iterrows():
            assert len(leaders[r]) == row["turns"]
            names = str(row["winning_pigs"]).split(",")
            winner = PIGS.index(names[0]) if len(names) == 1 else -1
            assert recorded(row) == recount(leaders[r], winner), (index, r)
            checked += 1
    assert checked == 16


@pytest.mark.parametrize("bots", [["random"] * 4, ["favourite", "timer", "contractor", "random"]],
                         ids=["random", "mixed"])
def test_lemming_mafia_races_against_the_trace(bots):
    """The standing is the lemmings' order on the track: the positions the trace
    of each landing carries, a lemming in the water past every field."""
    from analyzer.games.lemming_mafia import layout as L
    from analyzer.games.lemming_mafia.replay import traced_race

    match = match_of("lemming-mafia", bots)
    for index in range(6):
        events, tables = traced_race(match, 5, index)  # a bot failure raises
        row = tables["races"].iloc[0]
        pos = [L.START] * L.N_LEMMINGS
        leaders, winner, moves = [], -1, 0
        for ev in events:
            kind, a = int(ev[0]), int(ev[2])
            if kind == L.EV_ROLL:
                if moves:
                    leaders.append(sole(pos))
                moves += 1
            elif kind == L.EV_LAND:
                pos = [int(x) for x in ev[5:5 + L.N_LEMMINGS]]
            elif kind == L.EV_WATER:
                pos[a] = match.board.n_fields
            elif kind == L.EV_END:
                winner = a
        leaders.append(sole(pos))
        assert len(leaders) == row["turns"]
        assert L.COLORS[winner] == row["winner"]
        assert recorded(row) == recount(leaders, winner), index


def mafia_winner(g):
    return ~g["outcome"].isin(["all_lose", "draw"])


@pytest.mark.parametrize("game, bots, winner_known, holds_at_end", [
    ("lemminge", ["racer", "convoy", "blocker", "random"], lambda g: g["winner_seat"] > 0, True),
    # Mafia's standing may crown a side that does not win: two sides at their goals, or one whose
    # turn (where its win is checked) comes after the winner's
    ("mafia", ["expander", "random", "hunter", "expander", "random"], mafia_winner, False),
    ("mafia", ["expander", "raider", "raider", "expander"], mafia_winner, False),
], ids=["lemminge", "mafia-5", "mafia-4"])
def test_flow_columns_agree_with_the_rest_of_the_row(game, bots, winner_known, holds_at_end):
    from analyzer.engine.simulate import simulate

    match = match_of(game, bots)
    frames = []

    class Sink:
        def add(self, tables):
            if "games" in tables:
                frames.append(tables["games"])

    simulate(match, 300, 3, threads=1, chunk_size=300, progress=False, stats=Sink())
    g = pd.concat(frames, ignore_index=True)
    steps = g["turns"] if "turns" in g else g["side_turns"]
    decided = g["decided_after"]
    assert (decided.notna() == winner_known(g)).all()
    assert ((decided.dropna() >= 0) & (decided.dropna() <= steps[decided.notna()])).all()
    # behind at the half: the winner took the lead for good only after it
    comeback = g["comeback"].to_numpy(bool)
    assert (decided[comeback] >= steps[comeback] // 2).all()
    assert ((g["lead_changes"] >= 0) & (g["lead_changes"] < steps)).all()
    # Lemminge's winner holds the lead at the end: both lemmings home is the standing's top
    held = decided.dropna() < steps[decided.notna()]
    assert held.all() if holds_at_end else held.mean() > 0.8
    assert g["lead_changes"].max() > 0 and comeback.any() and (~comeback).any()
