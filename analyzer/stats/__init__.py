"""Statistics of runs: confidence intervals (``intervals``), exactly mergeable
chunked accumulators (``aggregate``), the per-seat outcome tables every game's
report shows (``outcomes``) and each game's balance statistics, which the game
names in its ``GameInfo.stats``."""
from __future__ import annotations


def new_stats(game: str, **options):
    """A fresh chunked aggregator for ``game``'s tables (``add``/``merge``/``result``)."""
    from analyzer.games import game_info

    return game_info(game).load("stats").new_stats(**options)


def stats_columns(game: str) -> dict[str, list[str]]:
    """The tables and columns ``game``'s aggregator reads."""
    from analyzer.games import game_info

    return {name: list(cols) for name, cols in game_info(game).load("stats").COLUMNS.items()}
