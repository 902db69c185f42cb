"""Lemming Mafia, "underdog": push the lemming furthest behind, keep it off
concrete, bet on it. A plain-Python bot; lemming-mafia-underdog-fast.py is the
same code with @njit (the bot API: docs/bots-lemming-mafia.md).

    analyzer simulate lemming-mafia --bots sims/bots/lemming-mafia-underdog.py,random,random,random --races 2000
    analyzer compare lemming-mafia --bot sims/bots/lemming-mafia-underdog.py --vs random --races 2000
"""
from analyzer.engine.bots import UserBot
from analyzer.games.lemming_mafia.view import (
    CONCRETE, DECIDE_BET, DECIDE_FIELD, DECIDE_MOVE, JACKHAMMER, action, blocks, decision, hand,
    moving, n_options, options, param, position, uniform,
)


def decide(view):
    if decision(view) == DECIDE_MOVE:
        # push the candidate furthest behind: underdogs catch up
        best = 0
        for i in range(n_options(view)):
            if position(view, options(view, i)) < position(view, options(view, best)):
                best = i
        return best
    if decision(view) == DECIDE_FIELD:
        # keep it off concrete; a jackhammer frees it of a block
        best, best_score = 0, -10
        for i in range(n_options(view)):
            kind = action(view, options(view, i))
            score = 0
            if kind == CONCRETE:
                score = -2
            elif kind == JACKHAMMER and blocks(view, moving(view)) > 0:
                score = 1
            if score > best_score:
                best, best_score = i, score
        return best
    if decision(view) == DECIDE_BET:
        # with probability bet_chance, bet the colour in hand furthest behind
        if uniform(view) >= param(view, 0):
            return -1
        pick, pick_pos = -1, 1 << 30
        for color in range(6):
            if hand(view, color) == 1 and position(view, color) < pick_pos:
                pick, pick_pos = color, position(view, color)
        return pick
    return -1  # discard: keep every contract


BOT = UserBot(
    "underdog", decide, game="lemming-mafia", roles=("player",),
    params={"bet_chance": (0.5, "chance to bet at each bookmaker")},
    description="pushes the lemming furthest behind and bets on it",
)
