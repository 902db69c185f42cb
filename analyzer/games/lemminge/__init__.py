"""Lemminge ("Lemming, le grand plongeon"), as ``shared/rules/lemminge.md``
states it: a jitted game on a hex map (``kernel.py``), its rules
(``rules.py``), the reference random bot (``random_bot.py``), the heuristic
bots (``bots.py``, named in ``registry.py``), the layout of its flat arrays
(``layout.py``), the map file (``board.py``, the assumed default in
``data/``), and what the engine drives: ``match.py`` (chunks of games, their
tables, replays) and ``summary.py``.

Where the rules page is silent, the decisions (a player's reading) are listed
in ``docs/lemminge.md``.
"""
from analyzer.games import BenchStrength, BenchTable, GameInfo, SearchBot
from analyzer.games.lemminge.layout import MAX_PLAYERS, MIN_PLAYERS

GAME = GameInfo(
    name="lemminge",
    title="Lemminge",
    match="analyzer.games.lemminge.match:LemmingeMatch",
    bots="analyzer.games.lemminge.registry",
    stats="analyzer.games.lemminge.stats",
    report="analyzer.games.lemminge.report",
    records="analyzer.games.lemminge.records",
    rules="analyzer.games.lemminge.ruleset:RULES",
    default_players=4,
    default_bots=("racer", "convoy", "blocker", "random", "random"),
    unit="games",
    player_counts=(MIN_PLAYERS, MAX_PLAYERS),
    board_help="hex map TOML file (grid, card values, tile supply)",
    bench=(
        # models: 2 / single-thread time a game (docs/performance.md, "Lemminge"):
        # 62 us with random bots, 1,027 us for the default table
        BenchTable("random bots", "random", (200_000, 20_000), 20_000, model=32_000),
        BenchTable("default table", None, (20_000, 2_000), model=1_950, versus="random bots",
                   share_target=0.25),
    ),
    bench_cost_bot="lookahead",
    bench_cost_target=2000.0,  # us a decision at the default budget: one searched a turn
    # the reference: the search bot at its default of 8 playouts, 10,000
    # games per arm, 28 Nov 2026 (docs/lemminge.md, "The search bot")
    bench_strength=BenchStrength(
        ("--bot", "lookahead", "--vs", "convoy", "--field", "racer,blocker,random", "--seed", "1"),
        (18.67, 17.35, 19.99), "paired win rate lookahead - convoy, field racer,blocker,random, seed 1"),
    # strong_units: its table (lookahead in every seat) costs ~50 ms of CPU a game
    search=SearchBot(best="convoy", field="racer,blocker,random", counts=(1_000, 200), strong_units=1_000),
)
