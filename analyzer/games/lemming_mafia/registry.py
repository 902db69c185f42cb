"""The Lemming Mafia bots a user can name: ids, parameters, descriptions, user
bots (Python files, loaded by engine/userbots.py from the view in view.py) and
bot TOML files (a built-in family with
its own defaults, e.g. written by `analyzer tune`)."""
from __future__ import annotations

import dataclasses

from analyzer.engine import userbots
from analyzer.engine.bots import BotFamily, BotRegistry, ParamRange, UserBot  # noqa: F401  (UserBot: for bot files)
from analyzer.games.lemming_mafia import layout as L  # the bot ids and parameter slots
from analyzer.games.lemming_mafia.layout import P_DROP, P_MOVE_ROLLOUTS, P_ROLLOUTS, P_SHARED, P_WIN_POINTS
from analyzer.games.lemming_mafia.view import VIEW

# parameters every heuristic bot shares: the race model
_MODEL = {
    "block_weight": (L.P_BLOCK_WEIGHT, 1.5, "sections of progress one concrete block is worth"),
    "sharpness": (L.P_SHARPNESS, 0.6, "how strongly the leader is expected to win (softmax scale)"),
    "elim_cost": (L.P_ELIM_COST, 6.0, "value lost when a lemming is eliminated, in sections"),
}


def _bet_timing(late_bets: float) -> dict:
    """The bet-timing parameters every heuristic bot has, with its own default."""
    return {
        "late_bets": (L.P_LATE_BETS, late_bets, "cards held back for the end of the race"),
        "urgency": (L.P_URGENCY, 3.0,
                    "the held cards go down once the leader is this many sections from the water"),
    }


# step parameters: the bots compare them with a count of cards, so only whole numbers differ
_STEPS = frozenset({"late_bets"})
# What each parameter takes. Weights and stakes are any sign, far beyond any
# sensible value; ``sharpness`` is bounded because the bots take exp(sharpness *
# progress): beyond 20 the win weights overflow on the assumed board and every
# colour looks the same.
_WEIGHT = ParamRange(-1000.0, 1000.0)
RANGES = {
    "block_weight": _WEIGHT,
    "sharpness": ParamRange(0.0, 20.0),
    "elim_cost": _WEIGHT,
    "push": _WEIGHT,
    "harm": _WEIGHT,
    "loyalty": _WEIGHT,
    "late_bets": ParamRange(0.0, 6.0),  # cards held back, of six
    "urgency": ParamRange(-1000.0, 1000.0),  # sections from the water
    "bet_stake": _WEIGHT,
    "discard_margin": _WEIGHT,
    # a count: a fraction or 0 would silently play 1, 1e19 would wrap to 0
    "rollouts": ParamRange(1.0, 4096.0, integer=True),
    "shared": ParamRange(0.0, 1.0, integer=True),
    "drop": ParamRange(0.0, 100.0),
    "move_rollouts": ParamRange(0.0, 4096.0, integer=True),
    "win_points": ParamRange(0.0, 1000.0),
}


def _with_ranges(family: BotFamily) -> BotFamily:
    return dataclasses.replace(family, ranges={k: RANGES[k] for k in family.params})


_FAMILIES = {
    "random": BotFamily(
        "random", L.RANDOM,
        "the reference random bot of the rules page: uniform moves and fields, "
        "bets and discards each with probability 1/2"),
    "favourite": BotFamily(
        "favourite", L.FAVOURITE,
        "backs the most promising lemming: pushes it, keeps it off concrete, puts "
        "rivals on concrete, throws other colours away and bets it late",
        {**_MODEL,
         "push": (L.P_PUSH, 1.0, "stake in its favourite per section it gains"),
         "harm": (L.P_HARM, 0.6, "how hard it hinders rivals likely to win"),
         "loyalty": (L.P_LOYALTY, 1.0, "bonus (sections) for a colour whose card is still to bet"),
         **_bet_timing(1.0)}, integer=_STEPS),
    "timer": BotFamily(
        "timer", L.TIMER,
        "plays for bet timing: throws unlikely colours away early, holds the likely "
        "winners and bets them as the race nears the water, moves to favour its stack",
        {**_MODEL,
         **_bet_timing(3.0),
         "bet_stake": (L.P_BET_STAKE, 1.0, "weight of bet points in its moves")}, integer=_STEPS),
    "contractor": BotFamily(
        "contractor", L.CONTRACTOR,
        "plays for its contracts: steers lemmings towards what its contracts need and "
        "discards those it is unlikely to fulfil",
        {**_MODEL,
         **_bet_timing(2.0),
         "bet_stake": (L.P_BET_STAKE, 0.5, "weight of bet points in its moves"),
         "discard_margin": (L.P_DISCARD_MARGIN, 0.0, "keeps a contract down to this expected loss in points")},
        integer=_STEPS),
    "lookahead": BotFamily(
        "lookahead", L.LOOKAHEAD,
        "strong reference: plays every option out many times (Monte Carlo rollouts with "
        "random play after it, hidden cards sampled) and takes the best; slow",
        {"rollouts": (P_ROLLOUTS, 128.0, "rollouts per option of each decision (the budget)"),
         "shared": (P_SHARED, 1.0, "1: one playout a rollout serves every bet or discard option (the "
                    "bot's own later bets drawn apart); 0: a playout per option, as before 0.2.0"),
         "drop": (P_DROP, 2.0, "shared playouts: a move option this many standard errors behind "
                  "the leader after 4, 8, 12 or 16 rollouts gets no more (0: never)"),
         "move_rollouts": (P_MOVE_ROLLOUTS, 0.0, "shared playouts: rollouts per move option (0: rollouts)"),
         "win_points": (P_WIN_POINTS, 0.0, "what a win (a score above every other) adds to an option's value, "
                        "in points of margin (0: the margin alone)")},
        integer=frozenset({"rollouts", "shared", "move_rollouts"})),
}

_FAMILIES = {name: _with_ranges(f) for name, f in _FAMILIES.items()}

USER_KIND_BASE = userbots.USER_KIND_BASE

# user bots: what they see is declared in view.py; engine/userbots.py loads them
REGISTRY = BotRegistry(_FAMILIES, L.PARAMS_WIDTH, view=VIEW)
BUILTIN = REGISTRY.builtin
resolve = REGISTRY.resolve
read_bot_toml = REGISTRY.read_bot_toml
load_bot_toml = REGISTRY.load_bot_toml
