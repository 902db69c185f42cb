"""The paired comparison against itself: exactly zero difference on real races,
and the SPRT's false-accept rate under H0 within its stated alpha (synthetic
streams of paired results, no races)."""
import math

import numpy as np
import pytest

from analyzer.engine.botspec import parse_bot_list
from analyzer.engine.compare import PairedStat, Sprt, compare
from analyzer.games.lemming_mafia.match import LemmingMafiaMatch


@pytest.fixture(scope="module")
def make_match():
    def make(table):
        return LemmingMafiaMatch(None, len(table), table)
    make(parse_bot_list("random") * 4).warm_up()  # compile (or load) once
    return make


@pytest.mark.parametrize("bot", ["timer", "favourite:harm=1.2"])
def test_compare_with_itself_is_exactly_zero(make_match, bot):
    (a,) = parse_bot_list(bot)
    result = compare(make_match, a, a, parse_bot_list("random"), 4, 800, 7, threads=2,
                     sprt=Sprt(0.0, 0.02))
    assert result.races_per_arm == 800
    assert result.win.diff == 0 and result.score.diff == 0
    assert result.win.mean_a == result.win.mean_b and result.win.d2 == 0
    assert all(s.diff == 0 for s in result.per_seat)
    assert result.verdict is None  # no spread at all: the SPRT never decides, least of all for H1


def _run_sprts(test: Sprt, true_diff: float, reps: int, batches: int, batch: int, seed: int) -> dict:
    """``reps`` sequences of paired win indicators (A and B each win with chance
    ~0.3, correlated through a shared race outcome) fed batch by batch into
    PairedStat + Sprt, as compare() does after each chunk."""
    rng = np.random.default_rng(seed)
    stats = [PairedStat() for _ in range(reps)]
    verdict = [None] * reps
    for _ in range(batches):
        shared, own_a, own_b, coin = (rng.random((reps, batch)) for _ in range(4))
        a = np.where(coin < 0.5, shared, own_a) < 0.3 + true_diff  # half the races decided alike
        b = np.where(coin < 0.5, shared, own_b) < 0.3
        for i in range(reps):
            if verdict[i] is None:
                stats[i].add(a[i], b[i])
                verdict[i] = test.decide(stats[i])
    return {v: verdict.count(v) / reps for v in ("H1", "H0", None)}


def test_sprt_false_accept_rate_within_alpha():
    test = Sprt(0.0, 0.02, alpha=0.05, beta=0.05)
    reps = 400
    rates = _run_sprts(test, 0.0, reps, batches=60, batch=500, seed=2024)
    limit = test.alpha + 3 * math.sqrt(test.alpha * (1 - test.alpha) / reps)
    assert rates["H1"] < limit, rates
    assert rates["H0"] > 0.8, rates  # and it does decide, for H0


def test_sprt_accepts_a_real_difference():
    test = Sprt(0.0, 0.02, alpha=0.05, beta=0.05)
    reps = 200
    rates = _run_sprts(test, 0.02, reps, batches=60, batch=500, seed=7)
    assert rates["H0"] < test.beta + 3 * math.sqrt(test.beta * (1 - test.beta) / reps), rates
    assert rates["H1"] > 0.8, rates
