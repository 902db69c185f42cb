"""Confidence intervals for win rates, means and paired differences.

Means use Student's t quantile with n - 1 degrees of freedom (which is the
normal's to 3 digits from about 30 observations on, and wider below); shares
of units that come in clusters (the seats of one race, the cards of one deal)
use ``clustered_rate``, whose interval is as wide as the clusters make it.

All functions take numpy arrays or scalars and broadcast like numpy. Where an
interval is undefined (no observations) they return NaN rather than raise, so a
table with an empty cell still renders.
"""
import numpy as np

from analyzer.stats.distributions import t_quantile

Z95 = 1.959963984540054  # two-sided 95%: the 0.975 quantile of the standard normal


def _out(x):
    # 0-d arrays become numpy scalars, so scalar in means scalar out
    return x[()]


def wilson(successes, n, z=Z95):
    """Wilson score interval for a binomial proportion: ``(low, high)``.

    With p = successes / n::

        centre = (p + z²/(2n)) / (1 + z²/n)
        half   = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/(4n²))
        (low, high) = (centre - half, centre + half)

    Unlike the plain normal interval it stays inside [0, 1] and keeps close to
    its nominal coverage for p near 0 or 1, where win rates of bad seats live.
    n == 0 gives (nan, nan).
    """
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if np.any(n < 0) or np.any(k < 0) or np.any(k > n):
        raise ValueError("wilson() needs 0 <= successes <= n")
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        z2n = z * z / n
        centre = (p + z2n / 2) / (1 + z2n)
        half = z / (1 + z2n) * np.sqrt(p * (1 - p) / n + z2n / (4 * n))
    empty = n == 0
    # Exact 0 and 1 where the formula gives them up to rounding: a seat that
    # never lost should show an upper bound of 1, not 0.9999999999999999.
    low = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0))
    low = np.where(empty, np.nan, low)
    high = np.where(empty, np.nan, high)
    return _out(low), _out(high)


def rate_difference(k1, n1, k2, n2, z=Z95):
    """The difference of two independent rates ``k1/n1 - k2/n2`` with Newcombe's
    hybrid score interval (his method 10), built from the two Wilson intervals::

        low  = d - sqrt((p1 - low1)² + (high2 - p2)²)
        high = d + sqrt((high1 - p1)² + (p2 - low2)²)

    ``(d, low, high)``; NaN when either n is 0. It keeps good coverage where
    the rates are near 0 or 1, as Wilson's does."""
    l1, h1 = wilson(k1, n1, z)
    l2, h2 = wilson(k2, n2, z)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, p2 = np.asarray(k1, np.float64) / n1, np.asarray(k2, np.float64) / n2
    d = p1 - p2
    return _out(d), _out(d - np.sqrt((p1 - l1) ** 2 + (h2 - p2) ** 2)), _out(d + np.sqrt((h1 - p1) ** 2 + (p2 - l2) ** 2))


def mean_ci(mean, std, n, z=None):
    """Interval for a mean: ``mean ± q * std / sqrt(n)``, as ``(low, high)``.

    ``q`` is the 0.975 quantile of Student's t with ``n - 1`` degrees of
    freedom (the mean of few observations is less certain than the normal
    quantile says), or ``z`` when given. ``std`` is the sample standard
    deviation (ddof=1). With fewer than two observations the spread is
    unknown and the result is (nan, nan).
    """
    mean = np.asarray(mean, dtype=np.float64)
    std = np.asarray(std, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    q = t_quantile(0.975, np.where(n >= 2, n - 1, np.nan)) if z is None else z
    with np.errstate(divide="ignore", invalid="ignore"):
        half = q * std / np.sqrt(n)
    half = np.where(n < 2, np.nan, half)
    return _out(mean - half), _out(mean + half)


def clustered_rate(clusters, successes, trials, s_yy, s_nn, s_yn, z=Z95):
    """A share of units that come in clusters, with a cluster-robust interval:
    ``(rate, low, high)``.

    A race's seats (or a deal's cards) are not independent draws: they share
    the dice, and one seat's win is another's loss. From per-cluster totals
    ``y_c`` (successes) and ``n_c`` (units) over ``clusters`` clusters, given
    as sums ``successes = Σ y_c``, ``trials = Σ n_c``, ``s_yy = Σ y_c²``,
    ``s_nn = Σ n_c²``, ``s_yn = Σ y_c n_c``, the ratio estimator ``p = Σy / Σn``
    has the linearised (sandwich) variance

        var(p) = C / (C - 1) * Σ (y_c - p n_c)² / (Σ n)²

    The interval is Wilson's at the effective sample size ``n / deff``, with
    the design effect ``deff = var(p) / (p (1 - p) / n)``: it keeps Wilson's
    behaviour near 0 and 1 and is the plain Wilson interval when every cluster
    holds one unit. Empty input gives nan.
    """
    p, var, n = _ratio_variance(clusters, successes, trials, s_yy, s_nn, s_yn)
    with np.errstate(divide="ignore", invalid="ignore"):
        binom = p * (1 - p) / n
        deff = np.where((binom > 0) & np.isfinite(var), np.maximum(var / np.where(binom > 0, binom, 1), 1e-6), 1.0)
        n_eff = np.where(n > 0, n / deff, 0.0)
        k_eff = np.clip(np.where(n > 0, p, 0.0) * n_eff, 0, n_eff)
    low, high = wilson(k_eff, n_eff, z)
    return _out(np.asarray(p)), low, high


def _ratio_variance(clusters, successes, trials, s_yy, s_nn, s_yn):
    """``(p, var(p), n)`` of the ratio estimator of ``clustered_rate``."""
    C = np.asarray(clusters, np.float64)
    k = np.asarray(successes, np.float64)
    n = np.asarray(trials, np.float64)
    s_yy, s_nn, s_yn = (np.asarray(x, np.float64) for x in (s_yy, s_nn, s_yn))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n > 0, k / np.where(n > 0, n, 1), np.nan)
        resid = np.maximum(s_yy - 2 * p * s_yn + p * p * s_nn, 0.0)
        var = np.where(C > 1, C / (C - 1) * resid / (n * n), np.nan)
    return p, var, n


def clustered_ratio_ci(clusters, successes, trials, s_yy, s_nn, s_yn):
    """The ratio ``p = Σy / Σn`` of ``clustered_rate`` (same sums) with the
    cluster-robust t interval of a mean, ``p ± t(0.975, C - 1) sqrt(var(p))``:
    ``(p, low, high)``. For the mean of a quantity that is affine in a 0/1
    outcome (a contract's payoff: its points if fulfilled, else -2), where the
    interval is the one ``clustered_mean_ci`` gives from the units themselves.
    Fewer than two clusters give nan bounds."""
    p, var, _ = _ratio_variance(clusters, successes, trials, s_yy, s_nn, s_yn)
    C = np.asarray(clusters, np.float64)
    with np.errstate(invalid="ignore"):
        half = t_quantile(0.975, np.where(C > 1, C - 1, np.nan)) * np.sqrt(var)
    return _out(np.asarray(p)), _out(p - half), _out(p + half)


def paired_diff_ci(diffs, z=None, axis=0):
    """Mean of paired differences and its t interval: ``(mean, low, high)``.

    ``diffs[i] = a[i] - b[i]`` for two strategies playing the same game i (same
    seed and index). Pairing cancels the luck both share, so the interval

        mean(d) ± t(0.975, n - 1) * std(d, ddof=1) / sqrt(len(d))

    is much narrower than one built from two independent means. Reduces along
    ``axis``; empty input gives nan.
    """
    d = np.asarray(diffs, dtype=np.float64)
    n = d.shape[axis]
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.mean(d, axis=axis) if n else np.full(np.delete(d.shape, axis), np.nan)
        std = np.std(d, axis=axis, ddof=1) if n > 1 else np.full_like(mean, np.nan)
    low, high = mean_ci(mean, std, n, z)
    return _out(np.asarray(mean)), low, high


def clustered_mean_ci(values, clusters):
    """Mean of ``values`` whose units come in clusters (``clusters``: the cluster id
    of each, e.g. its race), with a cluster-robust t interval: ``(mean, low, high)``.

    With ``C`` clusters and ``r_c`` the sum over cluster c of ``values - mean``,

        var(mean) = C / (C - 1) * Σ r_c² / n²,   half = t(0.975, C - 1) * sqrt(var)

    which is the plain t interval's (up to the factor C/(C-1) against n/(n-1)) when
    every cluster holds one unit. Fewer than two clusters give nan bounds."""
    v = np.asarray(values, np.float64)
    _, cid = np.unique(np.asarray(clusters), return_inverse=True)
    n = len(v)
    if n == 0:
        return np.nan, np.nan, np.nan
    mean = float(v.mean())
    r = np.bincount(cid, weights=v - mean)
    C = len(r)
    if C < 2:
        return mean, np.nan, np.nan
    half = float(t_quantile(0.975, C - 1)) * np.sqrt(C / (C - 1) * float((r * r).sum())) / n
    return mean, mean - half, mean + half
