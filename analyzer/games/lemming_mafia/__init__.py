"""Lemming Mafia, the flagship: a race with hidden bets and contracts
(``shared/rules/lemming-mafia.md``; decisions in ``docs/lemming-mafia.md``)."""
from analyzer.games import BenchTable, GameInfo
from analyzer.games.lemming_mafia.layout import MAX_PLAYERS, VARIANT_MIN_PLAYERS

GAME = GameInfo(
    name="lemming-mafia",
    title="Lemming Mafia",
    match="analyzer.games.lemming_mafia.match:LemmingMafiaMatch",
    bots="analyzer.games.lemming_mafia.registry",
    stats="analyzer.games.lemming_mafia.stats",
    report="analyzer.games.lemming_mafia.report",
    records="analyzer.games.lemming_mafia.records",
    default_players=4,
    default_bots=("favourite", "timer", "contractor", "random", "random", "random"),
    unit="races",
    player_counts=(VARIANT_MIN_PLAYERS, MAX_PLAYERS),
    board_help="board and contract deck TOML file",
    bench=(
        BenchTable("random bots", "random", (5_000_000, 500_000), 700_000, model=650_000),
        BenchTable("favourite,timer,contractor,random", "favourite,timer,contractor,random",
                   (5_000_000, 200_000), 250_000),
        BenchTable("favourite,timer,contractor,favourite", "favourite,timer,contractor,favourite",
                   (5_000_000, 200_000), 250_000),
    ),
    bench_cost_bot="lookahead",
)
