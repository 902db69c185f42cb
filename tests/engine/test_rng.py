"""``rng.below_if_choice`` draws what ``0 if n == 1 else below(n)`` draws, and
leaves the stream where that leaves it, including Lemire's rejections (common
for bounds just above 2**31, where about half the draws are rejected).
``rng.heads`` counts the heads among the leading bits of its draws."""
import numpy as np

from analyzer.engine.rng import below, below_if_choice, heads, next_u64


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
