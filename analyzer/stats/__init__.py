"""Statistics of runs: confidence intervals (``intervals``), exactly mergeable
chunked accumulators (``aggregate``) and each game's balance statistics."""
from __future__ import annotations

from analyzer.errors import AnalyzerError


def new_stats(game: str, **options):
    """A fresh chunked aggregator for ``game``'s tables (``add``/``merge``/``result``)."""
    if game == "lemming-mafia":
        from analyzer.stats.lemming_mafia import LemmingMafiaStats
        return LemmingMafiaStats(**options)
    raise AnalyzerError(f"no balance statistics for game {game!r} (known: lemming-mafia)")


def stats_columns(game: str) -> dict[str, list[str]]:
    """The tables and columns ``game``'s aggregator reads."""
    if game == "lemming-mafia":
        from analyzer.stats.lemming_mafia import COLUMNS
        return {name: list(cols) for name, cols in COLUMNS.items()}
    raise AnalyzerError(f"no balance statistics for game {game!r} (known: lemming-mafia)")
