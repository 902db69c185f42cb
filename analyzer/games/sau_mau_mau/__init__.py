"""Sau Mau Mau ("Les cochons sont partis !"), as ``shared/rules/sau-mau-mau.md``
states it: a jitted game of races (``kernel.py``), its rules (``rules.py``; the rule numbers
a designer may change, with their box values, in ``ruleset.py``), the
reference random bot (``random_bot.py``), the heuristic bots (``bots.py``, named
in ``registry.py``), the layout of its flat arrays (``layout.py``), the track
file (``board.py``, the assumed default in ``data/``), and what the engine drives:
``match.py`` (chunks of games, their tables) and ``summary.py``.

Where the rules page is silent, the decisions (a player's reading) are listed in
``docs/sau-mau-mau.md``.
"""
from analyzer.games import BenchStrength, BenchTable, GameInfo, SearchBot
from analyzer.games.sau_mau_mau.layout import MAX_PLAYERS, MIN_PLAYERS

GAME = GameInfo(
    name="sau-mau-mau",
    title="Sau Mau Mau",
    match="analyzer.games.sau_mau_mau.match:SauMauMauMatch",
    bots="analyzer.games.sau_mau_mau.registry",
    stats="analyzer.games.sau_mau_mau.stats",
    report="analyzer.games.sau_mau_mau.report",
    records="analyzer.games.sau_mau_mau.records",
    default_players=4,
    default_bots=("backer", "tempo", "switcher", "random", "random"),
    unit="games",
    player_counts=(MIN_PLAYERS, MAX_PLAYERS),
    board_help="track TOML file (crown positions)",
    bench=(
        BenchTable("random bots", "random", (2_000_000, 200_000), 100_000, model=290_000),
        BenchTable("default table", None, (1_000_000, 100_000), 56_000, model=70_000),
    ),
    bench_cost_bot="lookahead",
    bench_cost_target=2000.0,  # us a decision at the default budget
    # the reference: the search bot at its default (24 playouts), 10,000 games per
    # arm, 28 Nov 2026 (docs/sau-mau-mau.md, "The search bot")
    bench_strength=BenchStrength(
        ("--bot", "lookahead", "--vs", "backer", "--field", "tempo,switcher,random", "--seed", "17"),
        (9.54, 8.24, 10.84), "paired win rate lookahead - backer, field tempo,switcher,random, seed 17"),
    # strong_units: its table (lookahead in every seat) costs ~0.1 s of CPU a game
    search=SearchBot(best="backer", field="tempo,switcher,random", counts=(1_000, 200), strong_units=500),
    rules="analyzer.games.sau_mau_mau.ruleset:RULES",
)
