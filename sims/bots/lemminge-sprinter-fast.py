"""Lemminge, "sprinter": play the card that moves furthest, walk the lemming
nearer the finish by the steps that bring it nearest (the cheaper of equal
ones), refill for bigger cards when no card moves `refill_below` hexes, and
lay a bonus tile on the hex that opens the leader's way. The fast version of
lemminge-sprinter.py: the same code with @njit on decide and its helpers
(the bot API: docs/bots-lemminge.md).

    analyzer simulate lemminge --bots sims/bots/lemminge-sprinter-fast.py,random,random,random --games 200
    analyzer compare lemminge --bot sims/bots/lemminge-sprinter-fast.py --vs racer --games 200
"""
from numba import njit

from analyzer.engine.bots import UserBot
from analyzer.games.lemminge.view import (
    DECIDE_ACTION, allows_step, DECIDE_DISCARD, DECIDE_LEMMING, DECIDE_TILE, LEMMINGS, MEADOW, can_enter,
    decision, distance, finish_distance, hand_limit, hand_size, movement, moving, n_options, neighbour, options, param,
    played_terrain, position, seat, step_cost, terrain, tile_kind,
)


@njit
def leader(view):
    """Its lemming nearer the finish and still on the way (-1: both home)."""
    best = -1
    for k in range(LEMMINGS):
        lem = seat(view) * LEMMINGS + k
        if distance(view, lem) > 0 and (best < 0 or distance(view, lem) < distance(view, best)):
            best = lem
    return best


@njit
def decide(view):
    what = decision(view)
    if what == DECIDE_ACTION:
        best, best_move = -1, 0
        for i in range(n_options(view)):
            m = movement(view, options(view, i))
            if allows_step(view, i) and m > best_move:  # a card that lets a lemming step
                best, best_move = i, m
        if best_move < param(view, 0) and hand_size(view) < hand_limit(view):
            return -1  # refill: hope for bigger cards
        return best if best >= 0 else 0  # no card lets one step: play one all the same
    if what == DECIDE_DISCARD:  # keep the cards that move far now
        mask = 0
        for i in range(n_options(view)):
            if movement(view, options(view, i)) < param(view, 0):
                mask |= 1 << i
        return mask
    if what == DECIDE_TILE:
        ground = tile_kind(view)  # the hex's terrain with the tile (kind 5, meadow, is terrain MEADOW)
        opens = ground == MEADOW or ground == played_terrain(view)  # enterable by this move
        lem = leader(view)
        pos = -1 if lem < 0 else position(view, lem)
        neutral = 0
        for i in range(n_options(view)):
            cell = options(view, i)
            if terrain(view, cell) == ground:
                neutral = i  # the tile changes nothing here
            elif opens and pos >= 0 and can_enter(view, cell, played_terrain(view)) == 0 \
                    and finish_distance(view, cell) < finish_distance(view, pos):
                for d in range(6):
                    if neighbour(view, pos, d) == cell:
                        return i  # a closed hex ahead of its leader, opened for this move
        return neutral
    if what == DECIDE_LEMMING:
        best = 0
        for i in range(1, n_options(view)):
            if distance(view, options(view, i)) < distance(view, options(view, best)):
                best = i
        return best
    # DECIDE_STEP: the step nearest the finish, the cheaper of equal ones; stop when none gets nearer
    best, best_dist, best_cost = -1, distance(view, moving(view)), 0
    for i in range(n_options(view)):
        d = finish_distance(view, options(view, i))
        cost = step_cost(view, i)
        if d < best_dist or (d == best_dist and best >= 0 and cost < best_cost):
            best, best_dist, best_cost = i, d, cost
    return best


BOT = UserBot(
    "sprinter-fast", decide, game="lemminge", roles=("player",),
    params={"refill_below": (4.0, "refills (keeping the cards that move this far) when no card moves this far")},
    description="plays the card that moves furthest and walks its leading lemming nearest the finish",
)
