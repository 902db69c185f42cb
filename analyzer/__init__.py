"""analyzer: a Monte Carlo strategy analyzer for race-and-bet board games.

The Python API (see ``analyzer/api.py`` and the README):

    import analyzer
    run = analyzer.simulate("lemming-mafia", races=20_000, bots="favourite,random,random,random")
    run.tables["players"], run.summary, run.manifest, run.report("reports/x.html")
"""
__version__ = "0.1.0"

from analyzer.api import Comparison, Run, Tournament, compare, games, report_runs, simulate, tournament  # noqa: E402
from analyzer.errors import AnalyzerError, BotError, InputFileError  # noqa: E402

__all__ = ["simulate", "compare", "tournament", "report_runs", "games", "Run", "Comparison", "Tournament",
           "AnalyzerError", "BotError", "InputFileError", "__version__"]
