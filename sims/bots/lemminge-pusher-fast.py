"""Lemminge, "pusher": walk into rivals. A step is worth the hexes it brings
its lemming nearer the finish plus `push` for every hex it pushes a rival's
lemming back (minus as much for its own); it walks while a step is worth
something. It plays the card that moves furthest, walks the lemming that can
push a rival (else the one behind) and lays a bonus tile where it changes
nothing. The fast version of lemminge-pusher.py: the same code with @njit
on decide and its helpers (the bot API: docs/bots-lemminge.md).

    analyzer simulate lemminge --bots sims/bots/lemminge-pusher-fast.py,random,random,random --games 200
    analyzer compare lemminge --bot sims/bots/lemminge-pusher-fast.py --vs blocker --games 200
"""
from numba import njit

from analyzer.engine.bots import UserBot
from analyzer.games.lemminge.view import (
    DECIDE_ACTION, allows_step, DECIDE_DISCARD, DECIDE_LEMMING, DECIDE_TILE, LEMMINGS, decision, distance,
    finish_distance, hand_limit, hand_size, movement, moving, n_options, neighbour, occupant, options, param, position,
    seat, step_direction, step_pushes, terrain, tile_kind,
)


@njit
def push_gain(view, i):
    """Hexes step option i pushes rivals' lemmings back, less its own (pushed on: negative)."""
    gain = 0
    cell = options(view, i)
    d = step_direction(view, i)
    for k in range(step_pushes(view, i)):  # the line in front
        ahead = neighbour(view, cell, d)
        change = finish_distance(view, ahead) - finish_distance(view, cell)
        if occupant(view, cell) // LEMMINGS == seat(view):
            gain -= change
        else:
            gain += change
        cell = ahead
    return gain


@njit
def rival_next_to(view, lemming):
    """1 if a rival's lemming stands next to this lemming on the map."""
    pos = position(view, lemming)
    if pos < 0:
        return 0
    for d in range(6):
        cell = neighbour(view, pos, d)
        if cell >= 0 and occupant(view, cell) >= 0 and occupant(view, cell) // LEMMINGS != seat(view):
            return 1
    return 0


@njit
def decide(view):
    what = decision(view)
    if what == DECIDE_ACTION:
        best, best_move = -1, 0
        for i in range(n_options(view)):
            m = movement(view, options(view, i))
            if allows_step(view, i) and m > best_move:  # a card that lets a lemming step
                best, best_move = i, m
        if best_move < 3 and hand_size(view) < hand_limit(view):
            return -1
        return best if best >= 0 else 0  # no card lets one step: play one all the same
    if what == DECIDE_DISCARD:
        mask = 0
        for i in range(n_options(view)):
            if movement(view, options(view, i)) < 3:
                mask |= 1 << i
        return mask
    if what == DECIDE_TILE:
        for i in range(n_options(view)):
            if terrain(view, options(view, i)) == tile_kind(view):
                return i  # the tile changes nothing here (kind 5, meadow, is terrain MEADOW)
        return 0
    if what == DECIDE_LEMMING:
        best = 0
        for i in range(n_options(view)):
            if rival_next_to(view, options(view, i)) == 1:
                return i
            if distance(view, options(view, i)) > distance(view, options(view, best)):
                best = i
        return best
    # DECIDE_STEP
    here = distance(view, moving(view))
    best, best_value = -1, 0.0
    for i in range(n_options(view)):
        value = (here - finish_distance(view, options(view, i))) + param(view, 0) * push_gain(view, i)
        if value > best_value:
            best, best_value = i, value
    return best


BOT = UserBot(
    "pusher-fast", decide, game="lemminge", roles=("player",),
    params={"push": (1.0, "worth of each hex a push sets a rival's lemming back, beside each hex its own gains")},
    description="walks into rivals: values a step by the hexes it gains plus the hexes it pushes rivals back",
)
