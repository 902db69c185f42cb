"""Cluster-robust means from mergeable sums (``analyzer.stats.clustered``): the
interval is the one computed from the units themselves, whatever way the units
arrive (in one call, cut inside a cluster, in merged accumulators)."""
import numpy as np
import pytest

from analyzer.stats.clustered import ClusteredMeans
from analyzer.stats.distributions import t_quantile
from analyzer.stats.intervals import clustered_mean_ci, paired_diff_ci


@pytest.fixture(scope="module")
def units():
    rng = np.random.default_rng(3)
    n = 3000
    clusters = np.sort(rng.integers(0, 400, n))
    groups = rng.integers(0, 4, n)
    arms = rng.integers(0, 2, n)
    # a cluster effect shared by its units: the plain interval would be too narrow
    values = rng.integers(-2, 6, n) + clusters % 7 + 2 * arms
    return clusters, groups, arms, values


def by_hand(clusters, groups, arms, values, group, weights):
    """θ = Σ w_a m_a and its cluster-robust half-width from the units; C counts
    the clusters holding units of θ (the group, in the arms weighed)."""
    weighed = np.isin(arms, np.flatnonzero(np.asarray(weights) != 0))
    C = len(np.unique(clusters[(groups == group) & weighed]))
    r = np.zeros(clusters.max() + 1)
    theta = 0.0
    for a, w in enumerate(weights):
        if w == 0:
            continue
        sel = (groups == group) & (arms == a)
        m = values[sel].mean()
        theta += w * m
        np.add.at(r, clusters[sel], w * (values[sel] - m) / sel.sum())
    return theta, float(t_quantile(0.975, C - 1)) * np.sqrt(C / (C - 1) * (r * r).sum())


def test_one_arm_is_the_cluster_robust_t_interval(units):
    clusters, groups, _, values = units
    acc = ClusteredMeans()
    acc.add(clusters, groups, values)
    res = acc.mean()
    for g in range(4):
        mean, half = by_hand(clusters, groups, np.zeros_like(groups), values, g, [1.0])
        assert res["mean"][g] == pytest.approx(mean)
        assert res["high"][g] - res["mean"][g] == pytest.approx(half)
        assert res["mean"][g] - res["low"][g] == pytest.approx(half)
        assert res["n"][g] == (groups == g).sum()
    # every cluster in the group: the same as clustered_mean_ci over the units
    whole = ClusteredMeans()
    whole.add(clusters, np.zeros_like(groups), values)
    m, lo, hi = clustered_mean_ci(values, clusters)
    r = whole.mean()
    assert (r["mean"][0], r["low"][0], r["high"][0]) == pytest.approx((m, lo, hi))


def test_a_difference_of_arms_counts_each_cluster_once(units):
    clusters, groups, arms, values = units
    acc = ClusteredMeans(arms=2)
    acc.add(clusters, groups, values, arms)
    res = acc.difference(1, 0)
    for g in range(4):
        d, half = by_hand(clusters, groups, arms, values, g, [-1.0, 1.0])
        assert res["difference"][g] == pytest.approx(d)
        assert res["high"][g] - res["difference"][g] == pytest.approx(half)


def test_clusters_of_one_unit_give_the_plain_t_interval_and_copies_no_narrower():
    d = np.array([1, -2, 3, 0, 2, -1, 4, 0, 5, 1])
    acc = ClusteredMeans()
    acc.add(np.arange(len(d)), np.zeros(len(d), np.int64), d)
    _, low, high = paired_diff_ci(d)
    r = acc.mean()
    assert (r["low"][0], r["high"][0]) == pytest.approx((low, high))
    copies = ClusteredMeans()
    copies.add(np.repeat(np.arange(len(d)), 3), np.zeros(3 * len(d), np.int64), np.repeat(d, 3))
    c = copies.mean()
    assert (c["low"][0], c["high"][0]) == pytest.approx((low, high))  # three copies of a unit add nothing


def test_cut_inside_a_cluster_or_merged_the_sums_are_the_same(units):
    clusters, groups, arms, values = units
    whole = ClusteredMeans(arms=2)
    whole.add(clusters, groups, values, arms)
    cut = int(np.flatnonzero(clusters == clusters[1500])[1])  # inside a cluster
    assert clusters[cut - 1] == clusters[cut]
    pieces = ClusteredMeans(arms=2)
    for lo, hi in ((0, 700), (700, cut), (cut, cut), (cut, len(clusters))):
        pieces.add(clusters[lo:hi], groups[lo:hi], values[lo:hi], arms[lo:hi])
    a, b = ClusteredMeans(arms=2), ClusteredMeans(arms=2)
    split = int(np.searchsorted(clusters, 200))  # accumulators of different clusters
    a.add(clusters[:split], groups[:split], values[:split], arms[:split])
    b.add(clusters[split:], groups[split:], values[split:], arms[split:])
    merged = a.merge(b)
    for other in (pieces, merged):
        assert other.clusters == whole.clusters == len(np.unique(clusters))
        np.testing.assert_array_equal(other.totals, whole.totals)
        np.testing.assert_array_equal(other.cross, whole.cross)


def test_bad_keys_are_refused():
    acc = ClusteredMeans(arms=2)
    with pytest.raises(ValueError, match="group keys"):
        acc.add([0], [-1], [3], [0])
    with pytest.raises(ValueError, match="arms"):
        acc.add([0], [0], [3], [2])


def test_a_rare_cell_counts_only_the_games_it_appears_in():
    """A cell of 6 moves, one in each of 6 games out of 1,000,
    took its degrees of freedom and C/(C-1) from all 1,000 games (half-width
    1.67 against 2.64 in the issue's case). One move per game: exactly the
    plain t interval of the 6 values, 5 degrees of freedom."""
    rng = np.random.default_rng(5)
    games = np.arange(1000)
    common = rng.integers(0, 10, 1000)  # group 0: a move in every game
    rare_games = np.array([3, 150, 400, 401, 777, 998])
    rare = np.array([2, 9, 4, 7, 0, 5])  # group 1: six moves
    clusters = np.concatenate([games, rare_games])
    groups = np.concatenate([np.zeros(1000, np.int64), np.ones(6, np.int64)])
    values = np.concatenate([common, rare])
    order = np.argsort(clusters, kind="stable")
    acc = ClusteredMeans()
    acc.add(clusters[order], groups[order], values[order])
    res = acc.mean()
    mean, low, high = paired_diff_ci(rare)
    assert (res["mean"][1], res["low"][1], res["high"][1]) == pytest.approx((mean, low, high))
    assert (high - low) / 2 == pytest.approx(float(t_quantile(0.975, 5)) * rare.std(ddof=1) / np.sqrt(6))
    assert list(acc.group_clusters()) == [1000, 6]
    # and a difference of arms counts the games holding either arm
    two = ClusteredMeans(arms=2)
    arm = np.concatenate([np.zeros(1000, np.int64), np.ones(6, np.int64)])
    two.add(clusters[order], np.zeros(1006, np.int64), values[order], arm[order])
    assert list(two.group_clusters([1])) == [6] and list(two.group_clusters([0, 1])) == [1000]


def test_a_cell_in_one_game_has_no_interval():
    acc = ClusteredMeans()
    acc.add(np.array([0, 0, 1, 2]), np.array([1, 1, 0, 0]), np.array([3, 5, 1, 2]))
    res = acc.mean()
    assert res["mean"][1] == 4 and np.isnan(res["low"][1]) and np.isnan(res["high"][1])
    assert np.isfinite(res["low"][0])
