"""What every game's search-bot tests check alike (no tests in here): a seed fixes
its games at any thread count and chunking, and a world is fixed by the search's
key and rollout."""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer import api


def assert_a_seed_fixes_the_games(game: str, count: int, bots: str, tables: tuple[str, ...], chunk: int,
                                  differs: str):
    """The same ``tables`` at one thread in one chunk and at two threads in chunks
    of ``chunk``; another seed plays other games (its table ``differs`` differs)."""
    one = api.simulate(game, count, bots=bots, seed=5, threads=1, chunk=count, progress=False)
    two = api.simulate(game, count, bots=bots, seed=5, threads=2, chunk=chunk, progress=False)
    for name in tables:
        pd.testing.assert_frame_equal(one.tables[name], two.tables[name])
    other = api.simulate(game, count, bots=bots, seed=6, threads=1, progress=False)
    assert not one.tables[differs].equals(other.tables[differs])


def worlds_of_rollouts(world, here, sim, seat, drawn) -> list:
    """``world(here, sim, seat, key, r)`` for rollouts 0, 0 and 1 under one key: the
    same world twice, another for rollout 1; the three are returned (``drawn()``: the
    array the world draws into)."""
    worlds = []
    for r in (0, 0, 1):
        world(here, sim, seat, 77, r)
        worlds.append(drawn().copy())
    assert np.array_equal(worlds[0], worlds[1]) and not np.array_equal(worlds[0], worlds[2])
    return worlds
