"""A game's results depend on the seed and its index only: not on how the games
are split into calls, on the thread count or on the chunk size."""
import pytest
import numpy as np

from analyzer.engine.botspec import BotSpec
from analyzer.engine.simulate import simulate
from analyzer.games.lemminge import kernel as K
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge.board import load_map
from analyzer.games.lemminge.match import LemmingeMatch

pytestmark = pytest.mark.slow  # the fast tier (make test runs it first) leaves it out

MAP = load_map()


def run(seed, first, count, check=False, players=4):
    return K.run(K.pack_game(MAP, [L.RANDOM] * players, check=check), MAP.n_cells, seed, first, count)


def test_same_seed_same_games_whatever_the_split():
    games, players, moves, hexes = run(7, 0, 300)
    parts = [run(7, a, b - a) for a, b in ((0, 1), (1, 120), (120, 300))]
    assert np.array_equal(games, np.concatenate([p[0] for p in parts]))
    assert np.array_equal(players, np.concatenate([p[1] for p in parts]))
    assert np.array_equal(hexes, sum(p[3] for p in parts))
    single = run(7, 211, 1)
    assert np.array_equal(games[211], single[0][0])


def test_other_seeds_differ_and_checks_change_nothing():
    a = run(11, 0, 100, players=3)
    b = run(12, 0, 100, players=3)
    c = run(11, 0, 100, check=True, players=3)
    assert not np.array_equal(a[0], b[0])
    assert all(np.array_equal(x, y) for x, y in zip(a, c))
    assert len({a[1][i].tobytes() for i in range(100)}) == 100


def tables(threads, chunk):
    match = LemmingeMatch(None, 4, [BotSpec("random", ()), BotSpec("racer", ()), BotSpec("convoy", ()),
                                    BotSpec("blocker", ())])
    parts = []

    class Collect:
        def add(self, t):
            if "games" in t:  # a chunk's tables (the run's summed hexes come once more at the end)
                parts.append({k: v for k, v in t.items()})

    result = simulate(match, 240, 5, threads=threads, chunk_size=chunk, progress=False, stats=Collect())
    out = {}
    for name in ("games", "players", "moves"):
        import pandas as pd
        out[name] = pd.concat([p[name] for p in parts]).sort_values(
            ["game"] + (["seat"] if name == "players" else ["turn"] if name == "moves" else [])).reset_index(drop=True)
    out["hexes"] = sum(p["hexes"][["entered", "pushed_into", "tiles_placed"]].to_numpy() for p in parts)
    return result.summary.as_dict(), out


def test_threads_and_chunks_give_the_same_run():
    s1, t1 = tables(1, 240)
    s2, t2 = tables(2, 37)
    assert s1 == s2
    for name in ("games", "players", "moves"):
        assert t1[name].equals(t2[name]), name
    assert np.array_equal(t1["hexes"], t2["hexes"])
