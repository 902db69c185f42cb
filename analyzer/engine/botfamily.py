"""A bot family as a game declares it (``BotFamily``, its parameters' ranges)
and a user's Python bot (``UserBot``): the data both the bot files' reader
(``engine.bots``) and the user bots' loader (``engine.userbots``) build on,
so that neither imports the other."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from analyzer.engine.botspec import BotSpec
from analyzer.errors import BotError


@dataclass(frozen=True)
class ParamRange:
    """What values a bot parameter takes: ``lo <= value <= hi``, and a whole
    number if ``integer``. Checked before any race, so a value the bot cannot
    play with (an overflowing scale, a fractional or negative count) is refused
    in one line rather than silently clamped or failing mid-run."""
    lo: float = -math.inf
    hi: float = math.inf
    integer: bool = False

    def describe(self) -> str:
        what = "a whole number" if self.integer else "a number"
        if math.isinf(self.lo) and math.isinf(self.hi):
            return what
        if math.isinf(self.hi):
            return f"{what} >= {self.lo:g}"
        if math.isinf(self.lo):
            return f"{what} <= {self.hi:g}"
        return f"{what} from {self.lo:g} to {self.hi:g}"

    def accepts(self, value: float) -> bool:
        return (math.isfinite(value) and self.lo <= value <= self.hi
                and (not self.integer or float(value).is_integer()))


ANY_NUMBER = ParamRange()

PLAYER = "player"  # the one role of a game whose seats are alike (analyzer.games.protocol)


@dataclass(frozen=True)
class BotFamily:
    name: str
    kind: int  # bot id in the game's kernel
    description: str
    params: dict[str, tuple[int, float, str]] = field(default_factory=dict)  # name -> (slot, default, help)
    decide: object = None  # user bots: their jitted decide function
    source: str = "built-in"
    width: int = 0  # length of the parameter row the kernel reads (set by the registry)
    roles: tuple[str, ...] = (PLAYER,)  # the seat roles it can play
    integer: frozenset = frozenset()  # step parameters (compared with counts): tune tries whole numbers
    # name -> the values it takes; a parameter not listed takes any finite number
    ranges: dict[str, ParamRange] = field(default_factory=dict)
    # what the game's parameter store holds (a fixed-point store bounds every
    # parameter's size; set by the registry): each range is cut to it
    store: ParamRange = field(default_factory=ParamRange)
    # a bot file's content (user .py, bot .toml): sha256 of its bytes, part of a run's
    # identity (the manifest, the race set, merges); "" for a built-in bot
    sha256: str = ""

    def range_of(self, name: str) -> ParamRange:
        own = self.ranges.get(name, ANY_NUMBER)
        if self.store == ANY_NUMBER:
            return own
        return ParamRange(max(own.lo, self.store.lo), min(own.hi, self.store.hi), own.integer)

    def check_value(self, name: str, value: float, where: str = "") -> None:
        """One line naming the bot (and ``where`` it came from) if ``value`` is out of range."""
        allowed = self.range_of(name)
        if not allowed.accepts(value):
            origin = f" ({where})" if where else ""
            raise BotError(f"bot {self.name!r}{origin}: parameter {name} must be {allowed.describe()}, "
                           f"got {value:g}")

    def param_row(self, spec: BotSpec) -> np.ndarray:
        row = np.zeros(self.width, np.float64)
        for slot, default, _ in self.params.values():
            row[slot] = default
        for key, value in spec.params:
            if key not in self.params:
                known = ", ".join(self.params) or "none"
                raise BotError(f"bot {self.name!r} has no parameter {key!r} (its parameters: {known})")
            self.check_value(key, value)
            row[self.params[key][0]] = value
        return row

    def defaults(self) -> dict[str, float]:
        return {name: default for name, (_, default, _) in self.params.items()}


def file_digests(specs) -> dict[str, str]:
    """sha256 of each bot file among ``specs`` (bot specs), by its path as given:
    what keys a sweep's cell or a balance candidate by content. Each file is read
    as every input is, a regular file of bounded size (``InputFileError`` otherwise)."""
    import hashlib

    from analyzer.engine.botspec import is_bot_file
    from analyzer.engine.inputs import read_input

    digests = {}
    for spec in specs:
        if is_bot_file(spec.name) and spec.name not in digests:
            digests[spec.name] = hashlib.sha256(read_input(spec.name, "bot file")).hexdigest()
    return digests


def file_digest(path) -> str:
    """sha256 (hex) of a file's bytes: what identifies a bot file's content."""
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def search_family(model: BotFamily, description: str, search: dict, integer: frozenset) -> BotFamily:
    """A game's search bot (docs/search.md): its heuristic ``model``'s parameters
    (those of its playout policy and of the decisions it does not search) and
    roles, then
    the search's own, ``search``: name -> (slot, default, help, ParamRange);
    ``integer``: those of them that are whole numbers."""
    params = dict(model.params)
    ranges = dict(model.ranges)
    for name, (slot, default, text, valid) in search.items():
        params[name] = (slot, default, text)
        ranges[name] = valid
    return BotFamily(model.name, model.kind, description, params, ranges=ranges,
                     integer=model.integer | integer, roles=model.roles)


@dataclass(frozen=True)
class UserBot:
    """What a user's bot file declares:
    ``BOT = UserBot(name, decide, game=..., roles=(...), params={...}, description=...)``.

    ``decide(view) -> int``, plain Python or numba ``@njit`` (see
    ``analyzer/engine/userbots.py`` and ``docs/bots-<game>.md``); the older form
    ``decide(what, seat, kind, game, state, params, n_options)`` over the raw
    arrays still loads. ``game``: the game it plays (a bot for another game is
    refused); ``roles``: the roles it can play (empty: every role of the game)."""
    name: str
    decide: object
    description: str = "a user bot"
    params: dict[str, tuple[float, str]] = field(default_factory=dict)  # name -> (default, help)
    game: str | None = None
    roles: tuple[str, ...] = ()
