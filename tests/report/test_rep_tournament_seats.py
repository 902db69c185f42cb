"""The tournament's seat sentence: a joint Wald test, Holm and a practical size;
on fair seats it names a seat no more often than its error rate."""
import math
from types import SimpleNamespace

import numpy as np

from analyzer.report.tournament import seat_test, seat_verdict
from analyzer.stats.ratings import fit_races


def _table(rng, n, seat_effect):
    bots = np.array([rng.permutation(3) for _ in range(n)])
    strength = np.array([0.3, 0.0, -0.3])[bots] + np.asarray(seat_effect)[None, :]
    return bots, strength + rng.gumbel(size=bots.shape)


def test_fair_seats_are_named_within_alpha():
    rng = np.random.default_rng(8)
    reps = 300
    named = 0
    for _ in range(reps):
        fit, _ = fit_races(*_table(rng, 600, [0.0, 0.0, 0.0]), 3)
        named += bool(seat_test(SimpleNamespace(ratings=fit), min_effect=0.0)[1].any())
    assert named / reps <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / reps), named / reps


def test_a_real_seat_edge_is_named_and_a_tiny_one_is_not_meaningful():
    rng = np.random.default_rng(9)
    fit, _ = fit_races(*_table(rng, 20_000, [0.3, 0.0, -0.3]), 3)
    text = seat_verdict(SimpleNamespace(ratings=fit))
    assert "seat 1 (+" in text and "seat 3 (-" in text
    fit, _ = fit_races(*_table(rng, 20_000, [0.3, 0.0, -0.3]), 3)
    text = seat_verdict(SimpleNamespace(ratings=fit), min_effect=0.2)
    assert "no meaningful difference" in text


def test_a_seat_edge_whose_interval_reaches_across_the_threshold_is_not_named():
    """The seats' sentence decides by the one verdict rule, on the edge's interval: an
    edge whose estimate passes the threshold but whose interval reaches back across it
    is not named (the scorecard's seat line says not enough races beside it)."""
    rng = np.random.default_rng(9)
    fit, _ = fit_races(*_table(rng, 20_000, [0.3, 0.0, -0.3]), 3)
    result = SimpleNamespace(ratings=fit)
    _, flagged, edge, low, high = seat_test(result)
    assert flagged[0] and low[0] < edge[0] < high[0]
    t = float(edge[0] - 0.25 * (edge[0] - low[0]))  # the estimate beyond it, the lower bound short of it
    _, flagged, *_ = seat_test(result, min_effect=t)
    assert not flagged[0]
    text = seat_verdict(result, min_effect=t)
    assert "no seat is shown more than" in text and "not settled" in text and "seat 1 (+" not in text
