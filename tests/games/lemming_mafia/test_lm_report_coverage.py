"""The report's intervals cover the true value at their nominal 95% on synthetic
data (fixed seed; tolerances from the sampling error of the coverage itself)."""
import math

import numpy as np
import pandas as pd

from analyzer.stats.aggregate import rate
from analyzer.stats.intervals import wilson
from analyzer.games.lemming_mafia.stats import LemmingMafiaStats

NOMINAL = 0.95


def exact_coverage(n: int, p: float) -> float:
    """P(the Wilson interval of Binomial(n, p) contains p), summed over k."""
    k = np.arange(n + 1)
    logpmf = np.array([math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in k]) \
        + k * math.log(p) + (n - k) * math.log1p(-p)
    low, high = wilson(k, np.full(n + 1, n))
    return float(np.exp(logpmf)[(low <= p) & (p <= high)].sum())


def test_wilson_coverage_on_synthetic_rates():
    rng = np.random.default_rng(20240601)
    cases = [(n, p) for n in (30, 100, 400, 2000) for p in (0.03, 0.1, 0.25, 0.5, 0.8)]
    reps = 2000
    hits = expected = 0.0
    for n, p in cases:
        k = rng.binomial(n, p, size=reps)
        r = rate(k, np.full(reps, n))
        covered = float(((r["low"] <= p) & (p <= r["high"])).mean())
        exact = exact_coverage(n, p)
        # Wilson's coverage wobbles with n and p but stays near the nominal 95%
        assert 0.90 <= exact <= 0.99, (n, p, exact)
        # the simulated coverage matches the exact one within 4 sampling sd
        se = math.sqrt(exact * (1 - exact) / reps)
        assert abs(covered - exact) <= 4 * se + 1e-12, (n, p, covered, exact)
        hits += covered
        expected += exact
    total = len(cases)
    pooled_se = math.sqrt(NOMINAL * (1 - NOMINAL) / (reps * total))
    assert abs(hits / total - expected / total) <= 4 * pooled_se
    assert abs(expected / total - NOMINAL) <= 0.01


def test_win_rate_intervals_from_the_aggregator_cover_the_truth():
    """Seat win rates through LemmingMafiaStats: per replication a 200-race table
    where seat s wins with a known probability; count how often the bots
    table's interval covers it."""
    rng = np.random.default_rng(7)
    truth = np.array([0.4, 0.3, 0.2, 0.1])
    reps, races = 200, 200
    covered = np.zeros(4)
    for _ in range(reps):
        winner = rng.choice(4, size=races, p=truth)
        seat = np.tile(np.arange(1, 5), races)
        won = (np.repeat(winner, 4) + 1) == seat
        players = pd.DataFrame({
            "race": np.repeat(np.arange(races), 4), "seat": seat,
            "bot": pd.Categorical([f"bot{s}" for s in seat]),
            "bet_points": 0, "contract_points": 0, "score": won.astype(int), "bets_placed": 0,
            "contracts_discarded": 0, "won": won,
        })
        s = LemmingMafiaStats()
        s.add({"players": players})
        bots = s.result()["bots"].set_index("bot")
        for i in range(4):
            r = bots.loc[f"bot{i + 1}"]
            covered[i] += r["win_low"] <= truth[i] <= r["win_high"]
    share = covered / reps
    se = np.sqrt(NOMINAL * (1 - NOMINAL) / reps)
    # 0.01 on top for Wilson's own small departures from 95% at n = 200
    assert np.all(np.abs(share - NOMINAL) <= 4 * se + 0.01), share
    pooled_se = np.sqrt(NOMINAL * (1 - NOMINAL) / (4 * reps))
    assert abs(share.mean() - NOMINAL) <= 4 * pooled_se + 0.01, share
