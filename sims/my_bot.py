"""An example user bot for Lemming Mafia in the older, raw form: the "underdog".
The same bot over the view (plain Python, or fast with @njit) is
sims/bots/lemming-mafia-underdog.py; write new bots that way
(docs/bots-lemming-mafia.md). This form still loads.

Run it with:  analyzer simulate lemming-mafia --bots sims/my_bot.py,random,random,random
or with a parameter: --bots sims/my_bot.py:bet_chance=0.8,random,random,random

A bot file defines ``BOT = UserBot(...)`` around a numba ``@njit`` function with
the decision signature documented in analyzer/games/lemming_mafia/bots.py:

    decide(what, seat, kind, game, state, params, n_options) -> int

``state`` holds only what this player may see: the public race at ``PUB_*``, its
own cards at ``S_VIEW + OWN_*``, field occupants at ``S_OCCUPANT + field`` and the
options of this decision at ``S_OPTIONS + i``. ``params[i]`` is the i-th
parameter declared below. Nothing in the engine needs editing. The function runs
inside the jitted core, which has no memory allocator: it may not create arrays
(keep numbers in locals, or in ``params[10:]``, scratch that is this bot's own).
"""
from numba import njit

from analyzer.games.lemming_mafia.layout import (
    CONCRETE, DECIDE_BET, DECIDE_DISCARD, DECIDE_FIELD, DECIDE_MOVE, JACKHAMMER,
    N_LEMMINGS, OWN_HAND, PUB_BLOCKS, PUB_MOVING, PUB_POS, S_OPTIONS, S_VIEW,
)
from analyzer.engine.bots import UserBot
from analyzer.games.lemming_mafia.rules import bot_uniform, field_action


@njit(nogil=True)
def decide(what, seat, kind, game, state, params, n_options):
    if what == DECIDE_MOVE:
        # push the candidate furthest behind: underdogs catch up
        best, best_pos = 0, 1 << 30
        for i in range(n_options):
            pos = state[PUB_POS + state[S_OPTIONS + i]]
            if pos < best_pos:
                best, best_pos = i, pos
        return best
    if what == DECIDE_FIELD:
        # keep it off concrete, and take a jackhammer when it carries a block
        lemming = state[PUB_MOVING]
        best, best_score = 0, -10
        for i in range(n_options):
            action = field_action(game, state[S_OPTIONS + i])
            score = 0
            if action == CONCRETE:
                score = -2
            elif action == JACKHAMMER and state[PUB_BLOCKS + lemming] > 0:
                score = 1
            if score > best_score:
                best, best_score = i, score
        return best
    if what == DECIDE_BET:
        # with probability bet_chance, bet the colour in hand furthest behind
        # a bot draws from its own stream, never the dice's
        if bot_uniform(state) >= params[0]:
            return -1
        pick, pick_pos = -1, 1 << 30
        for color in range(N_LEMMINGS):
            if state[S_VIEW + OWN_HAND + color] == 1 and state[PUB_POS + color] < pick_pos:
                pick, pick_pos = color, state[PUB_POS + color]
        return pick
    return -1  # DECIDE_DISCARD: keeps every contract


BOT = UserBot(
    name="underdog",
    decide=decide,
    description="pushes the lemming furthest behind and bets on it",
    params={"bet_chance": (0.5, "chance to bet at each bookmaker")},
)
