"""Bot families as a game declares them, and the files a user names on the
command line: ``name[:k=v]`` built-ins, bot TOML files (a built-in family with
its own defaults, e.g. written by ``analyzer tune``) and, where the game supports
them, user Python files. Knows no game: each game builds a ``BotRegistry`` from
its families and the width of its parameter rows."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analyzer.engine.botspec import BotSpec
from analyzer.errors import BotError


@dataclass(frozen=True)
class BotFamily:
    name: str
    kind: int  # bot id in the game's kernel
    description: str
    params: dict[str, tuple[int, float, str]] = field(default_factory=dict)  # name -> (slot, default, help)
    decide: object = None  # user bots: their jitted decide function
    source: str = "built-in"
    width: int = 0  # length of the parameter row the kernel reads (set by the registry)

    def param_row(self, spec: BotSpec) -> np.ndarray:
        row = np.zeros(self.width, np.float64)
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


class BotRegistry:
    """The bots of one game a user can name."""

    def __init__(self, builtin: dict[str, BotFamily], width: int, load_py=None, view=None):
        self.width = width
        self.builtin = {name: dataclasses.replace(f, width=width) for name, f in builtin.items()}
        # user bots: a game declares what they see (an ``engine.userbots.ViewSpec``)
        # and the generic loader does the rest; ``load_py`` (path -> BotFamily) is
        # the older, game-written hook
        self.view = view
        if view is not None and load_py is None:
            from analyzer.engine import userbots

            load_py = userbots.loader(view, width)
        self._load_py = load_py

    @property
    def user_bots(self) -> bool:
        return self._load_py is not None

    def read_bot_toml(self, path: str) -> BotFile:
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
        if not isinstance(family, str) or family not in self.builtin:
            raise BotError(f"bot file {path}: 'family' must name a built-in bot ({', '.join(self.builtin)}), "
                           f"got {family!r}")
        for key in ("name", "description"):
            if not isinstance(data.get(key, ""), str):
                raise BotError(f"bot file {path}: {key!r} must be a string")
        params = data.get("params", {})
        if not isinstance(params, dict):
            raise BotError(f"bot file {path}: 'params' must be a table ([params] with name = number lines)")
        known = self.builtin[family].params
        for key, value in params.items():
            if key not in known:
                raise BotError(f"bot file {path}: bot {family!r} has no parameter {key!r} "
                               f"(its parameters: {', '.join(known) or 'none'})")
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise BotError(f"bot file {path}: parameter {key!r} must be a number, got {value!r}")
        return BotFile(family, data.get("name") or p.stem,
                       data.get("description") or f"{family} with the parameters of {p.name}",
                       {k: float(v) for k, v in params.items()}, str(p))

    def load_bot_toml(self, path: str) -> BotFamily:
        """The built-in family of a bot TOML file, with the file's parameters as defaults."""
        f = self.read_bot_toml(path)
        base = self.builtin[f.family]
        params = {k: (slot, f.params.get(k, default), text) for k, (slot, default, text) in base.params.items()}
        return dataclasses.replace(base, name=f.name, description=f.description, params=params, source=f.path)

    def resolve(self, spec: BotSpec) -> BotFamily:
        if spec.name.endswith(".py"):
            if self._load_py is None:
                raise BotError(f"bot {spec.name!r}: this game takes no user Python bots "
                               f"(built-in bots: {', '.join(self.builtin)}; or a bot .toml file)")
            return dataclasses.replace(self._load_py(spec.name), width=self.width)
        if spec.name.endswith(".toml"):
            return self.load_bot_toml(spec.name)
        if spec.name not in self.builtin:
            files = "a path to a .py or .toml bot file" if self._load_py else "a path to a .toml bot file"
            raise BotError(f"unknown bot {spec.name!r} (built-in bots: {', '.join(self.builtin)}; or {files})")
        return self.builtin[spec.name]
