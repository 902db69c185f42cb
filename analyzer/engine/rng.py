"""Counter-based random streams, one per (seed, game index).

A game's stream is SplitMix64 started at a key mixed from the seed and the game
index. The n-th draw of a game is a pure function of (seed, index, n), so results
do not depend on threads, chunk sizes or the order games are played in.

The stream's state is one slot ``at`` of an int64 array the caller owns (the
game's state array), holding the uint64 bits, so jitted code advances it in place
without any global generator and without an extra array argument.
"""
import numpy as np
from analyzer.engine.jit import ix, kernel

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_STREAM_SALT = np.uint64(0xD1B54A32D192ED03)
# the bit count of ``heads`` (SWAR; LLVM turns it into one popcnt)
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S4 = np.uint64(4)
_S56 = np.uint64(56)
_BITS_01 = np.uint64(0x5555555555555555)
_BITS_0011 = np.uint64(0x3333333333333333)
_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)
_BYTES_1 = np.uint64(0x0101010101010101)


@kernel(inline=True)
def mix64(z):
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@kernel
def seed_stream(buf, at, seed, index, lane=0):
    """Point slot ``at`` at the start of stream ``lane`` of game ``index`` under
    ``seed``. Lanes separate what must not share draws (the dice from each
    player's own choices), so that two bots compared in the same seat see the
    same dice and deals (common random numbers)."""
    seed_keyed(buf, at, lane_key(seed, lane), index_key(index))


# seed_stream in parts, for a kernel that seeds several lanes of many games: the
# lane's key depends on (seed, lane) only and the game's on the index only, so
# a block of games computes each lane's key once and each game's once (one
# mix64 a stream instead of four); the same starts as seed_stream.

@kernel(inline=True)
def lane_key(seed, lane):
    """The part of a stream's start that depends on (seed, lane) only."""
    return mix64(np.uint64(seed) + _STREAM_SALT) ^ mix64((np.uint64(lane) + np.uint64(1)) * _STREAM_SALT)


@kernel(inline=True)
def index_key(index):
    """The part of a stream's start that depends on the game index only."""
    return mix64(np.uint64(index) * _GAMMA + _GAMMA)


@kernel(inline=True)
def seed_keyed(buf, at, lane, item):
    """``seed_stream`` from ``lane_key(seed, lane)`` and ``index_key(index)``."""
    buf[at] = np.int64(mix64(lane ^ item))


@kernel(inline=True)
def next_u64(buf, at):
    slot = ix(at)  # on the latency chain of every draw (see jit.ix)
    counter = np.uint64(buf[slot]) + _GAMMA
    buf[slot] = np.int64(counter)
    return mix64(counter)


@kernel(inline=True)
def below(buf, at, n):
    """Uniform integer in [0, n) for 0 < n < 2**32, without modulo bias (Lemire)."""
    bound = np.uint64(n)
    while True:
        product = (next_u64(buf, at) >> _S32) * bound
        low = product & _LOW32
        if low >= bound:
            return np.int64(product >> _S32)
        # rare slow path: reject the few values that would bias the result
        threshold = (np.uint64(0x100000000) - bound) % bound
        if low >= threshold:
            return np.int64(product >> _S32)


@kernel(inline=True)
def shuffle(items, first, n, buf, at):
    """Fisher-Yates over ``items[first:first+n]``, drawing from the stream at
    ``buf[at]`` (``items`` may be ``buf`` itself): a deck's shuffle, or a search
    bot's deal of the cards its seat cannot see."""
    for i in range(n - 1, 0, -1):
        j = below(buf, at, i + 1)
        a = items[ix(first + i)]
        items[ix(first + i)] = items[ix(first + j)]
        items[ix(first + j)] = a


@kernel(inline=True)
def below_if_choice(buf, at, n):
    """``below(n)`` for ``n > 1``; 0 for ``n == 1``, drawing nothing: a bot's
    pick among its options, where one option is no choice. The same draws as
    ``0 if n == 1 else below(buf, at, n)``, without that branch: the stream
    advances by ``n > 1`` draws, whose value is computed either way. Where the
    options are one or several at random (a random bot's moves), the branch is
    mispredicted often."""
    take = n > 1
    slot = ix(at)
    old = np.uint64(buf[slot])
    counter = old + _GAMMA
    buf[slot] = np.int64(old + _GAMMA * np.uint64(take))
    bound = np.uint64(n)
    product = (mix64(counter) >> _S32) * bound
    # maybe Lemire's rare rejection (below's own, from the same counter), only
    # with a choice: one comparison, never taken without one (bit 32 set), as
    # ``take & (low < bound)`` was compiled to two branches, the first on ``take``
    if ((product & _LOW32) | (np.uint64(n <= 1) << _S32)) < bound:
        buf[slot] = np.int64(old)
        return below(buf, at, n)
    return np.int64(product >> _S32)


@kernel(inline=True)
def prefer(value, best, ties, buf, at):
    """Whether an option worth ``value`` replaces the best so far, exact ties
    broken uniformly at random (reservoir sampling, drawing from the stream at
    ``buf[at]``) so that no option is favoured by its index. Returns (take, ties
    among the best so far)."""
    if value > best:
        return True, 1
    if value == best:
        ties += 1
        return below(buf, at, ties) == 0, ties
    return False, ties


@kernel(inline=True)
def pick_best(values, first, n, buf, at):
    """Index (0 .. n-1) and value of the largest of ``values[first:first+n]``, exact
    ties broken uniformly at random with one draw from the stream at ``buf[at]``
    (none without a tie). The law of ``prefer``, without its branch on every
    option: in an argmax over options whose order is noise to the branch
    predictor, that branch is mispredicted about once a loop.

    One pass finds the best, the last option that raised it and how many equal
    it since: a value equal to the final best cannot come before the option
    that raised the best to it, so these are all its ties, and without a tie
    that option is the answer. Only a tie takes a second pass, for the k-th of
    the tied options. A NaN compares false with everything, as in ``max``: one
    after the first option is never the best nor a tie; a NaN first stays the
    best, with no tie."""
    best = values[ix(first)]
    pick = 0
    ties = 1
    for i in range(1, n):
        value = values[ix(first + i)]
        above = value > best
        ties = 1 if above else ties + (value == best)
        pick = i if above else pick
        best = value if above else best
    if ties > 1:
        k = below(buf, at, ties)
        for i in range(n):  # the k-th of the tied options
            tied = values[ix(first + i)] == best
            pick = i if tied & (k == 0) else pick
            k -= tied
    return pick, best


@kernel(inline=True)
def uniform(buf, at):
    """Uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(buf, at) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel(inline=True)
def heads(buf, at, flips):
    """How many of ``flips`` fair coins fall heads (a binomial(flips, 1/2)
    draw): the set bits among ``flips`` bits of 64-bit draws from the stream at
    ``buf[at]``, counted in parallel (LLVM emits one popcnt)."""
    n = 0
    while flips > 0:
        word = next_u64(buf, at)
        if flips < 64:
            word >>= np.uint64(64 - flips)
        word = word - ((word >> _S1) & _BITS_01)
        word = (word & _BITS_0011) + ((word >> _S2) & _BITS_0011)
        word = (word + (word >> _S4)) & _NIBBLES
        n += np.int64((word * _BYTES_1) >> _S56)
        flips -= 64
    return n
