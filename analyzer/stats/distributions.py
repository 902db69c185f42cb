"""Quantiles and tail probabilities of the normal, Student t and chi-square
distributions, in plain Python (the analyzer does not depend on scipy; the
test extra checks these against it).

- ``normal_quantile``, ``normal_sf``: the standard normal, from the standard
  library's ``statistics.NormalDist`` and ``math.erfc``;
- ``t_sf``, ``t_quantile``: Student's t with ``df`` degrees of freedom, from the
  regularised incomplete beta function (continued fraction, as in Numerical
  Recipes 6.4), the quantile by bisection on the tail probability;
- ``chi2_sf``: the chi-square survival function, the regularised upper
  incomplete gamma ``Q(df/2, x/2)`` (series / continued fraction, NR 6.2).

Accuracy: about 1e-12 relative for the tail probabilities in the ranges the
reports use (df >= 1, p >= 1e-12); the t quantile is exact to 1e-10.

Speed: the continued fraction takes O(sqrt(df)) steps (some hundreds for the
df of a million-race report) and a quantile some 45 tail probabilities, so a
report with a few thousand distinct df spent seconds in it in plain Python.
``betainc`` runs it compiled (numba, loaded at the first call): the same
operations in the same order, without fast-math, so the same bits as the plain
Python ``_betacf`` (tests/stats/test_intervals.py checks it).
"""
from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np

_EPS = 1e-15
_TINY = 1e-300


def normal_quantile(p: float) -> float:
    """The ``p`` quantile of the standard normal."""
    return NormalDist().inv_cdf(p)


def normal_sf(z):
    """P(Z > z) for a standard normal Z (arrays broadcast)."""
    z = np.asarray(z, np.float64)
    out = 0.5 * np.vectorize(math.erfc, otypes=[np.float64])(z / math.sqrt(2)) if z.size else z
    return out[()] if np.ndim(out) == 0 else out


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h


@lru_cache(maxsize=None)
def compiled_betacf():
    """``_betacf`` compiled: numba is imported only when a tail probability is
    first needed (``analyzer --help`` and plain runs do not pay for it).

    numba's own ``njit`` with the options of the engine's ``kernel`` decorator
    (``engine.jit.JIT_OPTIONS``, no reference counting, not force-inlined):
    statistics sit below the engine and import nothing of it. numba caches it
    by this file (it calls no other analyzer code), under ``NUMBA_CACHE_DIR``
    when that is set."""
    from numba import njit

    return njit(cache=True, nogil=True, error_model="numpy", _nrt=False, forceinline=False)(_betacf)


def betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    cf = compiled_betacf()
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * cf(a, b, x) / a
    return 1.0 - front * cf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom."""
    if math.isinf(df):
        return float(normal_sf(t))
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


@lru_cache(maxsize=4096)
def _t_quantile(p: float, df: float) -> float:
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -_t_quantile(1.0 - p, df)
    tail = 1.0 - p
    z = normal_quantile(p)
    lo, hi = 0.0, max(2.0 * z, 1.0)
    while t_sf(hi, df) > tail:  # the t quantile is above the normal one: widen until bracketed
        lo, hi = hi, 2.0 * hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_sf(mid, df) > tail:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


def t_quantile(p: float, df):
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (arrays of
    df broadcast; df <= 0 or NaN gives NaN; infinite df gives the normal's)."""
    if not 0.0 < p < 1.0:
        raise ValueError("t_quantile needs 0 < p < 1")
    df = np.asarray(df, np.float64)
    out = np.full(df.shape, np.nan)
    flat, res = df.ravel(), out.ravel()
    for value in np.unique(flat[np.isfinite(flat) & (flat > 0)]):
        res[flat == value] = _t_quantile(float(p), float(value))
    res[np.isinf(flat) & (flat > 0)] = normal_quantile(p)
    out = res.reshape(df.shape)
    return out[()] if out.ndim == 0 else out


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for a chi-square X with ``df`` degrees of freedom: the
    regularised upper incomplete gamma Q(df/2, x/2)."""
    a, x = df / 2.0, x / 2.0
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        ap = a
        for _ in range(10000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - gln))
    b = x + 1 - a  # continued fraction for Q (modified Lentz)
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - gln) * h
