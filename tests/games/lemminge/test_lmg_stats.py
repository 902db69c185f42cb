"""The report statistics: what they say is what the tables hold, and adding the
tables whole, in pieces or through merged accumulators gives the same result."""
import numpy as np
import pandas as pd
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge.ruleset import BOX_START_HANDS
from analyzer.games.lemminge.match import LemmingeMatch
from analyzer.games.lemminge.stats import LemmingeStats


@pytest.fixture(scope="module")
def tables():
    match = LemmingeMatch(None, 4, [BotSpec("random", ())] * 4)
    chunk = match.play(3, 0, 300)
    return {**match.tables_of(chunk), **match.chunk_extras(chunk)}


def stats_of(*parts):
    s = LemmingeStats()
    for p in parts:
        s.add(p)
    return s


def test_the_figures_are_the_tables(tables):
    res = stats_of(tables).result()
    mv = tables["moves"]
    moved = mv[mv["lemming"] >= 0]
    on = moved[~moved["new_column"]]
    cv = res["column_value"].set_index("column_sum_before")
    for k, g in on.groupby("column_sum_before"):
        assert cv.loc[k, "moves"] == len(g)
        assert cv.loc[k, "movement"] == pytest.approx(g["movement"].mean())
        assert cv.loc[k, "progress"] == pytest.approx((g["distance_before"] - g["distance_after"]).mean())
    nc = res["new_column"].set_index("value")
    for v, g in moved[moved["new_column"]].groupby("value"):
        assert nc.loc[v, "new_moves"] == len(g)
        assert nc.loc[v, "new_progress"] == pytest.approx((g["distance_before"] - g["distance_after"]).mean())
    pu = res["pushes"]
    assert pu["share"].sum() == pytest.approx(1.0)
    assert (pu["moves"] * pu["pushes"]).sum() == moved["pushes"].sum()
    sa = res["seat_advantage"]
    assert list(sa["hand_start"]) == list(BOX_START_HANDS[4])
    games = tables["games"]
    for s in range(1, 5):
        assert sa.loc[sa["seat"] == s, "win_rate"].iloc[0] == pytest.approx((games["winner_seat"] == s).mean())
    gl = res["game_length"]
    assert gl["games"].sum() == len(games) and gl["cumulative_share"].iloc[-1] == pytest.approx(1.0)
    hx = res["hexes"]
    assert hx["entered"].sum() == tables["players"]["steps"].sum()
    t = res["tiles"]
    assert t["tiles_placed_on"].sum() == tables["players"]["tiles_placed"].sum()
    assert t["new_columns"].sum() == tables["players"]["new_columns"].sum()


def test_chunking_and_merging_change_nothing(tables):
    whole = stats_of(tables).result()
    cut = 137
    halves = []
    for part in (tables["games"]["game"] < cut, tables["games"]["game"] >= cut):
        ids = set(tables["games"]["game"][part])
        halves.append({name: df[df["game"].isin(ids)] for name, df in tables.items() if name != "hexes"})
    hexes = tables["hexes"]
    counts = ["entered", "pushed_into", "tiles_placed"]
    first = hexes.assign(**{c: hexes[c] // 2 for c in counts})
    second = hexes.assign(**{c: hexes[c] - hexes[c] // 2 for c in counts})
    a = stats_of(halves[0], {"hexes": first})
    b = stats_of(halves[1], {"hexes": second})
    merged = a.merge(b).result()
    pieces = stats_of(halves[0], halves[1], {"hexes": hexes}).result()
    for res in (merged, pieces):
        for name in whole:
            pd.testing.assert_frame_equal(whole[name], res[name], check_dtype=False)


def test_intervals_over_moves_count_games_not_moves(tables):
    """The column-sum and new-column intervals are clustered by game: as wide as
    the games' sums make them (by hand here), wider than the plain t interval
    over moves, and the same when the moves table comes cut inside a game."""
    from analyzer.stats.distributions import t_quantile
    from analyzer.stats.intervals import mean_ci

    mv = tables["moves"]
    moved = mv[mv["lemming"] >= 0].assign(progress=lambda d: d["distance_before"] - d["distance_after"])
    on = moved[~moved["new_column"]]
    res = stats_of(tables).result()
    cv = res["column_value"].set_index("column_sum_before")
    wider = 0
    for k, g in on.groupby("column_sum_before"):
        C = g["game"].nunique()  # the games the cell appears in, not every game
        r = (g["progress"] - g["progress"].mean()).groupby(g["game"]).sum()
        half = float(t_quantile(0.975, C - 1)) * np.sqrt(C / (C - 1) * (r ** 2).sum()) / len(g)
        assert cv.loc[k, "progress_high"] - cv.loc[k, "progress"] == pytest.approx(half)
        plain_low, _ = mean_ci(g["progress"].mean(), g["progress"].std(), len(g))
        wider += half > g["progress"].mean() - plain_low
    assert wider >= len(cv) // 2  # the moves of a game go together: mostly wider than the plain interval
    cut = int(np.flatnonzero(mv["game"].to_numpy() == mv["game"].iloc[len(mv) // 2])[1])
    first = {k: (v if k != "moves" else v.iloc[:cut]) for k, v in tables.items()}
    pieces = stats_of(first, {"moves": mv.iloc[cut:]}).result()
    for name in ("column_value", "new_column", "pushes", "overview"):
        pd.testing.assert_frame_equal(res[name], pieces[name], check_dtype=False)
