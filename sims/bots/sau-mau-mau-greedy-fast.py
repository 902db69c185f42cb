"""Sau Mau Mau, "greedy": bet on the pig ahead at once, push it with the
biggest number card of its colour, name its colour with the Farmer, step
rivals back, and change the bet when another pig leads by more than `switch_lead`
spaces. The fast version of sau-mau-mau-greedy.py: the same code with @njit
on decide and its helper (the bot API: docs/bots-sau-mau-mau.md).

    analyzer simulate sau-mau-mau --bots sims/bots/sau-mau-mau-greedy-fast.py,random,random,random --games 200
    analyzer compare sau-mau-mau --bot sims/bots/sau-mau-mau-greedy-fast.py --vs random --games 200
"""
from numba import njit

from analyzer.engine.bots import UserBot
from analyzer.games.sau_mau_mau.view import (
    DECIDE_BET, DECIDE_COLOR, DECIDE_FLAPI, DECIDE_PLAY, DECIDE_STEP, NUMBER, bet_pig, card_color,
    card_kind, card_number, decision, n_options, options, param, position,
)


@njit
def leader(view):
    """The pig furthest ahead (the first of tied ones)."""
    best = 0
    for pig in range(1, 4):
        if position(view, pig) > position(view, best):
            best = pig
    return best


@njit
def decide(view):
    mine = bet_pig(view)
    if decision(view) == DECIDE_PLAY:
        # any card beats drawing; a number card of its own pig beats all, the bigger the better
        best, best_score = -1, 0.0
        for i in range(n_options(view)):
            card = options(view, i)
            score = 2.0
            if card_kind(card) == NUMBER:
                if card_color(card) == mine:
                    score = 10.0 + card_number(card)
                else:
                    score = 1.0 + 0.1 * (6 - card_number(card))  # move a rival as little as it can
            if score > best_score:
                best, best_score = i, score
        return best
    if decision(view) == DECIDE_COLOR:
        return mine if mine >= 0 else leader(view)
    if decision(view) == DECIDE_FLAPI:
        for i in range(n_options(view)):
            if options(view, i) == mine:
                return i
        return 0
    if decision(view) == DECIDE_STEP:
        # step back the rival pig furthest ahead; never its own
        best, best_pos = -1, 0
        for i in range(n_options(view)):
            pig = options(view, i)
            if pig != mine and position(view, pig) > best_pos:
                best, best_pos = i, position(view, pig)
        return best
    # DECIDE_BET: bet at once on the pig ahead; change when another leads by more than switch_lead
    ahead = leader(view)
    if mine < 0:
        return ahead
    if ahead != mine and position(view, ahead) - position(view, mine) > param(view, 0):
        return ahead
    return -1


BOT = UserBot(
    "greedy-fast", decide, game="sau-mau-mau", roles=("player",),
    params={"switch_lead": (4.0, "spaces another pig must lead its pig by before it changes its bet")},
    description="bets on the pig ahead at once and pushes it; changes the bet when another pig pulls away",
)
