"""A Mafia State bot: hunts purge points, and markers of the family ahead.

Every use of the roll is scored by what its pieces can do where they end: a
Picciotto there can be arrested (1/2 purge point), a Boss outside its base
city held (1 point); the SISDE draws a clue per mafioso; a marker taken off
is worth the parameter ``markers``, twice that if it is the leading family's.
From that it takes what the space's trap may cost (the Prefect counts three
times). It arrests and holds whenever it may, plays every card but Heliborne
operation, and turns the leading family's fullest space into a roadblock.
Its fast twin is mafia-purger-fast.py (the same code with @njit).
"""
from analyzer.engine.bots import UserBot
from analyzer.games.mafia.view import *


def leader(view):
    """The family controlling most spaces (-1 while none controls any)."""
    best = -1
    most = 0
    for family in range(4):
        if controls(view, family) > most:
            best = family
            most = controls(view, family)
    return best


def worth(view, piece, space, lead):
    """What the State gains from its ``piece`` ending on ``space``."""
    value = 0.0
    for mafioso in range(12):
        if location(view, mafioso) == space:
            if piece == SISDE:
                value += 0.5  # a clue
            elif is_boss(mafioso) == 0:
                value += 1.0
            elif space != base(view, owner(mafioso)):
                value += 2.0
    holder = controller(view, space)
    if holder >= 0 and piece != SISDE:
        value += param(view, 0) * (2.0 if holder == lead else 1.0)
    trap = space_type(view, space)
    if trap == AMBUSH_SPACE or trap == RESTAURANT_SPACE or (piece == PREFECT and trap == BOMB_SPACE):
        value -= trigger_chance(view, space) * (3.0 if piece == PREFECT else 1.0)
    return value


def decide(view):
    what = decision(view)
    if what == DECIDE_MOVE:
        lead = leader(view)
        best = 0
        best_value = -1e9
        for i in range(n_options(view)):
            value = 0.0
            for k in range(2):
                piece = move_piece(view, i, k)
                if piece >= 0:
                    value += worth(view, piece, move_to(view, i, k), lead)
            if value > best_value:
                best = i
                best_value = value
        return best
    if what == DECIDE_CARD:
        return 0 if ask_card(view) == HELIBORNE_OPERATION else 1
    if what == DECIDE_ANTI_MAFIA_SPACE:
        lead = max(leader(view), 0)
        best = 0
        for i in range(n_options(view)):
            if markers(view, options(view, i), lead) > markers(view, options(view, best), lead):
                best = i
        return best
    if what == DECIDE_ARREST or what == DECIDE_HOLD:
        return 1
    return 0  # a card to give up: the first


BOT = UserBot("purger", decide, game="mafia", roles=("state",),
              params={"markers": (0.5, "value of taking a marker off (twice that for the leading family's)")},
              description="State: hunts purge points and the leading family's markers")
