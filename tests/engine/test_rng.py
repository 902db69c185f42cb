"""``rng.below_if_choice`` draws what ``0 if n == 1 else below(n)`` draws, and
leaves the stream where that leaves it, including Lemire's rejections (common
for bounds just above 2**31, where about half the draws are rejected)."""
import numpy as np

from analyzer.engine.rng import below, below_if_choice


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
