"""analyzer: a Monte Carlo strategy analyzer for race-and-bet board games.

The Python API (see ``analyzer/api.py`` and docs/commands.md):

    import analyzer
    analyzer.games()                                   # the games' names
    run = analyzer.simulate(GAME, races=20_000, bots="random")
    run.tables["players"], run.summary, run.manifest, run.report("reports/x.html")
"""
from analyzer.version import __version__  # noqa: E402  (one place, imported by the libraries too)

from analyzer.api import (  # noqa: E402
    Comparison, Run, Tournament, compare, games, replay, report_runs, simulate, tournament,
)
from analyzer.errors import AnalyzerError, BotError, InputFileError  # noqa: E402

__all__ = ["simulate", "compare", "tournament", "report_runs", "replay", "games", "Run", "Comparison", "Tournament",
           "AnalyzerError", "BotError", "InputFileError", "__version__"]
