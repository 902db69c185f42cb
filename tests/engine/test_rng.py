"""``rng.below_if_choice`` draws what ``0 if n == 1 else below(n)`` draws, and
leaves the stream where that leaves it, including Lemire's rejections (common
for bounds just above 2**31, where about half the draws are rejected).
``rng.heads`` counts the heads among the leading bits of its draws.
``rng.pick_best`` is the argmax with exact ties drawn uniformly."""
import itertools

import numpy as np

from analyzer.engine.rng import below, below_if_choice, heads, next_u64, pick_best


def test_below_if_choice_is_below_unless_one_option():
    rng = np.random.default_rng(5)
    starts = rng.integers(-2**63, 2**63 - 1, size=400, dtype=np.int64)
    one_draw = (starts.view(np.uint64) + np.uint64(0x9E3779B97F4A7C15)).view(np.int64)  # rng._GAMMA
    rejected = 0
    for n in (1, 2, 3, 6, 36, 2**31 + 1, 2**32 - 1):
        for start, after_one in zip(starts, one_draw):
            fast = np.array([start], np.int64)
            plain = np.array([start], np.int64)
            got = below_if_choice(fast, 0, n)
            want = 0 if n == 1 else below(plain, 0, n)
            assert got == want and fast[0] == plain[0], (n, start)
            # more than one draw taken: a rejection was redone as below does it
            rejected += n > 1 and plain[0] != after_one
        if n == 1:
            assert (fast[0], got) == (start, 0)
    assert rejected > 100  # the rejection path was reached


def test_heads_counts_the_leading_bits_of_as_many_draws_as_it_needs():
    """``heads(flips)`` is the number of set bits among the first ``flips`` bits
    (the most significant first) of 64-bit draws, one draw per 64 coins or part
    of them, so it is binomial(flips, 1/2) as the draws' bits are fair coins."""
    starts = np.random.default_rng(11).integers(-2**63, 2**63 - 1, size=50, dtype=np.int64)
    for flips in (0, 1, 2, 7, 63, 64, 65, 127, 128, 200):
        for start in starts:
            stream = np.array([start], np.int64)
            plain = np.array([start], np.int64)
            want, left = 0, flips
            while left > 0:
                bits = int(next_u64(plain, 0))
                want += bin(bits >> (64 - min(left, 64))).count("1")
                left -= 64
            assert heads(stream, 0, flips) == want, (flips, start)
            assert stream[0] == plain[0], (flips, start)  # ceil(flips / 64) draws, no more


def _argmax_drawn(values, stream):
    """The law ``pick_best`` keeps, in three plain passes: the best by ``max``
    (a value replaces it only when greater), how many equal it, the k-th of them
    for a draw ``below(ties)`` taken only when they are several."""
    best = values[0]
    for value in values[1:]:
        best = value if value > best else best
    ties = sum(value == best for value in values)
    k = below(stream, 0, ties) if ties > 1 else 0
    pick = 0
    for i, value in enumerate(values):
        if value == best:
            if k == 0:
                pick = i
            k -= 1
    return pick, best


def test_pick_best_is_the_argmax_with_ties_drawn():
    """Every tuple of up to four values from a set with ties, signed zeros,
    infinities and NaN (NaN equals nothing, not even itself; a first NaN stays
    the max as ``max`` keeps it), read from an offset, from two stream starts:
    the same option, the same best (bit for bit) and the stream left where the
    three-pass law leaves it (a draw only for a tie)."""
    values = (-np.inf, -1.0, -0.0, 0.0, 1.0, 2.0, np.inf, np.nan)
    drawn = 0
    for n in range(1, 5):
        for combo in itertools.product(values, repeat=n):
            buf = np.array((7.5,) + combo)  # read from offset 1
            for start in (3, -2**62 + 11):
                fast = np.array([start], np.int64)
                plain = np.array([start], np.int64)
                got, best = pick_best(buf, 1, n, fast, 0)
                want, want_best = _argmax_drawn(combo, plain)
                assert got == want and fast[0] == plain[0], (combo, start)
                assert np.float64(best).tobytes() == np.float64(want_best).tobytes(), combo
                drawn += fast[0] != start
    assert drawn > 1000  # ties were drawn
