"""The games the analyzer knows. Each is a folder that declares itself with a
``GAME = GameInfo(...)`` in its ``__init__.py``: the engine, CLI, statistics,
report and bench find everything game-specific through it, and call only what
``analyzer/games/protocol.py`` writes down. ``PACKAGES`` is the only place that
lists the games; nothing outside a game's folder imports from it (a test checks)."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from analyzer.errors import AnalyzerError
from analyzer.games.protocol import PLAYER

PACKAGES = ("analyzer.games.lemming_mafia", "analyzer.games.sau_mau_mau", "analyzer.games.lemminge",
            "analyzer.games.mafia")


@dataclass(frozen=True)
class BenchTable:
    """A table of bots ``make bench`` times for a game (whole process, no --out)."""
    label: str
    bots: str | None  # --bots (None: the game's default table)
    counts: tuple[int, int]  # races or games: full run, --quick
    target: float | None = None  # races or games per second, at least
    players: int | None = None  # None: the game's default
    model: float | None = None  # the cost model's estimate, per second on 2 threads (docs/performance.md)
    # the label of another of the game's tables measured in the same run (its random
    # table): a row then compares the two per item and per side turn (for a game whose
    # summary prints its side turns per item), against these targets (either met passes:
    # where one table's items are many times longer, per side turn is the fair measure)
    versus: str | None = None
    share_target: float | None = None  # items/s as a share of the versus table's, at least
    turn_target: float | None = None  # cost per side turn as a multiple of the versus table's, at most


@dataclass(frozen=True)
class BenchStrength:
    """A paired ``compare`` that ``make bench`` runs to show a bot's strength, with
    the figure recorded for the version it must not fall below (beyond noise)."""
    compare: tuple[str, ...]  # compare's options after the game name (bots, field, seed)
    reference: tuple[float, float, float]  # pp: win-rate difference A - B and its 95% interval
    what: str  # what the difference is, for the row's detail


@dataclass(frozen=True)
class SearchBot:
    """A game's search bot and the heuristic it is measured against: the strength
    ladder of ``make bench`` (``--only ladder``) and the controlled tables of a
    report under strong play (``report --strong``). Its budget's default is the
    registry's (the bot family's default of ``budget``)."""
    best: str  # the strongest heuristic of the game's default table: the ladder's opponent
    field: str  # the other seats of the default table (compare's --field)
    counts: tuple[int, int]  # units per arm of each ladder row: full run, --quick
    strong_units: int  # units of the search bot's controlled table in a report under strong play, at most
    bot: str = "lookahead"
    budget: str = "rollouts"  # the parameter that sets its budget
    compare: tuple[str, ...] = ()  # further options of the ladder's compare (a role game's --role)


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
    records: str = ""  # module with ``TABLES``: the record specs of the tables --out writes
    player_counts: tuple[int, int] = (2, 6)  # fewest and most players the match accepts
    player_counts_text: str = ""  # how --players errors say them (default "FEWEST-MOST")
    roles: tuple[str, ...] = (PLAYER,)  # the roles its seats can have (see protocol.py)
    board_help: str = "board TOML file"  # what --board takes, for help texts
    bench: tuple[BenchTable, ...] = ()  # throughput rows of ``make bench``
    bench_cost_bot: str | None = None  # a slow bot whose cost per decision the bench prints
    bench_cost_target: float | None = None  # its cost per decision, us, at most
    bench_strength: "BenchStrength | None" = None  # the slow bot's strength, beside a recorded reference
    search: SearchBot | None = None  # its search bot, if it has one (strength ladder, strong reports)
    rules: str = ""  # "module:RULES", its rule numbers a designer may change (analyzer.engine.ruleset.RuleSet)

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


def infos() -> list[GameInfo]:
    return list(_games().values())


def game_info(game: str) -> GameInfo:
    games = _games()
    if game not in games:
        raise AnalyzerError(f"unknown game {game!r} (known: {', '.join(games)})")
    return games[game]


def match_class(game: str):
    return game_info(game).load("match")


def new_stats(game: str, **options):
    """A fresh chunked aggregator for ``game``'s tables (``add``/``merge``/``result``).
    Here, not in ``analyzer.stats``: the statistics library knows no registry."""
    return game_info(game).load("stats").new_stats(**options)


def questions_for(game):
    """A game's questions by key (``analyzer.stats.questions.Question``), in its report's
    order: the shared questions as the game words them and its own (its report
    package's ``QUESTIONS``). ``game``: a game's name or its ``GameInfo``. Each
    measures a run's aggregated tables: ``questions_for(game)[key].estimate(run.results,
    run.manifest)`` (``Estimate`` or None), ``.verdict(...)`` (``evidence.Verdict``).
    Two questions of one game never share a key (a key names one answer everywhere:
    page, CSV, targets); a game that repeats one is an error. Here, not in
    ``analyzer.stats``: the statistics library knows no registry."""
    info = game_info(game) if isinstance(game, str) else game
    out = {}
    for q in info.load("report").QUESTIONS:
        if q.key in out:
            raise ValueError(f"{info.name} registers two questions with the key {q.key!r}")
        out[q.key] = q
    return out


def stats_columns(game: str) -> dict[str, list[str]]:
    """The tables and columns ``game``'s aggregator reads."""
    return {name: list(cols) for name, cols in game_info(game).load("stats").COLUMNS.items()}


def default_players(game: str) -> int:
    return game_info(game).default_players


def registry(game: str):
    return game_info(game).load("bots").REGISTRY


def search_budget(info: GameInfo) -> int:
    """The default budget of a game's search bot (its family's default), 0 without one."""
    if info.search is None:
        return 0
    return int(registry(info.name).builtin[info.search.bot].defaults()[info.search.budget])


@cache
def rules_of(game: str):
    """The rule numbers ``game`` lets a designer change (a ``RuleSet``; one with
    no keys for a game that declares none)."""
    info = game_info(game)
    if info.rules:
        return info.load("rules")
    from analyzer.engine.ruleset import RuleSet

    return RuleSet(info.name, info.title, info.player_counts)


def bot_families(game: str) -> dict:
    return registry(game).builtin
