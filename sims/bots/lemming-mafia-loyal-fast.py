"""Lemming Mafia, "loyal": at its first bookmaker it backs the leading lemming
it holds a card of, and from then on it remembers that lemming (the bot's
memory, cleared every race): pushes it, keeps it off concrete, puts rivals on
concrete. The fast version of lemming-mafia-loyal.py: the same code with
@njit on decide (the bot API: docs/bots-lemming-mafia.md).

    analyzer simulate lemming-mafia --bots sims/bots/lemming-mafia-loyal-fast.py,random,random,random --races 2000
"""
from numba import njit

from analyzer.engine.bots import UserBot
from analyzer.games.lemming_mafia.view import (
    CONCRETE, DECIDE_BET, DECIDE_FIELD, DECIDE_MOVE, JACKHAMMER, action, blocks, decision, hand,
    memory, moving, n_options, options, out, position, remember,
)


@njit
def decide(view):
    backed = int(memory(view, 0)) - 1  # memory starts at 0: no lemming backed yet
    if decision(view) == DECIDE_BET:
        if backed >= 0:
            return -1  # one bet, on its lemming
        pick, best = -1, -10
        for color in range(6):
            if hand(view, color) == 1 and out(view, color) == 0 and position(view, color) > best:
                pick, best = color, position(view, color)
        if pick >= 0:
            remember(view, 0, pick + 1)
        return pick
    if decision(view) == DECIDE_MOVE:
        # its own lemming if it can; else the rival furthest behind (the least harm)
        best, best_pos = 0, 1 << 30
        for i in range(n_options(view)):
            lemming = options(view, i)
            if lemming == backed:
                return i
            if position(view, lemming) < best_pos:
                best, best_pos = i, position(view, lemming)
        return best
    if decision(view) == DECIDE_FIELD:
        friend = moving(view) == backed
        best, best_score = 0, -10
        for i in range(n_options(view)):
            kind = action(view, options(view, i))
            score = 0
            if kind == CONCRETE:
                score = -2 if friend else 2
            elif kind == JACKHAMMER and blocks(view, moving(view)) > 0:
                score = 1 if friend else -1
            if score > best_score:
                best, best_score = i, score
        return best
    return -1  # discard: keep every contract


BOT = UserBot(
    "loyal-fast", decide, game="lemming-mafia", roles=("player",),
    description="backs the leader at its first bookmaker and stays loyal to it all race",
)
