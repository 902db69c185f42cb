"""The paired comparison against itself: exactly zero difference on real races
and the "played identically" answer; the SPRT's error rates within its stated
alpha and beta (synthetic streams of paired results, no races); its options in
percentage points."""
import math

import numpy as np
import pytest

from analyzer.engine.botspec import parse_bot_list
from analyzer.engine.compare import SAME, CompareResult, PairedStat, Sprt, compare, render
from analyzer.errors import AnalyzerError
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
    test = Sprt(0.0, 0.02, look=400)
    result = compare(make_match, a, a, parse_bot_list("random"), 4, 2000, 7, threads=2, sprt=test)
    # identical after (1 - 0.02)^n <= 0.05: 149 races; the first look comes at 400
    assert test.identical_after() == 149
    assert result.races_per_arm == 400
    assert result.win.diff == 0 and result.score.diff == 0
    assert result.win.mean_a == result.win.mean_b and result.win.d2 == 0
    assert all(s.diff == 0 for s in result.per_seat)
    assert result.verdict == SAME
    assert "the two bots played identically" in render(result)


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


def test_sprt_error_rates_at_a_one_point_gap():
    """1,000 simulated tests each way at H0 0 pp vs H1 +1 pp (15% of races won by A
    alone, 15% by B alone, shifted by half a point each way under H1), looking every
    2,000 races as compare() does: both error rates at most the nominal 5% + 1 pp.
    (Wald's bounds make the test conservative; measured: about 3% each way.)"""
    test = Sprt.from_pp(0, 1)
    assert test.look == 2000
    v0, r0 = test.simulate(0.15, 0.15, 1000, 2_000_000, seed=11)
    v1, r1 = test.simulate(0.155, 0.145, 1000, 2_000_000, seed=12)
    assert None not in v0 and None not in v1
    assert v0.count("H1") / 1000 <= test.alpha + 0.01
    assert v1.count("H0") / 1000 <= test.beta + 0.01
    # and it is worth it: the expected length is a fraction of a fixed-sample test's
    # (alpha = beta = 5% at a 1 pp gap with variance 0.3: (1.645 + 1.645)^2 * 0.3 / 0.01^2 = 32,500)
    assert r0.mean() < 32_500 and r1.mean() < 32_500


def test_sprt_looks_often_enough():
    """Looking only every 65,536 races (the old chunk) costs about 3x the races."""
    often, _ = Sprt.from_pp(0, 1).simulate(0.155, 0.145, 200, 2_000_000, seed=3)[1].mean(), None
    rare = Sprt.from_pp(0, 1, look=65536).simulate(0.155, 0.145, 200, 2_000_000, seed=3)[1].mean()
    assert rare > 2.5 * often


@pytest.mark.parametrize("d0,d1,message", [
    (-5, 5, None), (0, 1, None), (5, -5, "D0 < D1"), (0, 100, "between -100 and 100"),
    (-150, 0, "between -100 and 100"), (float("nan"), 1, "between -100 and 100")])
def test_sprt_takes_percentage_points(d0, d1, message):
    if message is None:
        t = Sprt.from_pp(d0, d1)
        assert (t.d0, t.d1) == (d0 / 100, d1 / 100)
    else:
        with pytest.raises(AnalyzerError, match=message):
            Sprt.from_pp(d0, d1)


def _decided(verdict: str, test: Sprt) -> str:
    win, score = PairedStat(), PairedStat()
    rng = np.random.default_rng(5)
    a, b = rng.random(4000) < 0.31, rng.random(4000) < 0.3
    win.add(a, b)
    score.add(a * 3.0, b * 3.0)
    result = CompareResult("x", "y", ["random"], 4, win.n, win, score, test, verdict, 1.0)
    return render(result)


def test_sprt_verdicts_name_what_the_bounds_show():
    """Accepting H1 shows A - B above D0 (error alpha), not a gap of D1 or more: a
    true gap halfway between the bounds is accepted about half the time. Accepting
    H0 shows A - B below D1 (error beta)."""
    test = Sprt.from_pp(0, 1, alpha=0.05, beta=0.1)
    h1 = _decided("H1", test)
    assert ("H1 accepted: A - B is above +0 pp (A is better than B), evidence for the +1 pp alternative "
            "over +0 pp at alpha 0.05, beta 0.1") in h1
    assert "at most 5% of the time" in h1 and "may still be below +1 pp" in h1
    assert "better by about" not in h1 and "or more" not in h1.split("H1 accepted")[1].split("passes")[0]
    h0 = _decided("H0", test)
    assert ("H0 accepted: A - B is below +1 pp, evidence for +0 pp over the +1 pp alternative at alpha 0.05, "
            "beta 0.1") in h0
    assert "at most 10% of the time" in h0 and "may still be above +0 pp" in h0
    wide = _decided("H1", Sprt.from_pp(-5, 5, alpha=0.01, beta=0.05))
    assert "A - B is above -5 pp, evidence for the +5 pp alternative over -5 pp at alpha 0.01, beta 0.05" in wide
    assert "A is better than B" not in wide  # above -5 pp is not better


def test_sprt_at_half_the_gap_accepts_h1_often():
    """Why the words: at a true +0.5 pp (half of 0,1) H1 comes about half the time,
    so its text may not claim +1 pp. 200 simulated tests; the share of H1 is within
    4 standard errors of one half."""
    verdicts, _ = Sprt.from_pp(0, 1).simulate(0.1525, 0.1475, 200, 2_000_000, seed=21)
    share = verdicts.count("H1") / 200
    assert abs(share - 0.5) < 4 * math.sqrt(0.25 / 200), share
