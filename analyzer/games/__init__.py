"""The games the analyzer knows. Each is a folder that declares itself with a
``GAME = GameInfo(...)`` in its ``__init__.py``: the engine, CLI, statistics and
report find everything game-specific through it. ``PACKAGES`` is the only place
that lists the games."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from analyzer.errors import AnalyzerError

PACKAGES = ("analyzer.games.lemming_mafia", "analyzer.games.sau_mau_mau", "analyzer.games.mafia")


@dataclass(frozen=True)
class GameInfo:
    name: str  # as typed on the command line
    title: str
    match: str  # "module:Class" of the match the engine drives
    bots: str  # module with the game's ``REGISTRY`` (analyzer.engine.bots.BotRegistry)
    stats: str  # module with ``new_stats(**options)``, ``COLUMNS``, ``TABLE_DOCS``, ``expected_rows``
    report: str  # module with the report's sections (see analyzer/report/html.py)
    default_players: int
    default_bots: tuple[str, ...]  # seat i gets default_bots[i % len]
    unit: str = "races"  # what one simulated item is: "races" or "games"

    def load(self, what: str):
        """The module (or ``module:attribute``) named by a field."""
        module, _, attr = getattr(self, what).partition(":")
        m = importlib.import_module(module)
        return getattr(m, attr) if attr else m

    def default_bot_list(self, players: int) -> str:
        return ",".join(self.default_bots[i % len(self.default_bots)] for i in range(players))


@cache
def _games() -> dict[str, GameInfo]:
    infos = [importlib.import_module(p).GAME for p in PACKAGES]
    return {info.name: info for info in infos}


def names() -> list[str]:
    return list(_games())


def game_info(game: str) -> GameInfo:
    games = _games()
    if game not in games:
        raise AnalyzerError(f"unknown game {game!r} (known: {', '.join(games)})")
    return games[game]


def match_class(game: str):
    return game_info(game).load("match")


def default_players(game: str) -> int:
    return game_info(game).default_players


def registry(game: str):
    return game_info(game).load("bots").REGISTRY


def bot_families(game: str) -> dict:
    return registry(game).builtin
