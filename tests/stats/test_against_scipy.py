"""The library's statistics against scipy and statsmodels (the test extra):
Wilson intervals, Student t quantiles and interval, chi-square tails, and the
Bradley-Terry fit against a binomial GLM on the same pairs."""
import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.api import GLM, families
from statsmodels.stats.proportion import proportion_confint

from analyzer.stats.distributions import chi2_sf, normal_sf, t_quantile, t_sf
from analyzer.stats.intervals import mean_ci, wilson
from analyzer.stats.ratings import PairCounts, fit


@pytest.mark.parametrize("k,n", [(0, 10), (1, 3), (7, 40), (50, 100), (999, 1000), (10, 10), (3, 1_000_000)])
def test_wilson_equals_statsmodels(k, n):
    low, high = wilson(k, n)
    ref = proportion_confint(k, n, alpha=0.05, method="wilson")
    assert (low, high) == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 9, 19, 29, 30, 99, 1000, 1e6])
@pytest.mark.parametrize("p", [0.5, 0.9, 0.975, 0.995, 0.025])
def test_t_quantile_equals_scipy(p, df):
    assert t_quantile(p, df) == pytest.approx(sps.t.ppf(p, df), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("df", [1, 3, 10, 50])
@pytest.mark.parametrize("t", [-3.0, -0.5, 0.0, 0.7, 2.0, 6.0])
def test_t_sf_equals_scipy(t, df):
    assert t_sf(t, df) == pytest.approx(sps.t.sf(t, df), rel=1e-9, abs=1e-14)


def test_mean_ci_equals_scipy_t_interval():
    rng = np.random.default_rng(3)
    for n in (2, 3, 5, 12, 31, 200):
        x = rng.normal(2.0, 1.5, n)
        low, high = mean_ci(x.mean(), x.std(ddof=1), n)
        ref = sps.t.interval(0.95, n - 1, loc=x.mean(), scale=sps.sem(x))
        assert (low, high) == pytest.approx(ref, rel=1e-9)


@pytest.mark.parametrize("df", [1, 2, 5, 10, 30])
@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 3.0, 11.07, 40.0])
def test_chi2_sf_equals_scipy(x, df):
    assert chi2_sf(x, df) == pytest.approx(sps.chi2.sf(x, df), rel=1e-9, abs=1e-15)


def test_normal_sf_equals_scipy():
    z = np.array([-2.0, 0.0, 1.0, 1.959963984540054, 5.0])
    assert np.allclose(normal_sf(z), sps.norm.sf(z), rtol=1e-12)


def test_bradley_terry_equals_a_binomial_glm():
    """The pairwise fit (bots and seats, ties half) is a logistic regression on
    the pair design: statsmodels' GLM on the same cells gives the same
    estimates and model-based standard errors."""
    rng = np.random.default_rng(5)
    n, players, n_bots = 3000, 3, 3
    bots = np.array([rng.permutation(n_bots) for _ in range(n)])
    strength = np.array([0.6, 0.0, -0.6])[bots] + np.array([0.2, 0.0, -0.2])[None, :]
    scores = np.floor(strength + rng.gumbel(size=bots.shape) * 1.3)  # floor: some ties
    counts = PairCounts(n_bots, players)
    counts.add(bots, scores, np.arange(n))
    res = fit(counts, ridge=0.0)
    X = counts.design()
    W, N = counts.wins.sum(0), counts.games.sum(0)
    used = N > 0
    # the GLM needs an identified design: drop the last bot's and the last seat's columns
    # (sum-to-zero constraints then recover the centred parameters)
    keep = [i for i in range(n_bots + players) if i not in (n_bots - 1, n_bots + players - 1)]
    glm = GLM(np.c_[W[used], N[used] - W[used]], X[used][:, keep], family=families.Binomial()).fit()
    b = np.zeros(n_bots + players)
    b[keep] = glm.params
    b[:n_bots] -= b[:n_bots].mean()
    b[n_bots:] -= b[n_bots:].mean()
    assert np.allclose(res.strength, b[:n_bots], atol=1e-7)
    assert np.allclose(res.seat, b[n_bots:], atol=1e-7)
    # model-based standard error of a difference of strengths, both ways
    cov = glm.cov_params()
    se_glm = np.sqrt(cov[0, 0])  # bot 0 against bot 2 (its reference)
    se_ours = np.sqrt(res.cov_model[0, 0] + res.cov_model[2, 2] - 2 * res.cov_model[0, 2])
    assert se_ours == pytest.approx(se_glm, rel=1e-6)


def test_race_clustered_means_equal_statsmodels_cluster_robust_ols():
    """A mean over units that come in clusters (the cards of one race, the moves of
    one game) is the intercept of an OLS on the units; statsmodels' cluster-robust
    covariance (G/(G-1) correction, t with G-1 df) gives the same interval as
    ``clustered_mean_ci``, the ratio form ``clustered_ratio_ci`` (a payoff affine in
    a 0/1 outcome, from per-cluster sums) and ``ClusteredMeans`` per group, where
    G counts only the clusters holding the group's units."""
    from statsmodels.api import OLS

    from analyzer.stats.clustered import ClusteredMeans
    from analyzer.stats.intervals import clustered_mean_ci, clustered_ratio_ci

    rng = np.random.default_rng(11)
    n = 900
    clusters = np.sort(rng.integers(0, 300, n))
    groups = (rng.random(n) < 0.1).astype(np.int64)  # group 1: a rare cell, in few clusters
    y = (rng.random(n) < 0.3 + 0.4 * (clusters % 3 == 0)).astype(np.int64)  # shared within a cluster

    def reference(values, ids):
        fit = OLS(values.astype(float), np.ones(len(values))).fit(
            cov_type="cluster", cov_kwds={"groups": ids}, use_t=True)
        return fit.params[0], *fit.conf_int(0.05)[0]

    ref = reference(y, clusters)
    assert clustered_mean_ci(y, clusters) == pytest.approx(ref, rel=1e-9)
    per = np.bincount(clusters, weights=y), np.bincount(clusters).astype(float)
    sums = [(a * b).sum() for a, b in ((per[0], per[0]), (per[1], per[1]), (per[0], per[1]))]
    p, low, high = clustered_ratio_ci(len(np.unique(clusters)), y.sum(), n, *sums)
    assert (p, low, high) == pytest.approx(ref, rel=1e-9)
    acc = ClusteredMeans()
    acc.add(clusters, groups, y)
    res = acc.mean()
    for g in (0, 1):
        sel = groups == g
        assert (res["mean"][g], res["low"][g], res["high"][g]) == pytest.approx(reference(y[sel], clusters[sel]),
                                                                                rel=1e-9)
