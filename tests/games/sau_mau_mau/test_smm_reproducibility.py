"""A game's results depend on the seed and its index only, not on how the games
are split into calls or which buffers were used before."""
import pytest
import numpy as np

from analyzer.games.sau_mau_mau import layout as L
from analyzer.games.sau_mau_mau.kernel import pack_game, run

pytestmark = pytest.mark.slow  # the fast tier (make test runs it first) leaves it out


def game(n=4):
    return pack_game(18, [L.RANDOM] * n)


def test_same_seed_same_results_whatever_the_split():
    whole = run(game(), 7, 0, 600)
    parts = [run(game(), 7, a, b - a) for a, b in ((0, 1), (1, 250), (250, 600))]
    for i in range(4):
        assert np.array_equal(whole[i], np.concatenate([p[i] for p in parts]))
    single = run(game(), 7, 333, 1)
    for i in range(4):
        assert np.array_equal(whole[i][333], single[i][0])


def test_repeated_and_other_seeds():
    a = run(game(3), 11, 0, 200)
    b = run(game(3), 11, 0, 200)
    c = run(game(3), 12, 0, 200)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[0], c[0])
    # games of one call differ from each other
    assert len({a[0][i].tobytes() for i in range(200)}) == 200


def test_checks_do_not_change_results():
    checked = pack_game(18, [L.RANDOM] * 4, check=True)
    a = run(game(), 5, 0, 200)
    b = run(checked, 5, 0, 200)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_each_race_deals_from_its_own_stream():
    """Race r of game i is dealt from lane 0 of stream i * 4 + r: the same deal
    whatever happened in the races before."""
    from analyzer.engine.rng import seed_stream
    from analyzer.games.sau_mau_mau.kernel import new_arrays
    from analyzer.games.sau_mau_mau.rules import setup_race

    g = game()
    decks = []
    for stream in (5 * 4 + 2, 5 * 4 + 2, 5 * 4 + 3):
        state, hidden = new_arrays()
        hidden[L.H_RNG] = 12345  # whatever the race before left
        seed_stream(hidden, L.H_RNG, 7, stream, 0)
        setup_race(g, state, hidden, 3)
        decks.append(hidden[:L.H_RNG].copy())
    assert np.array_equal(decks[0], decks[1]) and not np.array_equal(decks[0], decks[2])
