"""The reference random bot of the rules page, jitted. Every simulator of these
rules ships it exactly as written: statistical cross-checks rely on it."""
from analyzer.engine.jit import kernel
from analyzer.engine.rng import below
from analyzer.games.lemming_mafia.layout import (
    DECIDE_BET, DECIDE_FIELD, DECIDE_MOVE, N_CONTRACTS_EACH, N_LEMMINGS, OWN_HELD,
    OWN_HAND, OWN_RNG,
)


@kernel(inline=True)
def decide_random(what, cards, at, state, n_options):
    """The reference random bot, exactly as the rules page defines it. Its own row,
    its random stream included, is ``cards[at:]`` (the kernel passes the hidden
    array itself: no copy)."""
    if what == DECIDE_MOVE or what == DECIDE_FIELD:
        return below(cards, at + OWN_RNG, n_options)
    if what == DECIDE_BET:
        n_hand = 0
        for color in range(N_LEMMINGS):
            n_hand += cards[at + OWN_HAND + color]
        if n_hand == 0 or below(cards, at + OWN_RNG, 2) == 0:
            return -1
        k = below(cards, at + OWN_RNG, n_hand)
        for color in range(N_LEMMINGS):
            if cards[at + OWN_HAND + color] == 1:
                if k == 0:
                    return color
                k -= 1
        return -1
    n_held = 0
    for slot in range(N_CONTRACTS_EACH):
        n_held += cards[at + OWN_HELD + slot]
    if n_held == 0 or below(cards, at + OWN_RNG, 2) == 0:
        return -1
    k = below(cards, at + OWN_RNG, n_held)
    for slot in range(N_CONTRACTS_EACH):
        if cards[at + OWN_HELD + slot] == 1:
            if k == 0:
                return slot
            k -= 1
    return -1


