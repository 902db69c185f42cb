"""``analyzer.engine.floats``: the inlined ``exp`` is glibc's, bit for bit, and
exact to within an ulp; ``fma`` rounds once."""
import math
from decimal import Decimal, localcontext

import numba
import numpy as np

from analyzer.engine import floats


@numba.njit
def _exp_all(xs, out):
    for i in range(xs.size):
        out[i] = floats.exp(xs[i])


@numba.njit
def _fma(a, b, c):
    return floats.fma(a, b, c)


def _inputs() -> np.ndarray:
    rng = np.random.default_rng(20261127)
    bounds = [2.0 ** -54, 512.0, 709.782712893384, 709.7827128933841, 745.1332191019411, 1024.0]
    edges = [v for b in bounds for v in (b, np.nextafter(b, 0.0), np.nextafter(b, np.inf))]
    special = [0.0, -0.0, 1.0, -1.0, 0.5, math.log(2.0), 5e-324, np.inf, -np.inf, np.nan]
    return np.concatenate([
        rng.uniform(-40.0, 40.0, 1_000_000),  # the bots' sigmoids and chances
        rng.uniform(-1.0, 1.0, 200_000),
        rng.normal(0.0, 1e-12, 50_000),
        rng.uniform(-800.0, 800.0, 200_000),  # overflow and underflow, the C library's
        # any bit pattern: every exponent, both signs, nan payloads
        rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, 500_000, dtype=np.int64).view(np.float64),
        np.array(edges + [-v for v in edges] + special),
    ])


def test_exp_is_glibc_exp_bit_for_bit():
    # the reference is the C library's exp: glibc's (2.28 on) is what the
    # records of this project were made with and what CI runs
    xs = _inputs()
    ours = np.empty_like(xs)
    _exp_all(xs, ours)
    theirs = np.array([_libm_exp(v) for v in xs])
    same = (ours.view(np.int64) == theirs.view(np.int64)) | (np.isnan(ours) & np.isnan(theirs))
    assert same.all(), f"{(~same).sum()} differ, first at x={xs[~same][0]!r}"


def _libm_exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:  # Python raises where C returns inf
        return math.inf


def test_exp_is_within_an_ulp():
    xs = np.random.default_rng(5).uniform(-30.0, 30.0, 2_000)
    ours = np.empty_like(xs)
    _exp_all(xs, ours)
    with localcontext() as ctx:
        ctx.prec = 40
        for x, y in zip(xs, ours):
            exact = Decimal(float(x)).exp()
            ulp = Decimal(math.ulp(float(y)))
            assert abs(Decimal(float(y)) - exact) <= ulp, x


def test_fma_rounds_once():
    # (1 + 2^-30)^2 = 1 + 2^-29 + 2^-60: the product alone rounds the last term away
    a = 1.0 + 2.0 ** -30
    assert _fma(a, a, -(1.0 + 2.0 ** -29)) == 2.0 ** -60
    assert a * a - (1.0 + 2.0 ** -29) == 0.0
    assert _fma(2.0, 3.0, 1.0) == 7.0
