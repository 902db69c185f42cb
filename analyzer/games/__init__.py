"""The games the analyzer knows. Each is a folder with a match class that the
game-agnostic engine drives; this table is the only place that names them."""
from __future__ import annotations

import importlib

from analyzer.errors import AnalyzerError

GAMES = {
    # name: (match module, match class, bot registry module, default players)
    "lemming-mafia": ("analyzer.games.lemming_mafia.match", "LemmingMafiaMatch",
                      "analyzer.games.lemming_mafia.registry", 4),
}


def match_class(game: str):
    if game not in GAMES:
        raise AnalyzerError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    module, name, _, _ = GAMES[game]
    return getattr(importlib.import_module(module), name)


def default_players(game: str) -> int:
    match_class(game)
    return GAMES[game][3]


def bot_families(game: str) -> dict:
    match_class(game)
    return importlib.import_module(GAMES[game][2]).BUILTIN
