"""Confidence intervals for win rates, means and paired differences.

All functions take numpy arrays or scalars and broadcast like numpy. Where an
interval is undefined (no observations) they return NaN rather than raise, so a
table with an empty cell still renders.
"""
import numpy as np

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


def mean_ci(mean, std, n, z=Z95):
    """Normal interval for a mean: ``mean ± z * std / sqrt(n)``, as ``(low, high)``.

    ``std`` is the sample standard deviation (ddof=1). With fewer than two
    observations the spread is unknown and the result is (nan, nan).
    """
    mean = np.asarray(mean, dtype=np.float64)
    std = np.asarray(std, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        half = z * std / np.sqrt(n)
    half = np.where(n < 2, np.nan, half)
    return _out(mean - half), _out(mean + half)


def paired_diff_ci(diffs, z=Z95, axis=0):
    """Mean of paired differences and its normal interval: ``(mean, low, high)``.

    ``diffs[i] = a[i] - b[i]`` for two strategies playing the same game i (same
    seed and index). Pairing cancels the luck both share, so the interval

        mean(d) ± z * std(d, ddof=1) / sqrt(len(d))

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
