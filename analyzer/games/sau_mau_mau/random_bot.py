"""The reference random bot of the rules page, jitted. Every simulator of these
rules ships it exactly as written: statistical cross-checks rely on it."""
from analyzer.engine.jit import kernel
from analyzer.engine.rng import below
from analyzer.games.sau_mau_mau.layout import (
    DECIDE_BET, DECIDE_COLOR, DECIDE_PLAY, N_PIGS, OWN_BET_PIG, OWN_RNG,
)


@kernel(inline=True)
def decide_random(what, cards, at, state, n_options):
    """The reference random bot. Its own row, random stream included, is
    ``cards[at:]`` (the kernel passes the hidden array itself: no copy).

    - play: with a valid card, play a uniformly chosen one with probability 3/4,
      else draw; without one, draw;
    - Farmer colour, Flapi tie, each penalty step back: uniform over the options
      (the kernel offers only pigs off the start space as steps);
    - bet: without a bet in the queue, bet on a uniform pig with probability 1/2;
      with one, change it to a uniform other pig with probability 1/10.
    """
    rng = at + OWN_RNG
    if what == DECIDE_PLAY:
        if n_options > 0 and below(cards, rng, 4) < 3:
            return below(cards, rng, n_options)
        return -1
    if what == DECIDE_COLOR:
        return below(cards, rng, N_PIGS)
    if what == DECIDE_BET:
        bet = cards[at + OWN_BET_PIG]
        if bet < 0:
            if below(cards, rng, 2) == 0:
                return below(cards, rng, N_PIGS)
            return -1
        if below(cards, rng, 10) == 0:
            other = below(cards, rng, N_PIGS - 1)
            return other + 1 if other >= bet else other
        return -1
    # DECIDE_FLAPI, DECIDE_STEP
    return below(cards, rng, n_options)
