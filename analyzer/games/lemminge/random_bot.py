"""The reference random bot of the rules page, jitted. Every simulator of these
rules ships it exactly as written: the statistical cross-check relies on it."""
from analyzer.engine.jit import ix, kernel
from analyzer.engine.rng import below
from analyzer.games.lemminge.layout import (
    DECIDE_ACTION, DECIDE_DISCARD, DECIDE_STEP, OPT_DIST, OPT_WIDTH, OWN_HAND_N, OWN_RNG,
    PUB_CUR_DIST, S_OPTIONS,
)


@kernel(inline=True)
def refills_anyway(hidden, at):
    """The random bot's first draw of a turn: it refills with probability 1/5
    whatever its cards. Drawn before the kernel lists the cards that allow a
    step, which a refill does not need (the same law as drawing it after)."""
    return below(hidden, at + OWN_RNG, 5) == 0


@kernel(inline=True)
def decide_random(what, hidden, at, state, n_options):
    """The reference random bot. Its own row, random stream included, is
    ``hidden[at:]`` (the kernel passes the hidden array itself: no copy).

    - action: refill with probability 1/5 (``refills_anyway``), and whenever no
      card allows a step; otherwise a uniform card among those that allow a
      step (the options);
    - discard (refilling): each card with probability 1/2, independently;
    - tile, lemming: uniform over the options (every tile hex; the lemmings
      that can step);
    - step: uniform among the legal steps whose target is strictly closer to
      the finish than the lemming is; stop when there is none.
    """
    rng = at + OWN_RNG
    if what == DECIDE_ACTION:  # the 1/5 refill was drawn before, by refills_anyway
        if n_options == 0:
            return -1
        return below(hidden, rng, n_options)
    if what == DECIDE_DISCARD:
        mask = 0
        for i in range(hidden[ix(at + OWN_HAND_N)]):
            mask |= below(hidden, rng, 2) << i
        return mask
    if what == DECIDE_STEP:
        here = state[PUB_CUR_DIST]
        closer = 0
        for i in range(n_options):
            closer += state[ix(S_OPTIONS + i * OPT_WIDTH + OPT_DIST)] < here
        if closer == 0:
            return -1
        k = below(hidden, rng, closer)
        for i in range(n_options):
            if state[ix(S_OPTIONS + i * OPT_WIDTH + OPT_DIST)] < here:
                if k == 0:
                    return i
                k -= 1
        return -1
    # DECIDE_TILE, DECIDE_LEMMING
    return below(hidden, rng, n_options)
