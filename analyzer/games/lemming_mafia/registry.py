"""The Lemming Mafia bots a user can name: ids, parameters, descriptions, and
user bots loaded from Python files, and bot TOML files (a built-in family with
its own defaults, e.g. written by `analyzer tune`)."""
from __future__ import annotations

import importlib.util
import itertools
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analyzer.engine.botspec import BotSpec
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


@dataclass(frozen=True)
class BotFamily:
    name: str
    kind: int  # bot id in the kernel (user bots: USER_KIND_BASE + n)
    description: str
    params: dict[str, tuple[int, float, str]] = field(default_factory=dict)  # name -> (slot, default, help)
    decide: object = None  # user bots: their jitted decide function
    source: str = "built-in"

    def param_row(self, spec: BotSpec) -> np.ndarray:
        row = np.zeros(B.PARAMS_WIDTH, np.float64)
        for slot, default, _ in self.params.values():
            row[slot] = default
        for key, value in spec.params:
            if key not in self.params:
                known = ", ".join(self.params) or "none"
                raise BotError(f"bot {self.name!r} has no parameter {key!r} (its parameters: {known})")
            row[self.params[key][0]] = value
        return row

    def defaults(self) -> dict[str, float]:
        return {name: default for name, (_, default, _) in self.params.items()}


BUILTIN = {
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
         **_bet_timing(1.0)}),
    "timer": BotFamily(
        "timer", B.TIMER,
        "plays for bet timing: throws unlikely colours away early, holds the likely "
        "winners and bets them as the race nears the water, moves to favour its stack",
        {**_MODEL,
         **_bet_timing(3.0),
         "bet_stake": (B.P_BET_STAKE, 1.0, "weight of bet points in its moves")}),
    "contractor": BotFamily(
        "contractor", B.CONTRACTOR,
        "plays for its contracts: steers lemmings towards what its contracts need and "
        "discards those it is unlikely to fulfil",
        {**_MODEL,
         **_bet_timing(2.0),
         "bet_stake": (B.P_BET_STAKE, 0.5, "weight of bet points in its moves"),
         "discard_margin": (B.P_DISCARD_MARGIN, 0.0, "keeps a contract down to this expected loss in points")}),
    "lookahead": BotFamily(
        "lookahead", B.LOOKAHEAD,
        "strong reference: plays every option out many times (Monte Carlo rollouts with "
        "random play after it, hidden cards sampled) and takes the best; slow",
        {"rollouts": (P_ROLLOUTS, 16.0, "rollouts per option of each decision")}),
}

USER_KIND_BASE = 100
_user_kinds = itertools.count(USER_KIND_BASE)


_loaded: dict[Path, BotFamily] = {}


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
    except Exception as e:  # the user's code: report it in one line
        raise BotError(f"bot file {path} failed to load: {type(e).__name__}: {e}") from None
    bot = getattr(module, "BOT", None)
    if not isinstance(bot, UserBot):
        raise BotError(f"bot file {path} defines no BOT = UserBot(...)")
    params = {}
    for i, (key, (default, help_text)) in enumerate(bot.params.items()):
        params[key] = (i, float(default), help_text)
    if len(params) > B.N_PARAMS:
        raise BotError(f"bot file {path}: at most {B.N_PARAMS} parameters")
    family = BotFamily(bot.name, next(_user_kinds), bot.description, params, bot.decide, str(p))
    _loaded[p.resolve()] = family
    return family


@dataclass(frozen=True)
class UserBot:
    """What a user's bot file declares: ``BOT = UserBot(name, decide, ...)``."""
    name: str
    decide: object
    description: str = "a user bot"
    params: dict[str, tuple[float, str]] = field(default_factory=dict)  # name -> (default, help)


@dataclass(frozen=True)
class BotFile:
    """A bot TOML file: a built-in family with its own defaults.

        family = "timer"
        name = "tuned-timer"          # optional, default: the file's stem
        description = "..."           # optional
        [params]
        late_bets = 2.5
    """
    family: str
    name: str
    description: str
    params: dict[str, float]
    path: str


def read_bot_toml(path: str) -> BotFile:
    import math
    import tomllib

    p = Path(path)
    if not p.is_file():
        raise BotError(f"bot file not found: {path}")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as e:
        raise BotError(f"bot file {path} is not valid TOML: {e}") from None
    unknown = sorted(set(data) - {"family", "name", "description", "params"})
    if unknown:
        raise BotError(f"bot file {path}: unknown key {unknown[0]!r} (keys: family, name, description, [params])")
    family = data.get("family")
    if not isinstance(family, str) or family not in BUILTIN:
        raise BotError(f"bot file {path}: 'family' must name a built-in bot ({', '.join(BUILTIN)}), got {family!r}")
    for key in ("name", "description"):
        if not isinstance(data.get(key, ""), str):
            raise BotError(f"bot file {path}: {key!r} must be a string")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise BotError(f"bot file {path}: 'params' must be a table ([params] with name = number lines)")
    known = BUILTIN[family].params
    for key, value in params.items():
        if key not in known:
            raise BotError(f"bot file {path}: bot {family!r} has no parameter {key!r} "
                           f"(its parameters: {', '.join(known) or 'none'})")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise BotError(f"bot file {path}: parameter {key!r} must be a number, got {value!r}")
    return BotFile(family, data.get("name") or p.stem,
                   data.get("description") or f"{family} with the parameters of {p.name}",
                   {k: float(v) for k, v in params.items()}, str(p))


def load_bot_toml(path: str) -> BotFamily:
    """The built-in family of a bot TOML file, with the file's parameters as defaults."""
    f = read_bot_toml(path)
    base = BUILTIN[f.family]
    params = {k: (slot, f.params.get(k, default), text) for k, (slot, default, text) in base.params.items()}
    return BotFamily(f.name, base.kind, f.description, params, base.decide, f.path)


def resolve(spec: BotSpec) -> BotFamily:
    if spec.name.endswith(".py"):
        return load_user_bot(spec.name)
    if spec.name.endswith(".toml"):
        return load_bot_toml(spec.name)
    if spec.name not in BUILTIN:
        raise BotError(f"unknown bot {spec.name!r} (built-in bots: {', '.join(BUILTIN)}; "
                       "or a path to a .py or .toml bot file)")
    return BUILTIN[spec.name]
