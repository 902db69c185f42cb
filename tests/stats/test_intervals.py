import math

import numpy as np
import pytest

from analyzer.stats.intervals import clustered_mean_ci, clustered_rate, mean_ci, paired_diff_ci, wilson


def hand_wilson(k, n, z=1.959963984540054):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_wilson_known_values():
    low, high = wilson(50, 100)
    assert (round(float(low), 4), round(float(high), 4)) == (0.4038, 0.5962)
    low, high = wilson(0, 10)
    assert low == 0.0 and round(float(high), 4) == 0.2775
    low, high = wilson(10, 10)
    assert high == 1.0 and round(float(low), 4) == 0.7225
    for k, n in [(1, 3), (7, 40), (999, 1000)]:
        assert np.allclose(wilson(k, n), hand_wilson(k, n))


def test_wilson_vectorised_and_empty():
    low, high = wilson(np.array([0, 5, 0, 30]), np.array([10, 10, 0, 100]))
    assert low.shape == high.shape == (4,)
    assert np.isnan(low[2]) and np.isnan(high[2])
    assert np.allclose(low[[1, 3]], [hand_wilson(5, 10)[0], hand_wilson(30, 100)[0]])
    low, high = wilson(0, 0)
    assert math.isnan(low) and math.isnan(high)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_wilson_coverage():
    rng = np.random.default_rng(20240611)
    p, n, replicates = 0.3, 200, 2000
    successes = rng.binomial(n, p, size=replicates)
    low, high = wilson(successes, n)
    coverage = np.mean((low <= p) & (p <= high))
    tolerance = 3 * math.sqrt(0.95 * 0.05 / replicates)
    assert abs(coverage - 0.95) <= tolerance


# t quantiles t(0.975, df) from printed tables: df 3 -> 3.182, df 99 -> 1.984
T975_3, T975_99 = 3.182446305284263, 1.9842169515086827


def test_mean_ci_uses_t_quantiles():
    low, high = mean_ci(10.0, 2.0, 100)
    assert np.allclose((low, high), (10 - T975_99 * 0.2, 10 + T975_99 * 0.2))
    low, high = mean_ci(np.array([1.0, 2.0]), np.array([1.0, 1.0]), np.array([4, 1]))
    assert np.allclose(low[0], 1 - T975_3 / 2) and np.isnan(low[1])
    # an explicit z still gives the normal interval
    low, high = mean_ci(10.0, 2.0, 100, z=1.959963984540054)
    assert np.allclose(low, 10 - 1.959963984540054 * 0.2)


def test_mean_ci_small_n_coverage():
    """Five normal observations: the t interval covers 95%, the z one about 88%."""
    rng = np.random.default_rng(7)
    reps = 4000
    x = rng.standard_normal((reps, 5))
    low, high = mean_ci(x.mean(1), x.std(1, ddof=1), 5)
    coverage = np.mean((low <= 0) & (0 <= high))
    tolerance = 3 * math.sqrt(0.95 * 0.05 / reps)
    assert abs(coverage - 0.95) <= tolerance
    low, high = mean_ci(x.mean(1), x.std(1, ddof=1), 5, z=1.959963984540054)
    assert np.mean((low <= 0) & (0 <= high)) < 0.95 - tolerance


def test_paired_diff_ci():
    diffs = np.array([1.0, 2.0, 3.0, 4.0])
    mean, low, high = paired_diff_ci(diffs)
    half = T975_3 * np.std(diffs, ddof=1) / 2
    assert mean == 2.5 and np.allclose((low, high), (2.5 - half, 2.5 + half))
    mean, low, high = paired_diff_ci(np.ones((5, 3)))
    assert mean.shape == (3,) and np.allclose(low, 1) and np.allclose(high, 1)
    mean, low, high = paired_diff_ci([7.0])
    assert mean == 7.0 and math.isnan(low) and math.isnan(high)


def test_clustered_rate_is_wilson_for_clusters_of_one():
    y = np.array([1, 0, 0, 1, 1, 0, 1, 1, 0, 0])
    n = np.ones_like(y)
    p, low, high = clustered_rate(len(y), y.sum(), n.sum(), (y * y).sum(), (n * n).sum(), (y * n).sum())
    # C/(C-1) makes the variance p(1-p)/(n-1) * n/n: Wilson at n - 1 units
    assert p == 0.5 and np.allclose((low, high), wilson(4.5, 9))


def test_clustered_rate_covers_correlated_seats():
    """Four seats a race sharing a race effect (intra-race correlation about 0.3):
    the clustered interval keeps 95% coverage where the plain Wilson interval,
    which treats the seats as independent, falls short."""
    rng = np.random.default_rng(11)
    reps, races, seats = 1500, 200, 4
    shared = rng.random((reps, races, 1)) < 0.5
    own = rng.random((reps, races, seats)) < 0.5
    mix = rng.random((reps, races, seats)) < 0.55
    won = np.where(mix, shared, own).astype(np.int64)  # P(win) = 0.5 in every seat
    y = won.sum(2)
    m = np.full_like(y, seats)
    p, low, high = clustered_rate(races, y.sum(1), m.sum(1), (y * y).sum(1), (m * m).sum(1), (y * m).sum(1))
    coverage = np.mean((low <= 0.5) & (0.5 <= high))
    tolerance = 3 * math.sqrt(0.95 * 0.05 / reps)
    assert abs(coverage - 0.95) <= tolerance
    wl, wh = wilson(y.sum(1), m.sum(1))
    assert np.mean((wl <= 0.5) & (0.5 <= wh)) < 0.95 - tolerance
    assert np.all((high - low) > (wh - wl))


def test_clustered_mean_is_the_t_interval_for_clusters_of_one_and_wider_for_copies():
    d = np.array([1.0, -2.0, 3.0, 0.5, 2.0, -1.0, 4.0, 0.0])
    mean, low, high = clustered_mean_ci(d, np.arange(len(d)))
    _, pl, ph = paired_diff_ci(d)
    # C/(C-1) over n² against 1/(n(n-1)): the same variance when every cluster holds one unit
    assert mean == d.mean() and np.allclose((low, high), (pl, ph))
    # each value twice in its own cluster: no more information, the same interval
    _, cl, ch = clustered_mean_ci(np.repeat(d, 2), np.repeat(np.arange(len(d)), 2))
    assert np.allclose((cl, ch), (pl, ph))
    assert (ch - cl) > 1.3 * (paired_diff_ci(np.repeat(d, 2))[2] - paired_diff_ci(np.repeat(d, 2))[1])


def test_compiled_continued_fraction_is_the_plain_one_bit_for_bit():
    """``betainc`` runs ``_betacf`` compiled (speed): the same operations in the
    same order, so the same bits, over the df and points a report's t quantiles use."""
    from analyzer.stats.distributions import _betacf, compiled_betacf

    cf = compiled_betacf()
    rng = np.random.default_rng(11)
    dfs = np.r_[np.arange(1, 60), rng.integers(60, 4_000_000, 300)].astype(float)
    for df in dfs:
        for t in np.r_[rng.uniform(0.0, 8.0, 6), 1.959963984540054]:
            x = df / (df + t * t)
            for a, b, y in ((df / 2, 0.5, x), (0.5, df / 2, 1.0 - x)):
                assert cf(a, b, y) == _betacf(a, b, y)
