"""The reference random bot of the rules page, jitted. Every simulator of these
rules ships it exactly as written: statistical cross-checks rely on it."""
from analyzer.engine.jit import ix, kernel
from analyzer.engine.rng import below
from analyzer.games.lemming_mafia.layout import (
    DECIDE_BET, DECIDE_FIELD, DECIDE_MOVE, MAX_CONTRACTS_EACH, N_LEMMINGS, OWN_HELD,
    OWN_HAND, OWN_RNG, PUB_HAND_COUNT, PUB_HELD_COUNT,
)


@kernel(inline=True)
def decide_random(what, cards, at, state, n_options):
    """The reference random bot, exactly as the rules page defines it. Its own row,
    its random stream included, is ``cards[at:]`` (the kernel passes the hidden
    array itself: no copy). Its contract slots past the dealt ones are never
    held, so all ``MAX_CONTRACTS_EACH`` are counted. With more than one card
    allowed at a bookmaker (boss), it is asked again after each card it puts
    down (throws away): each answer is the rules page's, and a pass ends its
    part of the round (``layout.NOT_ASKED``)."""
    if what == DECIDE_MOVE or what == DECIDE_FIELD:
        return below(cards, at + OWN_RNG, n_options)
    n_hand = 0
    for color in range(N_LEMMINGS):
        n_hand += cards[ix(at + OWN_HAND + color)]
    n_held = 0
    for slot in range(MAX_CONTRACTS_EACH):
        n_held += cards[ix(at + OWN_HELD + slot)]
    return _answer(what, cards, at, n_options, n_hand, n_held)


@kernel(inline=True)
def decide_random_seated(what, cards, at, state, n_options, seat):
    """``decide_random`` for the player in ``seat``, its cards counted from the
    public counts in ``state`` (one load each instead of a sum over its row)."""
    return _answer(what, cards, at, n_options, state[ix(PUB_HAND_COUNT + seat)],
                   state[ix(PUB_HELD_COUNT + seat)])


@kernel(inline=True)
def _answer(what, cards, at, n_options, n_hand, n_held):
    if what == DECIDE_MOVE or what == DECIDE_FIELD:
        return below(cards, at + OWN_RNG, n_options)
    if what == DECIDE_BET:
        if n_hand == 0:
            return -1
        # one draw decides both: a pass for half its values, else which card
        return nth_held(cards, at + OWN_HAND, N_LEMMINGS,
                        below(cards, at + OWN_RNG, 2 * n_hand))
    if n_held == 0:
        return -1
    return nth_held(cards, at + OWN_HELD, MAX_CONTRACTS_EACH,
                    below(cards, at + OWN_RNG, 2 * n_held))


@kernel(inline=True)
def nth_held(flags, at, n, k):
    """Index of the k-th (from 0) of the n 0/1 ``flags[at:]`` that is 1, or -1 if
    fewer are. Written without branches: the answers are coin flips, which a
    branch predictor gets wrong half the time."""
    answer = -1
    for i in range(n):
        has = flags[ix(at + i)]
        answer = i if (k == 0) & (has == 1) else answer
        k -= has
    return answer
