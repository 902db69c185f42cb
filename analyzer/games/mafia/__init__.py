"""Mafia (Marco Donadoni, International Team): the State against the Families
in Sicily, as ``shared/rules/mafia.md`` states it. The first game whose seats
have roles: ``state`` and ``family``.

The rules, jitted, one module a part of the rulebook: ``kernel.py`` (the game:
setup, the calendar, a side's turn, the end checks), ``movement.py`` ((a) returns,
(b, c) the roll, the move and its card windows), ``activities.py`` ((d) the
activities of a moved piece and the State's actions), ``core.py`` (what every
phase uses: dice, asking a bot, cards, boxes, markers), the reference random bot (``random_bot.py``), the heuristic
bots (``bots.py``, named with their roles in ``registry.py``), the flat arrays
(``layout.py``), the map file with its validation and the table of every move
(``board.py``, the assumed default in ``data/``), and what the engine drives:
``match.py`` (chunks of games, their tables), ``summary.py``, ``stats.py``.

Where the rules page left something open, the decisions are listed in
``docs/mafia.md``.
"""
from analyzer.games import BenchStrength, BenchTable, GameInfo, SearchBot
from analyzer.games.mafia.layout import MAX_PLAYERS, MIN_PLAYERS, ROLE_FAMILY, ROLE_STATE

GAME = GameInfo(
    name="mafia",
    title="Mafia",
    match="analyzer.games.mafia.match:MafiaMatch",
    bots="analyzer.games.mafia.registry",
    stats="analyzer.games.mafia.stats",
    report="analyzer.games.mafia.report",
    records="analyzer.games.mafia.records",
    rules="analyzer.games.mafia.ruleset:RULES",
    default_players=5,
    default_bots=("random",),
    unit="games",
    player_counts=(MIN_PLAYERS, MAX_PLAYERS),
    roles=(ROLE_STATE, ROLE_FAMILY),
    board_help="map TOML file (spaces, ring, bar, bases)",
    bench=(
        # model: 2 / single-thread CPU time a game (docs/performance.md, "Mafia": 9.7 us and
        # 31.6 us, then ~0.9x with the controlled-spaces count: ~8.8 us and ~29 us)
        BenchTable("random bots, 5 players", "random", (1_000_000, 100_000), 100_000, players=5,
                   model=227_000),
        # the heuristic table of docs/performance.md (two bots per family role, the hunter as State)
        BenchTable("heuristic table, 5 players", "expander,raider,hunter,expander,raider", (100_000, 10_000),
                   players=5, model=69_000),
        # four players (no State seat: each family moves a State piece after its own move),
        # against the four-player random table of the same run: its games are ~5x longer
        # in side turns, so it is judged per side turn (docs/performance.md, "Mafia")
        BenchTable("random bots, 4 players", "random", (1_000_000, 100_000), players=4, model=None),
        BenchTable("heuristic table, 4 players", "expander,raider,expander,raider", (100_000, 10_000),
                   players=4, model=None, versus="random bots, 4 players", share_target=0.25,
                   turn_target=4.0),
    ),
    bench_cost_bot="lookahead",  # in the first seat (a family), against random sides
    bench_cost_target=2000.0,  # us a decision at the default budget: one searched move a turn
    # the reference: the search bot as the State (24 playouts), 4,000 games per arm,
    # 28 Nov 2026 (docs/mafia.md, "The search bot")
    bench_strength=BenchStrength(
        ("--players", "5", "--role", "state", "--bot", "lookahead", "--vs", "hunter",
         "--field", "expander,raider,expander,raider", "--seed", "1"),
        (6.50, 5.26, 7.74), "paired win rate lookahead - hunter as the State, field "
        "expander,raider,expander,raider, seed 1"),
    # the ladder as the State at 5 players against hunter (as strong as warden on wins,
    # ahead on purge points); strong_units: lookahead in all five seats searches every
    # side's move, ~0.25 s of CPU a game
    search=SearchBot(best="hunter", field="expander,raider,expander,raider", counts=(2_000, 400),
                     strong_units=200, compare=("--players", "5", "--role", "state")),
)
