"""A Mafia family bot: claims free spaces away from the State.

Every use of the roll is scored by what its pieces find where they end: a
free space is worth most (a marker), another family's space less (one of its
markers comes off first), a space of its own little; a Boss on a telephone
draws a USA card. From that it takes what the space's trap, the Prefect and
the CCs there may cost, times its parameter ``caution``. It never starts a
shootout, forbids and resists whenever it may, and plays every card it is
offered. Its fast twin is mafia-squatter-fast.py (the same code with @njit).
"""
from analyzer.engine.bots import UserBot
from analyzer.games.mafia.view import *


def danger(view, space):
    """How much a mafioso ending on ``space`` risks: the trap, the Prefect, each CC."""
    risk = trigger_chance(view, space)
    for piece in range(PREFECT, PREFECT + 5):
        if piece != SISDE and location(view, piece) == space:
            risk += 1.0 if piece == PREFECT else 0.5
    return risk


def worth(view, piece, space):
    """What the family gains from its ``piece`` ending on ``space``."""
    family = side(view)
    gain = 0.0
    if space_type(view, space) != CITY_SPACE:
        holder = controller(view, space)
        if holder == -1:
            gain = 1.0
        elif holder == family:
            gain = 0.2
        else:
            gain = 0.6
    if is_boss(piece) == 1 and space_type(view, space) == TELEPHONE_SPACE:
        gain += 0.3
    return gain - param(view, 0) * danger(view, space)


def hurt(view, space):
    """A State piece ending on ``space`` (four players: the family moves it): the
    other families' markers and mafiosi there count for it, its own against it."""
    family = side(view)
    value = 0.0
    holder = controller(view, space)
    if holder >= 0:
        value += -1.0 if holder == family else 1.0
    for piece in range(12):
        if location(view, piece) == space:
            value += -1.0 if owner(piece) == family else 0.5
    return value


def decide(view):
    what = decision(view)
    if what == DECIDE_MOVE or what == DECIDE_STATE_MOVE:
        best = 0
        best_value = -1e9
        for i in range(n_options(view)):
            value = 0.0
            for k in range(2):
                piece = move_piece(view, i, k)
                if piece >= 0:
                    if what == DECIDE_MOVE:
                        value += worth(view, piece, move_to(view, i, k))
                    else:
                        value += hurt(view, move_to(view, i, k))
            if value > best_value:
                best = i
                best_value = value
        return best
    if what == DECIDE_SHOOT:
        return 0
    if what == DECIDE_FORBID or what == DECIDE_RESIST or what == DECIDE_CARD:
        return 1
    if what == DECIDE_ARREST or what == DECIDE_HOLD:  # four players: the State's decisions
        return 1
    return 0  # base city, card to give up, space to visit: the first option


BOT = UserBot("squatter", decide, game="mafia", roles=("family",),
              params={"caution": (1.0, "weight of what a piece risks where it ends (trap, Prefect, CCs)")},
              description="family: claims free spaces away from the State, never shoots")
