"""Lemming Mafia, the flagship: a race with hidden bets and contracts
(``shared/rules/lemming-mafia.md``; decisions in ``docs/lemming-mafia.md``)."""
from analyzer.games import BenchStrength, BenchTable, GameInfo, SearchBot
from analyzer.games.lemming_mafia.layout import MAX_PLAYERS, MIN_PLAYERS, VARIANT_MIN_PLAYERS

GAME = GameInfo(
    name="lemming-mafia",
    title="Lemming Mafia",
    match="analyzer.games.lemming_mafia.match:LemmingMafiaMatch",
    bots="analyzer.games.lemming_mafia.registry",
    stats="analyzer.games.lemming_mafia.stats",
    report="analyzer.games.lemming_mafia.report",
    records="analyzer.games.lemming_mafia.records",
    rules="analyzer.games.lemming_mafia.ruleset:RULES",
    default_players=4,
    default_bots=("favourite", "timer", "contractor", "random", "random", "random"),
    unit="races",
    player_counts=(VARIANT_MIN_PLAYERS, MAX_PLAYERS),
    player_counts_text=f"{MIN_PLAYERS}-{MAX_PLAYERS} ({VARIANT_MIN_PLAYERS} as a variant)",
    board_help="board and contract deck TOML file",
    bench=(
        # targets: 1M races/s with random bots, 400k with the default table
        BenchTable("random bots", "random", (5_000_000, 500_000), 1_000_000, model=1_290_000),
        BenchTable("favourite,timer,contractor,random", "favourite,timer,contractor,random",
                   (5_000_000, 200_000), 400_000, model=428_000),
        BenchTable("favourite,timer,contractor,favourite", "favourite,timer,contractor,favourite",
                   (5_000_000, 200_000), model=389_000),
    ),
    bench_cost_bot="lookahead",
    bench_cost_target=2000.0,  # us a decision (the search bots' budget)
    # the reference is the look-ahead bot at its default (128 rollouts, drop 2) at 10,000 races per
    # arm against the strongest heuristic, the default table's other bots in the field
    # (docs/lemming-mafia.md, the ladder)
    bench_strength=BenchStrength(
        ("--bot", "lookahead", "--vs", "contractor", "--field", "favourite,timer,random", "--seed", "1"),
        (15.05, 13.73, 16.37), "paired win rate lookahead - contractor, field favourite,timer,random, seed 1"),
    # contractor: the strongest heuristic of the default table (40.3% of its races);
    # strong_units: its table (lookahead in every seat, 128 rollouts) costs ~25 ms of CPU a race
    search=SearchBot(best="contractor", field="favourite,timer,random", counts=(4_000, 1_000),
                     strong_units=2_000),
)
