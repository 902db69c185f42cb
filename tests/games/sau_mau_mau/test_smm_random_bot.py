"""The reference random bot answers exactly as the rules page says."""
import numpy as np

from analyzer.engine.rng import seed_stream
from analyzer.games.sau_mau_mau import layout as L
from analyzer.games.sau_mau_mau.random_bot import decide_random

N = 40_000


def answers(what, n_options, bet=-1, seed=1):
    row = np.zeros(L.OWN_LEN, np.int64)
    state = np.zeros(L.S_LEN, np.int64)
    row[L.OWN_BET_PIG] = bet
    seed_stream(row, L.OWN_RNG, seed, 0, 1)
    return np.array([decide_random(what, row, 0, state, n_options) for _ in range(N)])


def close(x, p):
    return abs(x - p) < 4 * np.sqrt(p * (1 - p) / N)


def test_plays_three_quarters_uniformly():
    a = answers(L.DECIDE_PLAY, 3)
    assert close((a == -1).mean(), 0.25)
    for i in range(3):
        assert close((a == i).mean(), 0.25)
    assert set(np.unique(answers(L.DECIDE_PLAY, 0)[:1000])) == {-1}


def test_free_choices_uniform():
    for what, n in ((L.DECIDE_COLOR, 0), (L.DECIDE_FLAPI, 2), (L.DECIDE_STEP, 3)):
        a = answers(what, n)
        k = 4 if what == L.DECIDE_COLOR else n
        assert set(np.unique(a)) == set(range(k))
        for i in range(k):
            assert close((a == i).mean(), 1 / k)


def test_bets_half_when_none():
    a = answers(L.DECIDE_BET, 0)
    assert close((a == -1).mean(), 0.5)
    for pig in range(4):
        assert close((a == pig).mean(), 0.125)


def test_changes_a_tenth_to_another_pig():
    a = answers(L.DECIDE_BET, 0, bet=2)
    assert close((a == -1).mean(), 0.9)
    assert (a != 2).all()
    for pig in (0, 1, 3):
        assert close((a == pig).mean(), 0.1 / 3)
