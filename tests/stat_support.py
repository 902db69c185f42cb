"""Two-sample tests for the statistical cross-checks of every game against its
independent reference implementation (no tests in here; no scipy needed)."""
from __future__ import annotations

import math

import numpy as np


def z_means(a, b) -> float:
    """Two-sample z of the difference of means, standard errors from the data."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    diff = a.mean() - b.mean()
    if se == 0:
        return 0.0 if diff == 0 else math.inf
    return diff / se


def z_props(k1, n1, k2, n2) -> float:
    """Two-sample z of a difference of proportions, with the pooled standard
    error of the null hypothesis (both proportions equal)."""
    p = (k1 + k2) / (n1 + n2)
    if p in (0.0, 1.0):
        return 0.0
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return (k1 / n1 - k2 / n2) / se


def chi2_sf(x: float, df: int) -> float:
    """Survival function of the chi-square distribution (regularised upper
    incomplete gamma Q(df/2, x/2); series / continued fraction as in Numerical
    Recipes), so that the tests need no scipy."""
    a, x = df / 2.0, x / 2.0
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - gln))
    b = x + 1 - a
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h


def chi2_homogeneity(counts_a, counts_b, min_expected=5.0):
    """Chi-square test that two samples of an ordered categorical variable come
    from one distribution: (statistic, degrees of freedom, p-value). Rare
    categories are merged into a neighbour until every expected count is at
    least ``min_expected``, where the chi-square approximation holds."""
    table = np.array([counts_a, counts_b], np.float64)
    table = table[:, table.sum(axis=0) > 0]

    def expected(t):
        return t.sum(axis=1, keepdims=True) * t.sum(axis=0, keepdims=True) / t.sum()

    while table.shape[1] > 2 and expected(table).min() < min_expected:
        j = int(np.argmin(table.sum(axis=0)))
        if j == 0:
            k = 1
        elif j == table.shape[1] - 1:
            k = j - 1
        else:
            k = j - 1 if table[:, j - 1].sum() <= table[:, j + 1].sum() else j + 1
        table[:, k] += table[:, j]
        table = np.delete(table, j, axis=1)
    stat = float(((table - expected(table)) ** 2 / expected(table)).sum())
    df = table.shape[1] - 1
    return stat, df, chi2_sf(stat, df)
