"""The Lemming Mafia bots a user can name: ids, parameters, descriptions, and
user bots loaded from Python files, and bot TOML files (a built-in family with
its own defaults, e.g. written by `analyzer tune`)."""
from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import math
from pathlib import Path

from analyzer.engine.bots import BotFamily, BotRegistry, ParamRange, UserBot
from analyzer.errors import BotError
from analyzer.games.lemming_mafia import bots as B
from analyzer.games.lemming_mafia.lookahead import P_ROLLOUTS

# parameters every heuristic bot shares: the race model
_MODEL = {
    "block_weight": (B.P_BLOCK_WEIGHT, 1.5, "sections of progress one concrete block is worth"),
    "sharpness": (B.P_SHARPNESS, 0.6, "how strongly the leader is expected to win (softmax scale)"),
    "elim_cost": (B.P_ELIM_COST, 6.0, "value lost when a lemming is eliminated, in sections"),
}


def _bet_timing(late_bets: float) -> dict:
    """The bet-timing parameters every heuristic bot has, with its own default."""
    return {
        "late_bets": (B.P_LATE_BETS, late_bets, "cards held back for the end of the race"),
        "urgency": (B.P_URGENCY, 3.0,
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
}


def _with_ranges(family: BotFamily) -> BotFamily:
    return dataclasses.replace(family, ranges={k: RANGES[k] for k in family.params})


_FAMILIES = {
    "random": BotFamily(
        "random", B.RANDOM,
        "the reference random bot of the rules page: uniform moves and fields, "
        "bets and discards each with probability 1/2"),
    "favourite": BotFamily(
        "favourite", B.FAVOURITE,
        "backs the most promising lemming: pushes it, keeps it off concrete, puts "
        "rivals on concrete, throws other colours away and bets it late",
        {**_MODEL,
         "push": (B.P_PUSH, 1.0, "stake in its favourite per section it gains"),
         "harm": (B.P_HARM, 0.6, "how hard it hinders rivals likely to win"),
         "loyalty": (B.P_LOYALTY, 1.0, "bonus (sections) for a colour whose card is still to bet"),
         **_bet_timing(1.0)}, integer=_STEPS),
    "timer": BotFamily(
        "timer", B.TIMER,
        "plays for bet timing: throws unlikely colours away early, holds the likely "
        "winners and bets them as the race nears the water, moves to favour its stack",
        {**_MODEL,
         **_bet_timing(3.0),
         "bet_stake": (B.P_BET_STAKE, 1.0, "weight of bet points in its moves")}, integer=_STEPS),
    "contractor": BotFamily(
        "contractor", B.CONTRACTOR,
        "plays for its contracts: steers lemmings towards what its contracts need and "
        "discards those it is unlikely to fulfil",
        {**_MODEL,
         **_bet_timing(2.0),
         "bet_stake": (B.P_BET_STAKE, 0.5, "weight of bet points in its moves"),
         "discard_margin": (B.P_DISCARD_MARGIN, 0.0, "keeps a contract down to this expected loss in points")},
        integer=_STEPS),
    "lookahead": BotFamily(
        "lookahead", B.LOOKAHEAD,
        "strong reference: plays every option out many times (Monte Carlo rollouts with "
        "random play after it, hidden cards sampled) and takes the best; slow",
        {"rollouts": (P_ROLLOUTS, 16.0, "rollouts per option of each decision")}, integer=frozenset({"rollouts"})),
}

_FAMILIES = {name: _with_ranges(f) for name, f in _FAMILIES.items()}

USER_KIND_BASE = 100
_user_kinds = itertools.count(USER_KIND_BASE)


_loaded: dict[Path, BotFamily] = {}


def _bounds_checked(decide, path: str):
    """The user's ``decide`` compiled again with bounds checking: a read past an
    array's end then raises IndexError (reported as the bot's fault, naming its
    file) instead of reading another player's hidden cards or crashing the
    process. The built-in bots are not checked: their indices are the kernel's."""
    from numba import njit
    from numba.core.registry import CPUDispatcher

    if not isinstance(decide, CPUDispatcher):
        raise BotError(f"bot file {path}: BOT's decide must be a numba @njit function")
    return njit(nogil=True, boundscheck=True)(decide.py_func)


def load_user_bot(path: str) -> BotFamily:
    """A bot from a user's Python file, loaded once per process. The file defines
    ``BOT = UserBot(...)`` (see ``sims/my_bot.py``); its ``decide`` is a numba
    ``@njit`` function with the signature of ``bots.py``."""
    p = Path(path)
    if p.is_file() and p.resolve() in _loaded:
        return _loaded[p.resolve()]
    if not p.is_file():
        raise BotError(f"bot file not found: {path}")
    name = f"analyzer_user_bot_{p.stem}_{abs(hash(str(p.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, p)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as e:  # the user's code (sys.exit included): one line
        raise BotError(f"bot file {path} failed to load: {type(e).__name__}: {e}") from None
    bot = getattr(module, "BOT", None)
    if not isinstance(bot, UserBot):
        raise BotError(f"bot file {path} defines no BOT = UserBot(...)")
    if not isinstance(bot.name, str) or not bot.name.strip() or any(c in bot.name for c in ",:"):
        raise BotError(f"bot file {path}: BOT's name must be a non-empty string without ',' or ':', "
                       f"got {bot.name!r}")
    if not isinstance(bot.params, dict):
        raise BotError(f"bot file {path}: BOT's params must be a dict name -> (default, help)")
    params = {}
    for i, (key, entry) in enumerate(bot.params.items()):
        if not (isinstance(entry, tuple) and len(entry) == 2):
            raise BotError(f"bot file {path}: parameter {key!r} must be declared as (default, help), "
                           f"got {entry!r}")
        default, help_text = entry
        if isinstance(default, bool) or not isinstance(default, (int, float)) or not math.isfinite(default):
            raise BotError(f"bot file {path}: the default of parameter {key!r} must be a number, "
                           f"got {default!r}")
        params[key] = (i, float(default), str(help_text))
    if len(params) > B.N_PARAMS:
        raise BotError(f"bot file {path}: at most {B.N_PARAMS} parameters")
    family = BotFamily(bot.name, next(_user_kinds), bot.description, params,
                       _bounds_checked(bot.decide, path), str(p))
    _loaded[p.resolve()] = family
    return family


REGISTRY = BotRegistry(_FAMILIES, B.PARAMS_WIDTH, load_py=load_user_bot)
BUILTIN = REGISTRY.builtin
resolve = REGISTRY.resolve
read_bot_toml = REGISTRY.read_bot_toml
load_bot_toml = REGISTRY.load_bot_toml
